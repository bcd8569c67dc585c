/**
 * Reading comments by target: the list (threaded or flat pages), the caller's unread counts and
 * read markers, and totals for many targets at once. Every read costs its page (comment.store.ts
 * and shared/data/README.md, "Comments"):
 *
 * - a threaded page reads the root entries up to its last root, its threads' entries (one key
 *   range), the page's comments (BatchGetItem), the people named (BatchGetItem), the caller's read
 *   marker and counters (BatchGetItem) and the caller's reactions on the target (one Query);
 * - unread: without a read marker, the target's live comments minus the caller's own (counters);
 *   with one, the comments created after it (a key range of the flat index: it costs the unread
 *   comments), skipped when the newest comment is older than the marker;
 * - counts for up to 100 targets: their records (BatchGetItem, to leave out what the caller may
 *   not read), 4 counter and marker items per target (BatchGetItem), and one key-range Query per
 *   target that has comments newer than the caller's marker.
 */

import type { Actor } from '../../auth/actor.ts';
import { pageOf } from '../../schema/list.ts';
import type { CommentListQueryInput, CommentSort } from './comment.schema.ts';
import { queryMax } from './comment.service.ts';
import { commentStore } from './comment.store.ts';
import { commentReactionStore } from './comment-reaction.store.ts';
import { type CommentTally, commentReadStore } from './comment-read.store.ts';
import { type CommentTarget, readableTargets, requireTarget } from './comment-targets.ts';
import { instantOfId, toComment, viewOf } from './comment-view.ts';

/**
 * Writers' clocks differ a little, and the newest id a counter holds can lag a concurrent create
 * by a moment: a target whose newest comment is this much older than the marker has no unread ones.
 */
const clockSlackMs = 10_000;

async function unreadOf(ctx: Actor, target: CommentTarget, tally: CommentTally): Promise<number> {
  if (tally.readAt === undefined) return Math.max(0, tally.live - tally.mine);
  const readAtMs = Date.parse(tally.readAt);
  if (tally.lastId === undefined || instantOfId(tally.lastId) <= readAtMs - clockSlackMs) return 0;
  return commentReadStore.of(ctx).countUnreadAfter(target.key, readAtMs, ctx.principal.id, queryMax());
}

export async function listComments(ctx: Actor, query: CommentListQueryInput) {
  const target = await requireTarget(ctx, query.target_type, query.target_id, 'query');
  const sort: CommentSort = query.sort ?? 'threaded:desc';
  const request = {
    page: query.page ?? 0,
    size: query.size ?? 20,
    descending: sort.endsWith(':desc'),
    queryMax: queryMax(),
  };
  const [{ ids, total }, [tally], myReactions] = await Promise.all([
    sort.startsWith('threaded')
      ? commentStore.of(ctx).threadedPage(target.key, request)
      : commentStore.of(ctx).flatPage(target.key, request),
    commentReadStore.of(ctx).tallies([target.key], ctx.principal.id),
    commentReactionStore.of(ctx).mine(target.key, ctx.principal.id, queryMax()),
  ]);
  const tallied = tally ?? { live: 0, mine: 0 };
  const [comments, unread] = await Promise.all([
    commentStore.of(ctx).getMany(ids),
    unreadOf(ctx, target, tallied),
  ]);
  const view = await viewOf(ctx.workspaceId, comments, {
    readerId: ctx.principal.id,
    readAtMs: tallied.readAt ? Date.parse(tallied.readAt) : undefined,
    myReactions,
  });
  return {
    items: comments.map((comment) => toComment(comment, view)),
    unread_count: unread,
    page: pageOf(total, { page: request.page, size: request.size }),
  };
}

/** Totals (tombstones left out) and the caller's unread counts of many targets of one type. */
export async function commentCounts(
  ctx: Actor,
  query: { target_type: string; target_ids: readonly string[] },
) {
  const targets = await readableTargets(ctx, query.target_type, query.target_ids);
  const tallies = await commentReadStore.of(ctx).tallies(
    targets.map((target) => target.key),
    ctx.principal.id,
  );
  const unread = await Promise.all(
    targets.map((target, index) => unreadOf(ctx, target, tallies[index] ?? { live: 0, mine: 0 })),
  );
  return {
    items: targets.map((target, index) => ({
      target_id: target.id,
      total: tallies[index]?.live ?? 0,
      unread: unread[index] ?? 0,
    })),
  };
}

/**
 * The caller has read every comment of the target so far: the marker is now, or the instant of the
 * newest comment if a writer's clock is ahead of ours.
 */
export async function markRead(ctx: Actor, body: { target_type: string; target_id: string }) {
  const target = await requireTarget(ctx, body.target_type, body.target_id, 'body');
  const [tally] = await commentReadStore.of(ctx).tallies([target.key], ctx.principal.id);
  const newest = tally?.lastId ? instantOfId(tally.lastId) : 0;
  const readAt = new Date(Math.max(Date.now(), newest)).toISOString();
  await commentReadStore.of(ctx).markRead(ctx.principal.id, target.key, readAt);
}
