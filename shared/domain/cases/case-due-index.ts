/**
 * The due-time index (docs/service-levels.md): for every unfinished case with a due_by, one item per
 * moment at which time alone moves its sla_status (case-service-level.ts `slaMoments`), in the
 * partition of that moment's UTC minute. The case store writes these items in the transaction of
 * every case write that moves a moment (case.store.ts), so the index holds exactly the records'
 * moments; the detector (sla-detector.ts) reads the minutes that passed, one Query each, and never
 * the cases table. An item whose moment passed unread (a case written with a due_by long past, or
 * a detector that stayed down) expires seven days after it, as outbox events do.
 */
import { keys, type WorkspaceId } from '../../data/keys.ts';
import type { Key, TableWrite } from '../../data/table.ts';
import { type ServiceLevelFields, type SlaMoment, slaMoments } from './case-service-level.ts';

/** The UTC minute a moment falls in, as its partition names it: `YYYY-MM-DDTHH:MM`. */
export const minuteOf = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/** One minute, in ms: the width of a partition of the index. */
export const minuteMs = 60_000;

/** How long a passed item is kept for a late detector before DynamoDB's TTL takes it. */
const keptAfterMomentMs = 7 * 24 * 60 * 60 * 1000;

/**
 * Moments further in the past than this are neither written nor removed by a case write: the
 * write judges the case itself (its sla_status is already what the moment would make it) and
 * the detector has left those minutes behind, so such an item would only be read by nobody.
 */
const pastSlackMs = 5 * minuteMs;

/** What an item of the index holds: enough to find the case and to know when it is due. */
export interface DueIndexEntry {
  workspace_id: string;
  case_id: string;
  kind: SlaMoment['kind'];
  /** The moment, ISO 8601 (UTC). */
  at: string;
}

type IndexedCase = ServiceLevelFields & { id: string };

export function dueIndexKey(workspaceId: WorkspaceId, caseId: string, moment: SlaMoment): Key {
  return keys.slaDue(minuteOf(moment.at), workspaceId, caseId, moment.kind);
}

function byKey(workspaceId: WorkspaceId, record: IndexedCase | undefined, now: number) {
  const moments = new Map<string, { key: Key; moment: SlaMoment }>();
  for (const moment of slaMoments(record)) {
    if (!record || moment.at < now - pastSlackMs) continue;
    const key = dueIndexKey(workspaceId, record.id, moment);
    moments.set(`${key.pk}\u0000${key.sk}`, { key, moment });
  }
  return moments;
}

/**
 * The index writes of a case write from `before` to `after` (create: no before; delete: no after):
 * the moments that went away are discarded and the new ones put; nothing when they stay.
 */
export function dueIndexWrites(
  workspaceId: WorkspaceId,
  before: IndexedCase | undefined,
  after: IndexedCase | undefined,
  now = Date.now(),
): TableWrite[] {
  const old = byKey(workspaceId, before, now);
  const next = byKey(workspaceId, after, now);
  const writes: TableWrite[] = [];
  for (const [name, { key, moment }] of old) {
    // A moment that moved within its minute keeps its key: the put below replaces it (a
    // transaction may not name one item twice).
    if (!next.has(name)) writes.push({ kind: 'discard', key });
    else if (next.get(name)?.moment.at === moment.at) next.delete(name);
  }
  for (const { key, moment } of next.values()) {
    const entry: DueIndexEntry = {
      workspace_id: workspaceId,
      case_id: after?.id ?? '',
      kind: moment.kind,
      at: new Date(moment.at).toISOString(),
    };
    writes.push({
      kind: 'put',
      key,
      entity: 'sla_due',
      record: { ...entry },
      expiresAt: Math.ceil((moment.at + keptAfterMomentMs) / 1000),
    });
  }
  return writes;
}
