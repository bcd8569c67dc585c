/**
 * The identity server on a free loopback port with in-memory storage, directory and accounts:
 * what unit tests of the provider's flows drive over real HTTP. Not used by the service.
 */
import { createServer, type Server } from 'node:http';
import type { ClientRecord } from '../../shared/identity/identity-directory.ts';
import { createIdentityServer } from '../../shared/identity/identity-server.ts';
import { fileSigningKeyStore } from '../../shared/identity/signing-keys.ts';
import { type InMemoryAccounts, inMemoryAccounts, type MemoryUser } from './in-memory-accounts.ts';
import { inMemoryDirectory } from './in-memory-directory.ts';
import { memoryAdapterFactory } from './memory-oidc-storage.ts';

export interface RunningIdentityServer {
  authUrl: string;
  /** Issuer of the realm `shared`. */
  issuer: string;
  accounts: InMemoryAccounts;
  close(): Promise<void>;
}

export async function startTestIdentityServer(options: {
  keyFile: string;
  /** Clients of the realm `shared`. */
  clients: ClientRecord[];
  users: MemoryUser[];
  maxFailures?: number;
  trustedProxyHops?: number;
}): Promise<RunningIdentityServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const authUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const accounts = inMemoryAccounts(options.users, options.maxFailures);
  const identity = createIdentityServer({
    authUrl,
    audience: 'fsm-api',
    directory: inMemoryDirectory({ shared: options.clients }),
    accounts,
    keys: fileSigningKeyStore(options.keyFile),
    adapterFactory: memoryAdapterFactory(),
    ...(options.trustedProxyHops !== undefined ? { trustedProxyHops: options.trustedProxyHops } : {}),
  });
  server.on('request', (req, res) => void identity.handle(req, res));
  return {
    authUrl,
    issuer: `${authUrl}/realms/shared`,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
