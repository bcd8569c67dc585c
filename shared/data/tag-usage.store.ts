/**
 * Tag usage counters (`usage_count`): one counter item per tag in its own partition
 * (keys.tagUsage), changed by atomic ADDs in the same transaction that attaches or detaches
 * the tag, so a tag's own merge-patch never overwrites a concurrent count.
 */
import { collectionPk, keys, type WorkspaceId } from './keys.ts';
import { getRecord, queryPartition, type TableWrite } from './table.ts';

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
    by,
    fields: { tag_id: tagId },
  };
}

/** Usage of one tag (one GetItem); 0 when nobody ever carried it. */
export async function tagUsage(workspaceId: WorkspaceId, tagId: string): Promise<number> {
  const record = await getRecord(keys.tagUsage(workspaceId, tagId));
  return Math.max(0, Number(record?.count ?? 0));
}

/** Usage of every tag of the workspace (one Query), by tag id. */
export async function tagUsages(workspaceId: WorkspaceId): Promise<Map<string, number>> {
  const records = await queryPartition(collectionPk(workspaceId, 'TAG_USAGE'));
  // The sort key is stripped by the table layer; the counter item repeats the tag id.
  return new Map(records.map((r) => [String(r.tag_id ?? ''), Math.max(0, Number(r.count ?? 0))]));
}

/** Forget a deleted tag's counter (joins the tag's delete transaction). */
export function tagUsageDelete(workspaceId: WorkspaceId, tagId: string): TableWrite {
  return { kind: 'discard', key: keys.tagUsage(workspaceId, tagId) };
}
