/**
 * The admin control plane's credentials on the local stack: the reserved realm `fsm-admin`
 * and one client-credentials client in it, written at every start (idempotently).
 *
 * - FSM_ADMIN_CLIENT_ID: the client id (default `fsm-admin`).
 * - FSM_ADMIN_CLIENT_SECRET: its secret. When unset, a random secret is created on the first
 *   start and kept in `$DATA_DIR/identity/admin-client.json` (mode 0600), so it survives
 *   restarts like the rest of the data.
 *
 * What the client may do: shared/domain/workspaces/admin-client.ts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { adminRealm } from '../auth/realm-name.ts';
import {
  defaultAdminClientId,
  minimumAdminSecretLength,
  newAdminClientSecret,
  writeAdminClient,
} from '../domain/workspaces/admin-client.ts';

export interface AdminClientCredentials {
  realm: string;
  clientId: string;
  clientSecret: string;
}

export async function bootstrapAdminClient(options: {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}): Promise<AdminClientCredentials> {
  const env = options.env ?? process.env;
  const clientId = env.FSM_ADMIN_CLIENT_ID || defaultAdminClientId;
  const clientSecret =
    env.FSM_ADMIN_CLIENT_SECRET || (await keptSecret(join(options.dataDir, 'identity', 'admin-client.json')));
  if (clientSecret.length < minimumAdminSecretLength)
    throw new Error(`FSM_ADMIN_CLIENT_SECRET must be at least ${minimumAdminSecretLength} characters long.`);
  await writeAdminClient(clientId, clientSecret);
  return { realm: adminRealm, clientId, clientSecret };
}

/** The secret kept in `file`, created (random, 256 bits) when the file does not exist yet. */
async function keptSecret(file: string): Promise<string> {
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as { client_secret?: unknown };
    if (typeof kept.client_secret === 'string' && kept.client_secret) return kept.client_secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${file} could not be read: ${(error as Error).message}`);
    }
  }
  const secret = newAdminClientSecret();
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ client_secret: secret }, null, 2)}\n`, { mode: 0o600 });
  return secret;
}
