/** The identity provider's directory port (identity-directory.ts) over fixed data. */
import type { ClientRecord, IdentityDirectory } from '../../shared/identity/identity-directory.ts';

/**
 * A directory over fixed data, for tests: `realms` maps each realm name to its clients.
 * Records are copied, so later changes to the argument do not leak in.
 */
export function inMemoryDirectory(realms: Record<string, ClientRecord[]>): IdentityDirectory {
  const byRealm = new Map<string, Map<string, ClientRecord>>();
  for (const [realm, clients] of Object.entries(realms)) {
    byRealm.set(
      realm,
      new Map(
        clients.map((client) => [client.clientId, { ...client, redirectUris: [...client.redirectUris] }]),
      ),
    );
  }
  return {
    async realmExists(realm) {
      return byRealm.has(realm);
    },
    async findClient(realm, clientId) {
      const client = byRealm.get(realm)?.get(clientId);
      return client ? { ...client, redirectUris: [...client.redirectUris] } : undefined;
    },
  };
}
