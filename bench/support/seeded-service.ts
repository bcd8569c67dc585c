/**
 * A fresh service for a benchmark that loads its data through the data layer: workspaces seeded
 * with admin clients, and this process's data layer pointed at the service's DynamoDB Local (so
 * a bench can write 100,000 records straight into the table instead of through the API).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';

export interface BenchClient {
  client_id: string;
  client_secret: string;
}

export interface SeededService {
  service: RunningService;
  /** The service's DATA_DIR (its identity signing key is under identity/). */
  dataDir: string;
  /** A client-credentials access token of one of the seeded clients. */
  token(client: BenchClient): Promise<string>;
  /** Stops the service and removes its data. */
  stop(): Promise<void>;
}

export async function startSeededService(
  name: string,
  workspaces: Array<{ name: string; clients: BenchClient[] }>,
): Promise<SeededService> {
  const dataDir = await mkdtemp(join(tmpdir(), `fsm-${name}-bench-`));
  const seedFile = join(dataDir, 'seed.json');
  await writeFile(
    seedFile,
    JSON.stringify({
      workspaces: workspaces.map((workspace) => ({
        name: workspace.name,
        realm: 'shared',
        status: 'ACTIVE',
        clients: workspace.clients.map((client) => ({ ...client, roles: ['admin'] })),
      })),
    }),
  );
  const service = await startService(
    {
      DATA_DIR: join(dataDir, 'data'),
      FSM_SEED: seedFile,
      FSM_REPORT_DYNAMODB_CALLS: 'true',
      FSM_ADMIN_CLIENT_SECRET: randomBytes(16).toString('hex'),
      LOG_LEVEL: 'error',
    },
    120_000,
  );
  // The data layer of this process talks to the service's DynamoDB Local.
  Object.assign(process.env, {
    FSM_DYNAMODB_ENDPOINT: service.dynamodbEndpoint,
    FSM_TABLE_NAME: 'fsm',
    AWS_REGION: 'eu-central-1',
  });
  const { resetConfig } = await import('../../shared/config.ts');
  resetConfig();
  return {
    service,
    dataDir: join(dataDir, 'data'),
    async token(client) {
      const response = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', ...client }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token)
        throw new Error(`token of ${client.client_id}: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async stop() {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
