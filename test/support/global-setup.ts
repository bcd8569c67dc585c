/**
 * Starts the service once per test run as a user would, on a free port with a temporary
 * DATA_DIR and the test seed, and stops it afterwards. Tests reach it over real HTTP only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startService } from './service-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    dynamodbEndpoint: string;
    /** The admin plane's client secret (FSM_ADMIN_CLIENT_SECRET), for test/support/admin.ts. */
    adminClientSecret: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'fsm-test-'));
  const adminClientSecret = randomBytes(24).toString('base64url');
  const service = await startService({
    DATA_DIR: dataDir,
    FSM_SEED: 'test/support/test-seed.json',
    FSM_ADMIN_CLIENT_SECRET: adminClientSecret,
    // Lists walk their indexes 7 entries per Query: every list of the tests spans many index pages.
    FSM_LIST_QUERY_MAX: '7',
  });
  project.provide('baseUrl', service.baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('dynamodbEndpoint', service.dynamodbEndpoint);
  project.provide('adminClientSecret', adminClientSecret);
  return async () => {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
