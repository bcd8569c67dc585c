/**
 * Storage of what a person has read of a target's comments: the read marker (keys.ts
 * `commentReadMarker`, one item per person and target, replaced by each later mark) and the
 * counts unread answers come from (the target's counters, comment-index.ts, and a key range of the
 * flat index after the marker: it costs the comments after the marker, never the ones before it).
 */
import { keys } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, getRecords, queryItems, writeItem } from '../../data/table.ts';
import { counterKey, idFloorAt, partitionOf } from './comment-index.ts';

/** One target's counts for one reader. */
export interface CommentTally {
  /** Live comments (tombstones left out). */
  live: number;
  /** The reader's own live comments. */
  mine: number;
  /** The id of the newest comment, tombstones included. */
  lastId?: string;
  /** The reader's read marker. */
  readAt?: string;
}

/** One workspace's read markers and counts: every call is scoped to it by construction. */
export interface WorkspaceCommentReadStore {
  /** Per target, in one BatchGetItem (4 keys each): the counts and the reader's read marker. */
  tallies(targets: readonly string[], userId: string): Promise<CommentTally[]>;
  /** Live comments by others than `userId` created after `afterMs` (gsi3 from that instant on). */
  countUnreadAfter(target: string, afterMs: number, userId: string, queryMax: number): Promise<number>;
  readMarker(userId: string, target: string): Promise<string | undefined>;
  /** The reader has read the target's comments up to `readAt` (one PutItem; a later mark replaces it). */
  markRead(userId: string, target: string, readAt: string): Promise<void>;
}

export const commentReadStore = {
  of(scope: StoreScope): WorkspaceCommentReadStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      async tallies(targets, userId) {
        const wanted = targets.flatMap((target) => [
          counterKey(workspaceId, target, 'live'),
          counterKey(workspaceId, target, `live#by=${userId}`),
          counterKey(workspaceId, target, 'all'),
          keys.commentReadMarker(workspaceId, userId, target),
        ]);
        const found = await getRecords(wanted);
        return targets.map((_, index) => {
          const [live, mine, all, marker] = found.slice(index * 4, index * 4 + 4);
          return {
            live: Number(live?.count ?? 0),
            mine: Number(mine?.count ?? 0),
            ...(typeof all?.last_id === 'string' ? { lastId: all.last_id } : {}),
            ...(typeof marker?.read_at === 'string' ? { readAt: marker.read_at } : {}),
          };
        });
      },

      async countUnreadAfter(target, afterMs, userId, queryMax) {
        let count = 0;
        for await (const entry of queryItems({
          index: 'gsi3',
          partitionKey: { name: 'gsi3pk', value: partitionOf(workspaceId, target) },
          sortKeyName: 'gsi3sk',
          atLeast: idFloorAt(afterMs + 1),
          pageSize: () => queryMax,
        })) {
          const values = (entry.list_values ?? {}) as { author_id?: string; deleted?: number };
          if (values.author_id !== userId && values.deleted !== 1) count++;
        }
        return count;
      },

      async readMarker(userId, target) {
        const marker = await getRecord(keys.commentReadMarker(workspaceId, userId, target));
        return typeof marker?.read_at === 'string' ? marker.read_at : undefined;
      },

      async markRead(userId, target, readAt) {
        await writeItem({
          kind: 'put',
          key: keys.commentReadMarker(workspaceId, userId, target),
          entity: 'comment_read_marker',
          record: { user_id: userId, target, read_at: readAt },
        });
      },
    };
  },
};
