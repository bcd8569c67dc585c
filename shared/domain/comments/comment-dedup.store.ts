/**
 * Storage of duplicate-submission guards (keys.ts `commentDedup`): one item per author, target
 * and body hash, naming the comment a repeat gets back until `until`, written in the comment's own
 * transaction so two identical posts cannot both create a comment. Guards outlive their window by
 * a day, then TTL removes them.
 */
import { keys } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, type TableWrite, writeItem } from '../../data/table.ts';

/** The duplicate-submission guard of one fingerprint. */
export interface DedupGuard {
  comment_id: string;
  /** A repeat gets the comment back until then. */
  until: string;
  lock_version: number;
}

const guardRetentionSeconds = 86_400;

/** One workspace's guards: every call is scoped to it by construction. */
export interface WorkspaceCommentDedupStore {
  /** Strongly consistent: a guard written a moment ago is seen. */
  get(fingerprint: string): Promise<DedupGuard | undefined>;
  /** The guard's write for the comment's transaction: create it, or take over a stale one (its version). */
  write(fingerprint: string, guard: DedupGuard, stale?: DedupGuard): TableWrite;
  /**
   * A guard past its TTL that DynamoDB has not swept yet is invisible to reads but still blocks a
   * create: drop it so the next attempt can create a fresh one.
   */
  discardExpired(fingerprint: string): Promise<void>;
}

export const commentDedupStore = {
  of(scope: StoreScope): WorkspaceCommentDedupStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      async get(fingerprint) {
        return (await getRecord(keys.commentDedup(workspaceId, fingerprint), { consistent: true })) as
          | DedupGuard
          | undefined;
      },

      write(fingerprint, guard, stale) {
        const key = keys.commentDedup(workspaceId, fingerprint);
        const expiresAt = Math.floor(Date.parse(guard.until) / 1000) + guardRetentionSeconds;
        return stale
          ? {
              kind: 'replace',
              key,
              entity: 'comment_dedup',
              record: { ...guard, lock_version: stale.lock_version + 1 },
              expectedVersion: stale.lock_version,
              expiresAt,
            }
          : {
              kind: 'create',
              key,
              entity: 'comment_dedup',
              record: { ...guard, lock_version: 0 },
              expiresAt,
            };
      },

      async discardExpired(fingerprint) {
        await writeItem({ kind: 'discard', key: keys.commentDedup(workspaceId, fingerprint) });
      },
    };
  },
};
