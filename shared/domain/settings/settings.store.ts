/**
 * Storage of the settings singletons: one item per workspace and singleton (keys.ts
 * `settings`), absent until the first PATCH. A write puts the whole item unconditionally with
 * its event in one transaction: settings are last-write-wins (settings.service.ts says why).
 */
import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, type StoredRecord, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';

/** One workspace's settings singletons, by name (`ai_assistant`, `mcp`, …). */
export interface WorkspaceSettings {
  /** One GetItem; undefined until the singleton's first write. */
  get(name: string): Promise<StoredRecord | undefined>;
  /** The same, strongly consistent: what a PATCH merges into. */
  getConsistent(name: string): Promise<StoredRecord | undefined>;
  /** Puts the singleton with its event, in one transaction. */
  put(name: string, record: StoredRecord, event: DomainEvent): Promise<void>;
}

export const settingsStore = {
  of(scope: StoreScope): WorkspaceSettings {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = (name: string) => keys.settings(workspaceId, name);
    return {
      get: (name) => getRecord(key(name)),
      getConsistent: (name) => getRecord(key(name), { consistent: true }),
      async put(name, record, event) {
        await transactWrite([
          { kind: 'put', key: key(name), entity: 'settings', record },
          outboxWrite(event),
        ]);
      },
    };
  },
};
