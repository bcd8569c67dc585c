/**
 * Storage of the permission matrices of PROTECTED custom-object types (keys.ts
 * `definitionPermissions`): one item per definition, apart from it so that a PUT of the matrix
 * never moves the definition's lock_version. Replaced whole, with its event.
 */
import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { PermissionEntry } from './permission-entry.ts';

/** The matrices of one workspace: every call is scoped to it by construction. */
export interface WorkspacePermissionStore {
  /** The stored matrix of a definition (empty when none was ever saved). */
  entries(definitionId: string): Promise<PermissionEntry[]>;
  /** Replace the matrix of a definition, with its event. */
  replace(definitionId: string, entries: readonly PermissionEntry[], event: DomainEvent): Promise<void>;
}

export const permissionStore = {
  of(scope: StoreScope): WorkspacePermissionStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      async entries(definitionId) {
        const stored = await getRecord(keys.definitionPermissions(workspaceId, definitionId));
        return (stored?.entries as PermissionEntry[] | undefined) ?? [];
      },
      async replace(definitionId, entries, event) {
        await transactWrite([
          {
            kind: 'put',
            key: keys.definitionPermissions(workspaceId, definitionId),
            entity: 'custom_object_permissions',
            record: { definition_id: definitionId, entries, updated_at: new Date().toISOString() },
          },
          outboxWrite(event),
        ]);
      },
    };
  },
};
