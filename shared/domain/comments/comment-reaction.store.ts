/**
 * Storage of comment reactions (keys.ts `commentReaction`): one item per person, comment and
 * emoji, in a partition per person and target, so "which reactions are mine" on a page of a
 * thread is one Query. Each change commits with the comment's count for that emoji (an ADD on
 * the comment item, comment-index.ts) and its event.
 */
import { commentReactionPartition, keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { queryItems, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { StoredComment } from './comment.store.ts';
import { reactionAttribute, targetKeyOf } from './comment-index.ts';

/** One workspace's reactions: every call is scoped to it by construction. */
export interface WorkspaceCommentReactionStore {
  /** A person's reactions on a target's comments, as `<comment_id>#<emoji name>` (one Query). */
  mine(target: string, userId: string, queryMax: number): Promise<Set<string>>;
  /**
   * Add a reaction: its item (create-if-absent) and the comment's count, with the event.
   * `already-exists` when the person had given it already (nothing changed).
   */
  add(comment: StoredComment, userId: string, emojiName: string, event: DomainEvent): Promise<void>;
  /** Remove a reaction and its count; `not-found` when the person had not given it (nothing changed). */
  remove(comment: StoredComment, userId: string, emojiName: string, event: DomainEvent): Promise<void>;
}

export const commentReactionStore = {
  of(scope: StoreScope): WorkspaceCommentReactionStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const countOf = (comment: StoredComment, emojiName: string, by: 1 | -1) =>
      ({
        kind: 'add',
        key: keys.comment(workspaceId, comment.id),
        entity: 'comment',
        attribute: reactionAttribute(emojiName),
        by,
        // Every person's reaction to the comment moves it: off the reaction's transaction, where
        // two reactions at once would meet on the comment item (data/tally.ts). Comment writes
        // are UpdateItems of their own fields, so they never clobber the count either way.
        tally: true,
      }) as const;
    const reactionKey = (comment: StoredComment, userId: string, emojiName: string) =>
      keys.commentReaction(
        workspaceId,
        targetKeyOf(comment.target_type, comment.target_id),
        userId,
        comment.id,
        emojiName,
      );
    return {
      async mine(target, userId, queryMax) {
        const mine = new Set<string>();
        for await (const entry of queryItems({
          partitionKey: { name: 'pk', value: commentReactionPartition(workspaceId, target, userId) },
          pageSize: () => queryMax,
        })) {
          mine.add(String(entry.sk));
        }
        return mine;
      },

      async add(comment, userId, emojiName, event) {
        await transactWrite([
          {
            kind: 'create',
            key: reactionKey(comment, userId, emojiName),
            entity: 'comment_reaction',
            record: {
              comment_id: comment.id,
              user_id: userId,
              emoji: emojiName,
              created_at: event.occurred_at,
            },
          },
          countOf(comment, emojiName, 1),
          outboxWrite(event),
        ]);
      },

      async remove(comment, userId, emojiName, event) {
        await transactWrite([
          { kind: 'delete', key: reactionKey(comment, userId, emojiName) },
          countOf(comment, emojiName, -1),
          outboxWrite(event),
        ]);
      },
    };
  },
};
