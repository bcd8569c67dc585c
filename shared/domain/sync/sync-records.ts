/**
 * The records a pull sends, as REST reads them (docs/offline-sync.md, "Pull"): read strongly
 * consistent after the feed, so a record is never older than the entry that named it (an entry
 * consumed with an older copy would lose the change for good). One BatchGetItem per 100 records
 * of a type; comments come with their authors' names and signed attachment URLs, as the
 * comments API shows them to the reader.
 */

import { areaStore } from '../areas/area.store.ts';
import { caseStore } from '../cases/case.store.ts';
import { withPlanningDefaults } from '../cases/case-planning.ts';
import { commentStore, type StoredComment, targetKeyOf } from '../comments/comment.store.ts';
import { toComment, viewOf } from '../comments/comment-view.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import { skillStore } from '../skills/skill.store.ts';
import { tagStore } from '../tags/tag.store.ts';
import { tagUsageStore } from '../tags/tag-usage.store.ts';
import { tourStore } from '../tours/tour.store.ts';
import { syncStore } from './sync.store.ts';
import type { SyncType } from './sync-subject.ts';

export type SyncRecord = Record<string, unknown> & { id: string; lock_version?: number };

export interface RecordRef {
  type: SyncType;
  id: string;
  /** Custom-object instances: the definition's id. */
  parent?: string | undefined;
}

export const refKey = (ref: RecordRef) => `${ref.type}#${ref.id}`;

async function presentComments(
  workspaceId: string,
  readerId: string,
  comments: readonly StoredComment[],
): Promise<SyncRecord[]> {
  if (comments.length === 0) return [];
  const view = await viewOf(workspaceId, comments, { readerId, readAtMs: undefined, myReactions: new Set() });
  return comments.map((comment) => toComment(comment, view) as unknown as SyncRecord);
}

async function readType(
  workspaceId: string,
  readerId: string,
  type: SyncType,
  ids: readonly string[],
): Promise<Array<SyncRecord | undefined>> {
  switch (type) {
    case 'case':
      return (await caseStore.of(workspaceId).getManyConsistent(ids)).map(
        (record) => record && (withPlanningDefaults(record) as unknown as SyncRecord),
      );
    case 'tour':
      return (await tourStore.of(workspaceId).getManyConsistent(ids)) as unknown as Array<
        SyncRecord | undefined
      >;
    case 'shift':
      return (await shiftStore.of(workspaceId).getManyConsistent(ids)) as unknown as Array<
        SyncRecord | undefined
      >;
    case 'area':
      return (await areaStore.of(workspaceId).getManyConsistent(ids)) as unknown as Array<
        SyncRecord | undefined
      >;
    case 'skill':
      return (await skillStore.of(workspaceId).getManyConsistent(ids)) as unknown as Array<
        SyncRecord | undefined
      >;
    case 'tag': {
      const [tags, usage] = await Promise.all([
        tagStore.of(workspaceId).getManyConsistent(ids),
        tagUsageStore.of(workspaceId).getMany(ids),
      ]);
      return tags.map(
        (tag) => tag && ({ ...tag, usage_count: usage.get(tag.id) ?? 0 } as unknown as SyncRecord),
      );
    }
    case 'comment': {
      const found = await commentStore.of(workspaceId).getManyConsistent(ids);
      const presented = new Map((await presentComments(workspaceId, readerId, found)).map((c) => [c.id, c]));
      return ids.map((id) => presented.get(id));
    }
    case 'custom_object':
      // Read with their type's access (sync-instances.ts).
      return ids.map(() => undefined);
  }
}

/** The records as they are now, by `refKey` (absent: gone). */
export async function currentRecords(
  workspaceId: string,
  readerId: string,
  refs: readonly RecordRef[],
): Promise<Map<string, SyncRecord>> {
  const byType = new Map<SyncType, string[]>();
  for (const ref of refs) {
    const ids = byType.get(ref.type) ?? [];
    if (!ids.includes(ref.id)) ids.push(ref.id);
    byType.set(ref.type, ids);
  }
  const found = new Map<string, SyncRecord>();
  await Promise.all(
    [...byType].map(async ([type, ids]) => {
      const records = await readType(workspaceId, readerId, type, ids);
      records.forEach((record, index) => {
        if (record) found.set(refKey({ type, id: ids[index] as string }), record);
      });
    }),
  );
  return found;
}

/** Comment reads of cases in flight at once. */
const caseReadsInFlight = 8;

/** The comments of each case (oldest first), as the reader sees them. */
export async function commentsOfCases(
  workspaceId: string,
  readerId: string,
  caseIds: readonly string[],
): Promise<Map<string, SyncRecord[]>> {
  const store = commentStore.of(workspaceId);
  const idsOf = new Map<string, string[]>();
  // Only the cases that have comments (a flag the indexer sets before the comment's feed entry,
  // so a comment whose case is not flagged yet comes later through its entry).
  const commented = [...(await syncStore(workspaceId).casesWithComments(caseIds))];
  for (let next = 0; next < commented.length; next += caseReadsInFlight) {
    await Promise.all(
      commented.slice(next, next + caseReadsInFlight).map(async (caseId) => {
        idsOf.set(caseId, await store.allIds(targetKeyOf('core:case', caseId)));
      }),
    );
  }
  const all = [...idsOf.values()].flat();
  const comments = all.length > 0 ? await store.getManyConsistent(all) : [];
  const presented = new Map((await presentComments(workspaceId, readerId, comments)).map((c) => [c.id, c]));
  return new Map(
    caseIds.map((caseId) => [
      caseId,
      (idsOf.get(caseId) ?? []).flatMap((id) => {
        const comment = presented.get(id);
        return comment ? [comment] : [];
      }),
    ]),
  );
}

/** Every record of a catalog type (areas, tags, skills: hundreds at most), ordered by id. */
export async function catalog(workspaceId: string, type: 'area' | 'tag' | 'skill'): Promise<SyncRecord[]> {
  const records =
    type === 'area'
      ? await areaStore.of(workspaceId).list()
      : type === 'skill'
        ? await skillStore.of(workspaceId).list()
        : await tagStore.of(workspaceId).list();
  const sorted = (records as unknown as SyncRecord[]).sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  if (type !== 'tag') return sorted;
  const usage = await tagUsageStore.of(workspaceId).getMany(sorted.map((tag) => tag.id));
  return sorted.map((tag) => ({ ...tag, usage_count: usage.get(tag.id) ?? 0 }));
}
