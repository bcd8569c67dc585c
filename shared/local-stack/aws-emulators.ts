/**
 * SQS and S3 for the local stack. fauxqs runs inside the Node process (no Docker, no Java) and
 * speaks the JSON SQS protocol and path-style S3 of the current AWS SDK, so the service code
 * uses the real clients with only an endpoint override.
 */
import { mkdir } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { startFauxqs } from 'fauxqs';
import { DEFAULT_REGION } from './create-resources.ts';

export interface AwsEmulators {
  /** One endpoint for SQS and S3 (S3 clients need `forcePathStyle: true`). */
  endpoint: string;
  stop(): Promise<void>;
}

/** dataDir: directory for fauxqs's SQLite file (queues, messages, buckets, objects); null = in memory. */
export async function startAwsEmulators(opts: {
  dataDir: string | null;
  port?: number;
}): Promise<AwsEmulators> {
  const dataDir = opts.dataDir === null ? null : resolvePath(opts.dataDir);
  if (dataDir !== null) await mkdir(dataDir, { recursive: true });
  const server = await startFauxqs({
    port: opts.port ?? 0,
    logger: false,
    // Only used for unsigned requests; signed ones carry their region.
    defaultRegion: DEFAULT_REGION,
    ...(dataDir === null ? {} : { dataDir }),
  });
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    stop: () => {
      stopped ??= server.stop();
      return stopped;
    },
  };
}
