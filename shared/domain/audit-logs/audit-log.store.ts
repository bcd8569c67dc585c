/**
 * Audit entries live in one partition per workspace, sorted by `<created_at>#<event id>`, so a
 * time window is one key range and newest-first is a reverse query. A page costs the entries
 * up to its end plus a key-only COUNT of the window (see README.md).
 */

import { collectionPk, keys, type WorkspaceId } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { countPartition, putRecords, queryPartition } from '../../data/table.ts';
import type { AuditLogEntry } from './audit-log.schema.ts';

export const auditLogStore = {
  /**
   * The entries of a stream batch, whichever workspaces they belong to (a batch mixes them; each
   * entry names its own). Idempotent: a redelivered event overwrites its own entry.
   */
  async putMany(entries: ReadonlyArray<{ workspaceId: WorkspaceId; entry: AuditLogEntry }>): Promise<void> {
    await putRecords(
      entries.map(({ workspaceId, entry }) => ({
        key: keys.auditEntry(workspaceId, entry.created_at, entry.id),
        entity: 'audit',
        record: { ...entry },
      })),
    );
  },

  /** One workspace's entries: every read is scoped to it by construction. */
  of(scope: StoreScope) {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      /** Entries with from <= created_at < to, newest first, the first `limit` of them, and the total. */
      async listNewestFirst(
        window: { from?: string | undefined; to?: string | undefined },
        limit: number,
      ): Promise<{ entries: AuditLogEntry[]; total: number }> {
        const pk = collectionPk(workspaceId, 'AUDIT');
        // `<to>#<id>` sorts after `<to>`, so BETWEEN from AND to excludes entries at exactly `to`.
        const range: [string, string] = [window.from ?? '0', window.to ?? '9'];
        const [entries, total] = await Promise.all([
          queryPartition(pk, { skBetween: range, descending: true, limit }),
          countPartition(pk, range),
        ]);
        return { entries: entries as AuditLogEntry[], total };
      },
    };
  },
};
