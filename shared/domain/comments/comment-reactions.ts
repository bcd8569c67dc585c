/**
 * Reactions: the eight emoji of SPEC.md, one each per person and comment. Adding is idempotent
 * (201 the first time, 200 with nothing changed and nothing emitted after that), removing too
 * (204 either way; an event only when a reaction went). A tombstone takes no reactions and loses
 * none: 422 comments.reaction-on-deleted-comment. Each change is one transaction: the reaction
 * item (create-if-absent, or delete), the comment's count for that emoji (ADD) and a
 * `comment.reaction` event whose data.object names the comment (comment_id), the emoji, who, and
 * whether it was added or removed.
 */

import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { domainEvent } from '../../events/domain-event.ts';
import { type Comment, type CommentEmoji, commentEmoji, isCommentEmoji } from './comment.schema.ts';
import { commentResource, presentOne, visibleComment } from './comment.service.ts';
import { reactionAttribute, type StoredComment } from './comment.store.ts';
import { CommentError } from './comment-error.ts';
import { commentReactionStore } from './comment-reaction.store.ts';

function refuseTombstone(comment: StoredComment): void {
  if (comment.is_deleted) {
    throw new CommentError('reaction-on-deleted-comment', {
      detail: 'The comment is deleted; reactions on it can be neither added nor removed.',
    });
  }
}

function reactionEvent(
  ctx: Actor,
  comment: StoredComment,
  emoji: CommentEmoji,
  action: 'added' | 'removed',
  count: number,
) {
  return domainEvent(ctx, 'comment.reaction', commentResource(comment.id), {
    comment_id: comment.id,
    target_type: comment.target_type,
    target_id: comment.target_id,
    emoji,
    user_id: ctx.principal.id,
    action,
    count,
  });
}

const countOf = (comment: StoredComment, emoji: CommentEmoji) =>
  Number(comment[reactionAttribute(commentEmoji[emoji]) as `rx_${string}`] ?? 0);

export async function addReaction(
  ctx: Actor,
  id: string,
  emoji: CommentEmoji,
): Promise<{ comment: Comment; added: boolean }> {
  const { comment, target } = await visibleComment(ctx, id);
  refuseTombstone(comment);
  const name = commentEmoji[emoji];
  try {
    await commentReactionStore
      .of(ctx)
      .add(
        comment,
        ctx.principal.id,
        name,
        reactionEvent(ctx, comment, emoji, 'added', countOf(comment, emoji) + 1),
      );
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists') {
      return { comment: await presentOne(ctx, comment, target), added: false };
    }
    throw error;
  }
  // The comment as it is now: the count read plus this reaction (a read right after the write
  // could still miss it).
  const after = { ...comment, [reactionAttribute(name)]: countOf(comment, emoji) + 1 } as StoredComment;
  return { comment: await presentOne(ctx, after, target, `${comment.id}#${name}`), added: true };
}

export async function removeReaction(ctx: Actor, id: string, emoji: string): Promise<void> {
  if (!isCommentEmoji(emoji)) {
    throw new CommentError('not-found', { detail: 'No reaction with this emoji exists; there are eight.' });
  }
  const { comment } = await visibleComment(ctx, id);
  refuseTombstone(comment);
  try {
    await commentReactionStore
      .of(ctx)
      .remove(
        comment,
        ctx.principal.id,
        commentEmoji[emoji],
        reactionEvent(ctx, comment, emoji, 'removed', Math.max(0, countOf(comment, emoji) - 1)),
      );
  } catch (error) {
    if (error instanceof DataError && error.code === 'not-found') return;
    throw error;
  }
}
