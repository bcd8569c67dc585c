/**
 * Who calls the admin control plane (`/admin-v1`, SPEC.md Authentication rule 11): a
 * client-credentials token of the reserved realm `fsm-admin`, verified exactly as workspace
 * tokens are (signature, issuer `${authUrl}/realms/fsm-admin`, audience, expiry) and answered
 * with the same 401 problem and WWW-Authenticate shapes. There is no grant model: a valid admin
 * token may do everything here, so these routes never answer a grant-based 403.
 *
 * Workspace tokens are refused here (token_invalid), and admin tokens are refused by every
 * workspace route, because no workspace record exists for their `tenant_id` (`fsm-admin`).
 * The client must still exist in the realm (looked up like workspace principals, cached for
 * `config().authCacheSeconds`), so removing an admin client revokes its unexpired tokens.
 */
import { config } from '../config.ts';
import { tableIdentityDirectory } from '../data/directory.store.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { ClientRecord } from '../identity/identity-directory.ts';
import { adminRealm } from './realm-name.ts';
import { authenticationProblem, bearerTokenOrThrow, verifyAccessTokenOrThrow } from './token-verifier.ts';
import { TtlCache } from './ttl-cache.ts';

/** The caller of an admin route: an admin client acting as its service principal. */
export interface AdminCaller {
  clientId: string;
  principalId: string;
}

/** What an admin operation knows about its request. */
export interface AdminContext extends RequestContext {
  admin: AdminCaller;
}

const clients = new TtlCache<ClientRecord | undefined>(() => config().authCacheSeconds * 1000);

export async function authenticateAdminOrThrow(authorization: string | undefined): Promise<AdminCaller> {
  const token = await verifyAccessTokenOrThrow(bearerTokenOrThrow(authorization));
  if (token.realm !== adminRealm || token.workspaceId !== adminRealm || !token.clientId) {
    throw authenticationProblem('token_invalid', 'The admin control plane accepts only admin tokens.');
  }
  const clientId = token.clientId;
  const client = await clients.get(clientId, () => tableIdentityDirectory.findClient(adminRealm, clientId));
  if (!client || client.workspaceId !== adminRealm || client.principalId !== token.subject) {
    throw authenticationProblem('token_invalid', 'The admin client of this token no longer exists.');
  }
  return { clientId, principalId: token.subject };
}
