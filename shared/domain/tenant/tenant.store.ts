/**
 * Storage of the tenant record, which is the workspace item itself (keys.ts `workspace`): the
 * name the admin plane shows and the one the workspace edits are one field, and its lock_version
 * moves with every change of either. Reads are strongly consistent (the authentication cache
 * keeps the workspace for its status only, never for this record); a write replaces the item on
 * the version read, with its event, through the workspace store's own write.
 */
import { keys } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import { type AdminWorkspaceRecord, replaceWorkspace } from '../workspaces/workspace-admin.store.ts';
import type { TenantAsset } from './tenant-assets.ts';

/** The workspace item with the tenant's own fields. */
export interface TenantRecord extends AdminWorkspaceRecord {
  language?: string;
  region?: string;
  timezone?: string;
  logo?: TenantAsset;
  favicon?: TenantAsset;
}

export interface WorkspaceTenantStore {
  /** One strongly consistent GetItem; undefined when the workspace is gone. */
  get(): Promise<TenantRecord | undefined>;
  /** Replace the record if it still has `current`'s lock_version, with its event. */
  replace(next: TenantRecord, current: TenantRecord, event: DomainEvent): Promise<void>;
}

export const tenantStore = {
  of(scope: StoreScope): WorkspaceTenantStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      async get() {
        return (await getRecord(keys.workspace(workspaceId), { consistent: true })) as
          | TenantRecord
          | undefined;
      },
      replace: (next, current, event) => replaceWorkspace(next, current, event),
    };
  },
};
