/**
 * What one attempt of an apply wrote: an entry per record (tour or case), written in the same
 * transaction as the record, so the entry exists exactly when the write does. A crashed apply
 * taken up again reads its journal and knows, without guessing, which writes are its own: a
 * record at the version its entry names was last written by this apply; at any other version
 * someone else wrote it. (Telling "one version later and in the target state" apart from a
 * foreign edit that happens to match is what the journal replaces: a second run producing the
 * same plan made such an edit look like the apply's own.)
 *
 * Storage: `T#<ws>#APPLY#<run_id>#<attempt>`, sort key the plan's key of the record (`case:<id>`,
 * `tour:<id>`, or `shift:<id>` for a tour the apply creates). Read whole, strongly consistent
 * (one Query per 1 MB: an entry per record of the plan). Kept 30 days.
 */
import { applyJournalPartition, type WorkspaceId } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, queryPartition, type TableWrite } from '../../data/table.ts';

export interface JournalEntry {
  /** The plan's key of the record. */
  key: string;
  /** The tour or case written (a created tour's id for `shift:` keys). */
  record_id: string;
  /** Steps of the record's plan written so far. */
  steps_done: number;
  /** The lock_version this apply last wrote (-1: it deleted the record). */
  written_version: number;
  /** The apply created the record (undoing deletes it). */
  created?: boolean;
  /** Undone: the record is back as the run read it. */
  restored?: boolean;
  /** The entry's own version. */
  lock_version: number;
}

const retentionSeconds = 30 * 24 * 3600;

const workspaceOf = (scope: StoreScope): WorkspaceId =>
  typeof scope === 'string' ? scope : scope.workspaceId;

export interface Journal {
  read(): Promise<Map<string, JournalEntry>>;
  /** One entry, strongly consistent: did a write whose answer was lost land? */
  readOne(key: string): Promise<JournalEntry | undefined>;
  /** The write of `next` (the entry after a record's write), conditional on `previous` as read. */
  write(next: Omit<JournalEntry, 'lock_version'>, previous: JournalEntry | undefined): TableWrite;
}

export function journalOf(scope: StoreScope, runId: string, attempt: number): Journal {
  const pk = applyJournalPartition(workspaceOf(scope), `${runId}#${attempt}`);
  return {
    async read() {
      const items = await queryPartition(pk, { consistent: true });
      return new Map(items.map((item) => [String(item.key), item as unknown as JournalEntry]));
    },
    async readOne(key) {
      return (await getRecord({ pk, sk: key }, { consistent: true })) as JournalEntry | undefined;
    },
    write(next, previous) {
      const expiresAt = Math.floor(Date.now() / 1000) + retentionSeconds;
      const key = { pk, sk: next.key };
      const record = { ...next, lock_version: previous ? previous.lock_version + 1 : 0 };
      return previous
        ? {
            kind: 'replace',
            key,
            entity: 'apply_journal',
            record,
            expectedVersion: previous.lock_version,
            expiresAt,
          }
        : { kind: 'create', key, entity: 'apply_journal', record, expiresAt };
    },
  };
}
