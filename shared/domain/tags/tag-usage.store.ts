/**
 * Tag usage counters (`usage_count`): one counter item per tag in its own partition
 * (keys.tagUsage), changed by atomic ADDs in the same transaction that attaches or detaches
 * the tag, so a tag's own merge-patch never overwrites a concurrent count.
 *
 * The counter items are also the entries of the tags' `byUsage` order (tag.list.ts): each carries
 * the tag id and keeps its index key (`gsi6sk`, a number) equal to its count, both moved by
 * the same ADD. The item is created with its tag (count 0), so tags nobody carries are listed
 * too, and deleted with it.
 */
import { keys, listKeys, listVersion } from '../../data/keys.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, getRecords, type TableWrite } from '../../data/table.ts';

/** One workspace's tag usage counters: every call is scoped to it by construction. */
export interface WorkspaceTagUsage {
  /** Usage of one tag (one GetItem); 0 when nobody ever carried it. */
  get(tagId: string): Promise<number>;
  /** Usage of the given tags (one BatchGetItem per 100), by tag id. */
  getMany(tagIds: readonly string[]): Promise<Map<string, number>>;
  /** The counter of a new tag, at 0 (joins the tag's create transaction). */
  create(tagId: string): TableWrite;
  /** The counter changes for a principal whose tag set goes from `before` to `after`. */
  changes(before: readonly string[], after: readonly string[]): TableWrite[];
  /** Forget a deleted tag's counter (joins the tag's delete transaction). */
  discard(tagId: string): TableWrite;
}

export const tagUsageStore = {
  of(scope: StoreScope): WorkspaceTagUsage {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = (tagId: string) => keys.tagUsage(workspaceId, tagId);
    /** The attributes that put a counter item into the `byUsage` index of the tags. */
    const usageIndex = (tagId: string) => ({
      id: tagId,
      tag_id: tagId,
      gsi6pk: listKeys.indexPartition(workspaceScope(workspaceId), 'TAG'),
      list_v: listVersion,
    });
    const add = (tagId: string, by: number): TableWrite => ({
      kind: 'add',
      key: key(tagId),
      entity: 'tag-usage',
      attribute: 'count',
      alsoAdd: ['gsi6sk'],
      by,
      // Every user carrying the tag moves it: off the user's transaction (data/tally.ts).
      tally: true,
      fields: usageIndex(tagId),
    });
    return {
      async get(tagId) {
        const record = await getRecord(key(tagId));
        return Math.max(0, Number(record?.count ?? 0));
      },
      async getMany(tagIds) {
        const records = await getRecords(tagIds.map(key));
        return new Map(tagIds.map((tagId, i) => [tagId, Math.max(0, Number(records[i]?.count ?? 0))]));
      },
      create: (tagId) => ({
        kind: 'put',
        key: key(tagId),
        entity: 'tag-usage',
        record: { ...usageIndex(tagId), count: 0, gsi6sk: 0 },
      }),
      changes(before, after) {
        const writes: TableWrite[] = [];
        for (const tagId of new Set(after)) {
          if (!before.includes(tagId)) writes.push(add(tagId, 1));
        }
        for (const tagId of new Set(before)) {
          if (!after.includes(tagId)) writes.push(add(tagId, -1));
        }
        return writes;
      },
      discard: (tagId) => ({ kind: 'discard', key: key(tagId) }),
    };
  },
};
