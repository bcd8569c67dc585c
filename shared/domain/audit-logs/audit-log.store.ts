/**
 * Audit entries live in one partition per workspace, sorted by `<created_at>#<event id>`, so a
 * time window is one key range and newest-first is a reverse query. A page costs the entries
 * up to its end plus a key-only COUNT of the window (see README.md).
 */

import { collectionPk, keys, type WorkspaceId } from '../../data/keys.ts';
import { countPartition, putRecords, queryPartition } from '../../data/table.ts';
import type { AuditLogEntry } from './audit-log.schema.ts';

export const auditLogStore = {
  /** The entries of a stream batch. Idempotent: a redelivered event overwrites its own entry. */
  async putMany(entries: ReadonlyArray<{ workspaceId: WorkspaceId; entry: AuditLogEntry }>): Promise<void> {
    await putRecords(
      entries.map(({ workspaceId, entry }) => ({
        key: keys.auditEntry(workspaceId, entry.created_at, entry.id),
        entity: 'audit',
        record: { ...entry },
      })),
    );
  },

  /** Entries with from <= created_at < to, newest first, the first `limit` of them, and the total. */
  async listNewestFirst(
    workspaceId: WorkspaceId,
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
