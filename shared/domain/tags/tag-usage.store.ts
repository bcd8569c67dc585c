/**
 * Tag usage counters (`usage_count`): one counter item per tag in its own partition
 * (keys.tagUsage), changed by atomic ADDs in the same transaction that attaches or detaches
 * the tag, so a tag's own merge-patch never overwrites a concurrent count.
 *
 * The counter items are also the entries of the tags' `byUsage` order (lists.ts): each carries
 * the tag id and keeps its index key (`gsi6sk`, a number) equal to its count, both moved by
 * the same ADD. The item is created with its tag (count 0), so tags nobody carries are listed
 * too, and deleted with it.
 */
import { keys, listKeys, listVersion, type WorkspaceId } from '../../data/keys.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { getRecord, getRecords, type TableWrite } from '../../data/table.ts';

/** The attributes that put a counter item into the `byUsage` index of the tags. */
function usageIndex(workspaceId: WorkspaceId, tagId: string) {
  return {
    id: tagId,
    tag_id: tagId,
    gsi6pk: listKeys.indexPartition(workspaceScope(workspaceId), 'TAG'),
    list_v: listVersion,
  };
}

/** The counter of a new tag, at 0 (joins the tag's create transaction). */
export function tagUsageCreate(workspaceId: WorkspaceId, tagId: string): TableWrite {
  return {
    kind: 'put',
    key: keys.tagUsage(workspaceId, tagId),
    entity: 'tag-usage',
    record: { ...usageIndex(workspaceId, tagId), count: 0, gsi6sk: 0 },
  };
}

/** The counter changes for a principal whose tag set goes from `before` to `after`. */
export function tagUsageWrites(
  workspaceId: WorkspaceId,
  before: readonly string[],
  after: readonly string[],
): TableWrite[] {
  const writes: TableWrite[] = [];
  for (const tagId of new Set(after)) {
    if (!before.includes(tagId)) writes.push(usageAdd(workspaceId, tagId, 1));
  }
  for (const tagId of new Set(before)) {
    if (!after.includes(tagId)) writes.push(usageAdd(workspaceId, tagId, -1));
  }
  return writes;
}

function usageAdd(workspaceId: WorkspaceId, tagId: string, by: number): TableWrite {
  return {
    kind: 'add',
    key: keys.tagUsage(workspaceId, tagId),
    entity: 'tag-usage',
    attribute: 'count',
    alsoAdd: ['gsi6sk'],
    by,
    fields: usageIndex(workspaceId, tagId),
  };
}

/** Usage of one tag (one GetItem); 0 when nobody ever carried it. */
export async function tagUsage(workspaceId: WorkspaceId, tagId: string): Promise<number> {
  const record = await getRecord(keys.tagUsage(workspaceId, tagId));
  return Math.max(0, Number(record?.count ?? 0));
}

/** Usage of the given tags (one BatchGetItem per 100), by tag id. */
export async function tagUsages(
  workspaceId: WorkspaceId,
  tagIds: readonly string[],
): Promise<Map<string, number>> {
  const records = await getRecords(tagIds.map((tagId) => keys.tagUsage(workspaceId, tagId)));
  return new Map(tagIds.map((tagId, i) => [tagId, Math.max(0, Number(records[i]?.count ?? 0))]));
}

/** Forget a deleted tag's counter (joins the tag's delete transaction). */
export function tagUsageDelete(workspaceId: WorkspaceId, tagId: string): TableWrite {
  return { kind: 'discard', key: keys.tagUsage(workspaceId, tagId) };
}
