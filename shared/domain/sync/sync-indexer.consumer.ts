/**
 * The sync indexer (docs/offline-sync.md, "The change log"): a consumer of the `records` group
 * that turns each committed change of a synced record into feed entries, one per user whose
 * scope the change touches (holders before and after: the one it left pulls an `evict`), or one
 * in the shared feed for the catalogs (areas, tags, skills). Positions come from the head, moved
 * in the transaction that writes the entries (sync.store.ts `append`): a position is given out
 * once, and an entry at or below a head that was read is always there.
 *
 * Before the entries, it moves the users' scope index (cases, tours and shifts by day) and marks
 * each record's version and changed fields, so that a pull that sees an entry also finds the
 * scope it describes. A mark of a newer version wins: an event delivered late moves nothing.
 *
 * Idempotent as a consumer must be: a batch handed over again writes the same scope items and
 * marks, and feed entries that only say "look at this record again" (a pull resolves each entry
 * against the record as it is then, so an entry twice costs a read, never a wrong copy).
 */

import type { EventConsumer } from '../../events/consumers.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import { recordSyncIndex } from '../../observability/metrics.ts';
import { caseStore } from '../cases/case.store.ts';
import { type FeedEntry, type RecordMark, sharedFeed, syncStore } from './sync.store.ts';
import { catalogTypes, type HeldType, holdingOf, type SyncSubject, syncSubjectOf } from './sync-subject.ts';
import { dayOf, inWindow, windowOn } from './sync-window.ts';

type Owned = { owner: string } & Omit<FeedEntry, 'seq'>;

export const syncIndexer: EventConsumer = {
  name: 'sync-indexer',
  async handleBatch(events: readonly DomainEvent[]) {
    const byWorkspace = new Map<string, SyncSubject[]>();
    for (const event of events) {
      const subject = syncSubjectOf(event);
      if (!subject) continue;
      const subjects = byWorkspace.get(event.workspace_id) ?? [];
      subjects.push(subject);
      byWorkspace.set(event.workspace_id, subjects);
    }
    for (const [workspaceId, subjects] of byWorkspace) await indexWorkspace(workspaceId, subjects);
  },
};

const recordKey = (subject: { type: string; id: string }) => `${subject.type}#${subject.id}`;

/** The holders of the cases that comments are on, as the cases are now. */
async function caseHolders(workspaceId: string, subjects: readonly SyncSubject[]) {
  const ids = [...new Set(subjects.flatMap((subject) => (subject.caseId ? [subject.caseId] : [])))];
  const cases = ids.length > 0 ? await caseStore.of(workspaceId).getMany(ids) : [];
  return new Map(ids.map((id, index) => [id, cases[index] ? holdingOf('case', cases[index]) : undefined]));
}

/** The mark after a change: a newer version records it and the fields it set. */
function markAfter(mark: RecordMark | undefined, subject: SyncSubject): RecordMark {
  // A record first seen at a later version: what changed before it is not known.
  const current = mark ?? {
    version: -1,
    fields: {},
    complete_after: subject.created || subject.version < 0 ? -1 : subject.version - 1,
  };
  if (subject.version < current.version) return current;
  const fields = { ...current.fields };
  for (const field of subject.changed) fields[field] = subject.version;
  return {
    version: subject.version,
    fields,
    ...(current.complete_after !== undefined ? { complete_after: current.complete_after } : {}),
    ...(subject.deleted ? { deleted: true } : {}),
  };
}

export async function indexWorkspace(workspaceId: string, subjects: readonly SyncSubject[]): Promise<number> {
  const store = syncStore(workspaceId);
  const records = [...new Map(subjects.map((subject) => [recordKey(subject), subject])).values()];
  const [found, holders] = await Promise.all([store.marks(records), caseHolders(workspaceId, subjects)]);
  const marks = new Map(records.map((record, index) => [recordKey(record), found[index]]));
  const window = windowOn(dayOf(Date.now()));
  const entries: Owned[] = [];
  const moves: Array<{
    userId: string;
    entry: { type: HeldType; id: string; day: string };
    present: boolean;
  }> = [];
  for (const subject of subjects) {
    const { type, id } = subject;
    const mark = marks.get(recordKey(subject));
    // A change older than what the mark already holds (delivered late) moves no scope.
    const current = !mark || subject.version >= mark.version || subject.version === -1;
    marks.set(recordKey(subject), markAfter(mark, subject));
    if (catalogTypes.has(type)) {
      entries.push({ owner: sharedFeed, type, id, ...(subject.parent ? { parent: subject.parent } : {}) });
      continue;
    }
    if (type === 'comment') {
      const holder = subject.caseId ? holders.get(subject.caseId) : undefined;
      if (holder) entries.push({ owner: holder.userId, type, id });
      continue;
    }
    const { before, after } = subject;
    for (const userId of new Set([before?.userId, after?.userId])) {
      if (!userId) continue;
      // Entering: the user did not hold it before, or held it on a day outside the window now.
      const enter = after?.userId === userId && (before?.userId !== userId || !inWindow(window, before.day));
      entries.push({ owner: userId, type, id, ...(enter ? { enter } : {}) });
    }
    if (!current) continue;
    const held = type as HeldType;
    if (before)
      moves.push({ userId: before.userId, entry: { type: held, id, day: before.day }, present: false });
    if (after) moves.push({ userId: after.userId, entry: { type: held, id, day: after.day }, present: true });
  }
  await Promise.all([
    store.moveScope(moves),
    store.flagCasesWithComments(subjects.flatMap((subject) => (subject.caseId ? [subject.caseId] : []))),
    store.putMarks(
      records.map((record) => ({
        type: record.type,
        id: record.id,
        mark: marks.get(recordKey(record)) as RecordMark,
      })),
    ),
  ]);
  const head = await store.append(entries);
  const oldest = Math.min(...subjects.map((subject) => subject.occurredAt));
  recordSyncIndex({ lagMs: Date.now() - oldest, entries: entries.length });
  return head;
}
