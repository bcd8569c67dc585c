/**
 * What a pull sends for a record (docs/offline-sync.md, "Pull"): the record as it is now against
 * the user's scope now, never what an entry says happened. Gone: `delete`. Held by the user on a
 * day of the window (comments: their case held): `upsert`, whole. Otherwise `evict` (kept on the
 * server, gone from the device; an app that never held it ignores it). A case that enters the
 * scope comes with its comments, and one that leaves it (or is gone) takes them along, so a
 * device never holds the comments of a case it does not hold.
 */
import type { Grant } from '../../auth/grants.ts';
import { currentInstances, type ReadableTypes } from './sync-instances.ts';
import { type ChangeOp, type SyncChange, versionOf } from './sync-page.ts';
import { commentsOfCases, currentRecords, type RecordRef, refKey, type SyncRecord } from './sync-records.ts';
import { catalogTypes, holdingOf, type SyncType } from './sync-subject.ts';
import { inWindow, type SyncWindow } from './sync-window.ts';

/** Who pulls: whose scope, and which types their grants read (their own shifts always). */
export interface SyncReader {
  workspaceId: string;
  userId: string;
  readable: ReadonlySet<SyncType>;
  /** Which custom-object types the reader reads (read once per pull). */
  types: ReadableTypes;
}

const readGrants: Record<SyncType, Grant | undefined> = {
  case: 'cases:read',
  tour: 'tours:read',
  shift: undefined,
  comment: 'comments:read',
  area: 'areas:read',
  tag: 'tags:read',
  skill: 'skills:read',
  custom_object: 'custom-objects:instances:read',
};

export function readableTypes(grants: ReadonlySet<Grant>): Set<SyncType> {
  return new Set(
    (Object.entries(readGrants) as Array<[SyncType, Grant | undefined]>)
      .filter(([, grant]) => grant === undefined || grants.has(grant))
      .map(([type]) => type),
  );
}

export interface Wanted extends RecordRef {
  /** Send the case's comments with it when it is held (it enters the scope). */
  enter?: boolean;
}

function holds(
  reader: SyncReader,
  window: SyncWindow,
  type: SyncType,
  record: SyncRecord,
  cases: Map<string, SyncRecord>,
): boolean {
  if (catalogTypes.has(type)) return true;
  if (type === 'comment') {
    const target =
      record.target_type === 'core:case' ? cases.get(`case#${String(record.target_id)}`) : undefined;
    return target !== undefined && holds(reader, window, 'case', target, cases);
  }
  const holding = holdingOf(type, record);
  return holding !== undefined && holding.userId === reader.userId && inWindow(window, holding.day);
}

const change = (type: string, id: string, op: ChangeOp, record?: SyncRecord): SyncChange => ({
  type,
  id,
  op,
  ...versionOf(record),
  ...(op === 'upsert' && record ? { data: record } : {}),
});

/**
 * The change group of each wanted record, in the order given: its own change first, then its
 * comments' for a case that enters or leaves. `onlyHeld`: a record not held sends nothing (a
 * full pull, whose app holds nothing yet).
 */
export async function changeGroups(
  reader: SyncReader,
  window: SyncWindow,
  wanted: readonly Wanted[],
  options: { onlyHeld?: boolean } = {},
): Promise<SyncChange[][]> {
  const unreadInstances = new Set<string>();
  const readable = wanted.filter((ref) => reader.readable.has(ref.type));
  const records = await currentRecords(reader.workspaceId, reader.userId, readable);
  const instances = await currentInstances(
    reader.workspaceId,
    reader.types,
    readable.filter((ref) => ref.type === 'custom_object'),
  );
  for (const [id, { record, read }] of instances) {
    records.set(refKey({ type: 'custom_object', id }), record);
    if (!read) unreadInstances.add(id);
  }
  const caseIds = [
    ...new Set(
      [...records.values()].flatMap((record) =>
        record.target_type === 'core:case' && !records.has(`case#${String(record.target_id)}`)
          ? [String(record.target_id)]
          : [],
      ),
    ),
  ];
  const cases = new Map(records);
  if (caseIds.length > 0) {
    const targets = await currentRecords(
      reader.workspaceId,
      reader.userId,
      caseIds.map((id) => ({ type: 'case' as const, id })),
    );
    for (const [key, record] of targets) cases.set(key, record);
  }
  const ops = new Map<string, ChangeOp>();
  const held = (ref: Wanted, record: SyncRecord) =>
    ref.type === 'custom_object'
      ? !unreadInstances.has(ref.id)
      : holds(reader, window, ref.type, record, cases);
  const withComments: string[] = [];
  for (const ref of readable) {
    const record = records.get(refKey(ref));
    const op: ChangeOp = !record ? 'delete' : held(ref, record) ? 'upsert' : 'evict';
    ops.set(refKey(ref), op);
    if (ref.type === 'case' && reader.readable.has('comment') && (op !== 'upsert' || ref.enter)) {
      if (!(options.onlyHeld && op !== 'upsert')) withComments.push(ref.id);
    }
  }
  const comments =
    withComments.length > 0
      ? await commentsOfCases(reader.workspaceId, reader.userId, withComments)
      : new Map();
  return wanted.map((ref) => {
    const op = ops.get(refKey(ref));
    if (!op || (options.onlyHeld && op !== 'upsert')) return [];
    const record = records.get(refKey(ref));
    const group = [change(ref.type, ref.id, op, record)];
    for (const comment of (ref.type === 'case' ? (comments.get(ref.id) ?? []) : []) as SyncRecord[]) {
      group.push(change('comment', comment.id, op === 'upsert' ? 'upsert' : 'evict', comment));
    }
    return group;
  });
}
