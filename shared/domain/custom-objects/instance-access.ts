/**
 * Who reads and writes the instances of a definition, over REST and GraphQL alike.
 *
 * - STANDARD types follow the role grants: `custom-objects:instances:read` reads,
 *   `custom-objects:instances:update` writes.
 * - PROTECTED types add the type's permission matrix (SPEC.md, "Custom-object permission
 *   entry"): besides the grant, the caller needs an entry for `everyone` or for one of their
 *   roles, at level `read` (reads) or `write` (reads and writes). Holders of
 *   `custom-objects:definitions:edit-permissions` (owners and admins), who may rewrite the matrix
 *   anyway, always pass. A new PROTECTED type has an empty matrix: only they reach it.
 */

import type { Principal } from '../../auth/actor.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { permissionStore } from './permission.store.ts';
import type { PermissionEntry } from './permission-entry.ts';

export { type PermissionEntry, permissionLevels, principalTypes } from './permission-entry.ts';

export interface InstanceAccess {
  read: boolean;
  write: boolean;
}

/** The stored matrix of a definition (empty when none was ever saved). */
export async function matrixOf(workspaceId: string, definitionId: string): Promise<PermissionEntry[]> {
  return permissionStore.of(workspaceId).entries(definitionId);
}

/** What the matrix grants a principal: the strongest level of the entries that name them. */
export function levelFor(
  principal: Pick<Principal, 'roles'>,
  entries: readonly PermissionEntry[],
): 'read' | 'write' | undefined {
  let level: 'read' | 'write' | undefined;
  for (const entry of entries) {
    const names =
      entry.principal_type === 'everyone' ||
      (entry.principal_type === 'role' &&
        entry.role_name !== undefined &&
        principal.roles.includes(entry.role_name));
    if (!names) continue;
    if (entry.level === 'write') return 'write';
    level = 'read';
  }
  return level;
}

export async function instanceAccess(
  principal: Pick<Principal, 'roles' | 'grants'>,
  workspaceId: string,
  definition: Pick<CustomObjectDefinition, 'id' | 'access_class'>,
): Promise<InstanceAccess> {
  const read = principal.grants.has('custom-objects:instances:read');
  const write = principal.grants.has('custom-objects:instances:update');
  if (definition.access_class !== 'PROTECTED') return { read, write };
  if (principal.grants.has('custom-objects:definitions:edit-permissions')) return { read: true, write: true };
  const level = levelFor(principal, await matrixOf(workspaceId, definition.id));
  return { read: read && level !== undefined, write: write && level === 'write' };
}
