/**
 * Who is calling, in which workspace, and may they: token → principal → workspace state
 * (workspace-state.ts) → grants. Workspace and principal records are cached per container for
 * `config().authCacheSeconds` (default 5 s), so a warm request costs no lookups of its own;
 * a deactivation or role change takes effect within that lifetime (immediately in the local
 * stack, whose admin writes evict the entries).
 */

import type { Principal } from '../auth/actor.ts';
import { config } from '../config.ts';
import { getPrincipal, type PrincipalRecord } from '../data/directory.store.ts';
import { ProblemError } from '../http/problem.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import { grantsOfRoles } from './grants.ts';
import { authenticationProblem, bearerTokenOrThrow, verifyAccessTokenOrThrow } from './token-verifier.ts';
import { TtlCache } from './ttl-cache.ts';
import { assertWorkspaceOpen, cachedWorkspace, evictCachedWorkspace } from './workspace-state.ts';

const ttl = () => config().authCacheSeconds * 1000;
const principals = new TtlCache<PrincipalRecord | undefined>(ttl);

/** Drop cached state of a workspace or principal after changing it in this container. */
export function evictAuthCache(workspaceId: string, principalId?: string): void {
  evictCachedWorkspace(workspaceId);
  if (principalId) principals.delete(`${workspaceId}/${principalId}`);
  else principals.clear();
}

export async function authenticateOrThrow(
  authorization: string | undefined,
  route: RouteSpec,
): Promise<Principal> {
  const token = await verifyAccessTokenOrThrow(bearerTokenOrThrow(authorization));
  const [workspace, principal] = await Promise.all([
    cachedWorkspace(token.workspaceId),
    principals.get(`${token.workspaceId}/${token.subject}`, () =>
      getPrincipal(token.workspaceId, token.subject),
    ),
  ]);
  if (!workspace || workspace.realm !== token.realm) {
    throw authenticationProblem('token_invalid', 'The token names no workspace of this realm.');
  }
  if (principal?.status !== 'ACTIVE') {
    throw authenticationProblem('token_invalid', 'The token holder can no longer access this workspace.');
  }
  if (!route.allowInactiveTenant) assertWorkspaceOpen(workspace);
  const grants = grantsOfRoles(principal.roles);
  const missing = (route.grants ?? []).filter((grant) => !grants.has(grant));
  if (missing.length > 0) {
    throw new ProblemError('access-denied', {
      detail: `This operation needs the grants: ${missing.join(', ')}.`,
      data: { reason: 'missing_grant', required_grants: missing },
    });
  }
  return {
    id: principal.id,
    kind: principal.kind,
    workspaceId: workspace.id,
    roles: principal.roles,
    grants,
  };
}
