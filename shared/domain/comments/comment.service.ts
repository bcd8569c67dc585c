/**
 * Comment rules (SPEC.md, Comment and its States rows; API-DECISIONS.md, the comment decisions):
 *
 * - create: on a readable target (comment-targets.ts), as a root or as a reply to a live comment
 *   of the same target (root_comment_id derived: the thread's root, the comment's own id on a
 *   root); body checked (comment-markdown.ts) and its mentions resolved (comment-mentions.ts);
 *   attachments checked and claimed (comment-attachments.ts). The same author posting the same
 *   body on the same target within the dedup window (FSM_COMMENT_DEDUP_SECONDS, default 60; 0
 *   turns it off) gets the existing comment back (200), race-safe through a guard item written in
 *   the comment's transaction. Author, body and target are the whole key (SPEC.md, "Create
 *   comment"): where in the thread the repeat was aimed does not make it a new comment, so a
 *   reply that repeats the author's root comment gets that comment back.
 * - edit: the author only, whatever the role (403 comments/cannot-edit-others, reason not_author);
 *   a new body sets is_edited; a tombstone cannot be edited (422). Every successful PATCH writes,
 *   a PATCH that changes nothing too (lock_version moves, comment.updated), as for every resource.
 * - delete: soft. The author deletes their own; holders of comments:update (moderators) delete
 *   anyone's, which sets is_deleted_by_moderator (and is_moderated). Deleting a tombstone again
 *   changes nothing.
 * - restore: holders of comments:update; a live comment is 422 comments.cannot-restore-not-deleted.
 *
 * Events (in the write's transaction): comment.created (and case.comment_added beside it for a
 * comment on a case: CASE_COMMENT_ADDED:V1 on the event stream) and comment.updated for edits,
 * soft deletions (data.object is the tombstone) and restores. Never comment.deleted: SPEC.md keeps
 * `deleted` for records that are gone, and a tombstone can be restored; no comment is removed
 * for good.
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../../auth/actor.ts';
import { type DomainEvent, domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { newRecordId } from '../record-id.ts';
import { updateVersioned } from '../versioned-write.ts';
import type { Comment, CreateComment, UpdateComment } from './comment.schema.ts';
import { commentStore, isRace, type StoredComment } from './comment.store.ts';
import { claimAttachments } from './comment-attachments.ts';
import { commentDedupStore, type DedupGuard } from './comment-dedup.store.ts';
import { CommentError } from './comment-error.ts';
import { mentionErrors } from './comment-mentions.ts';
import { commentReactionStore } from './comment-reaction.store.ts';
import { commentReadStore } from './comment-read.store.ts';
import { type CommentTarget, readableTarget, requireTarget } from './comment-targets.ts';
import { eventObjectOf, instantOfId, toComment, viewOf } from './comment-view.ts';

export const commentResource = (id: string) => ({ type: 'comment', id });

/** FSM_COMMENT_DEDUP_SECONDS: how long a repeated post gets the first comment back (default 60). */
export function dedupWindowSeconds(): number {
  const value = Number(process.env.FSM_COMMENT_DEDUP_SECONDS ?? 60);
  return Number.isFinite(value) && value >= 0 ? value : 60;
}

/** Lists walk their indexes this many entries per Query at most (FSM_LIST_QUERY_MAX, as every list). */
export function queryMax(): number {
  return Number(process.env.FSM_LIST_QUERY_MAX ?? 1000);
}

export function cannotEditOthers(detail: string, requiredGrants?: string[]): CommentError {
  return new CommentError('cannot-edit-others', {
    detail,
    data: { reason: 'not_author', ...(requiredGrants ? { required_grants: requiredGrants } : {}) },
  });
}

/** A comment and its target, if the caller may read the target (else 404, as for a missing one). */
export async function visibleComment(
  ctx: Actor,
  id: string,
): Promise<{ comment: StoredComment; target: CommentTarget }> {
  const comment = await commentStore.of(ctx).get(id);
  if (!comment) throw new CommentError('not-found', { detail: 'No comment with this id exists.' });
  const target = await readableTarget(ctx, comment.target_type, comment.target_id);
  if (!target) throw new CommentError('not-found', { detail: 'No comment with this id exists.' });
  return { comment, target };
}

/** One comment as the caller sees it: + its read marker, the caller's reactions and the people named. */
export async function presentOne(
  ctx: Actor,
  comment: StoredComment,
  target: CommentTarget,
  /** A reaction of the caller just written (`<comment_id>#<emoji name>`), which a read could still miss. */
  justReacted?: string,
): Promise<Comment> {
  const [readAt, myReactions] = await Promise.all([
    commentReadStore.of(ctx).readMarker(ctx.principal.id, target.key),
    commentReactionStore.of(ctx).mine(target.key, ctx.principal.id, queryMax()),
  ]);
  if (justReacted) myReactions.add(justReacted);
  const view = await viewOf(ctx.workspaceId, [comment], {
    readerId: ctx.principal.id,
    readAtMs: readAt ? Date.parse(readAt) : undefined,
    myReactions,
  });
  return toComment(comment, view);
}

export async function getComment(ctx: Actor, id: string): Promise<Comment> {
  const { comment, target } = await visibleComment(ctx, id);
  return presentOne(ctx, comment, target);
}

/** Field errors of a body: its Markdown, then its mentions; the mentioned ids when it is fine. */
async function bodyErrors(
  workspaceId: string,
  body: string,
): Promise<{ errors: FieldError[]; mentionIds: string[] }> {
  // markdown-it loads with the first body written, not at import: about 10 ms of a cold start
  // that reads (lists, counts, read markers) never need.
  const { checkCommentMarkdown } = await import('./comment-markdown.ts');
  const verdict = checkCommentMarkdown(body);
  const errors = [...verdict.errors, ...(await mentionErrors(workspaceId, verdict.mentionIds))];
  return { errors, mentionIds: verdict.mentionIds };
}

/** The guard's key: author, target and the body's SHA-256 (no parent: see the rules above). */
function fingerprintOf(authorId: string, target: CommentTarget, body: string): string {
  const hash = createHash('sha256').update(body, 'utf8').digest('hex');
  return `${authorId}#${target.key}#${hash}`;
}

/** The comment a fresh guard names, when it is still what was posted (live, same body). */
async function duplicateOf(
  ctx: Actor,
  guard: DedupGuard | undefined,
  body: string,
): Promise<StoredComment | undefined> {
  if (!guard || Date.parse(guard.until) <= Date.now()) return undefined;
  const existing = await commentStore.of(ctx).get(guard.comment_id);
  return existing && !existing.is_deleted && existing.body_markdown === body ? existing : undefined;
}

export async function createComment(
  ctx: Actor,
  input: CreateComment,
): Promise<{ comment: Comment; created: boolean }> {
  const target = await requireTarget(ctx, input.target_type, input.target_id, 'body');
  const parentId = input.parent_comment_id?.toLowerCase();
  const [body, parent] = await Promise.all([
    bodyErrors(ctx.workspaceId, input.body_markdown),
    parentId ? commentStore.of(ctx).get(parentId) : undefined,
  ]);
  const errors = [...body.errors];
  if (parentId && (!parent || parent.target_type !== target.type || parent.target_id !== target.id)) {
    errors.unshift({
      type: 'field-invalid',
      pointer: '#/parent_comment_id',
      detail: 'no comment with this id is on the same target',
    });
  } else if (parent?.is_deleted) {
    errors.unshift({
      type: 'field-invalid',
      pointer: '#/parent_comment_id',
      detail: 'the comment is deleted',
    });
  }
  if (errors.length > 0) throw new CommentError('invalid', { fields: errors });

  const window = dedupWindowSeconds();
  const fingerprint = fingerprintOf(ctx.principal.id, target, input.body_markdown);
  for (let attempt = 1; ; attempt++) {
    const guard = window > 0 ? await commentDedupStore.of(ctx).get(fingerprint) : undefined;
    const duplicate = await duplicateOf(ctx, guard, input.body_markdown);
    if (duplicate) return { comment: await presentOne(ctx, duplicate, target), created: false };

    const id = newRecordId();
    const claimed = await claimAttachments(ctx, input.attachment_ids ?? [], id);
    if (claimed.errors.length > 0) throw new CommentError('invalid', { fields: claimed.errors });
    const createdAt = new Date(instantOfId(id)).toISOString();
    const comment: StoredComment = {
      id,
      target_type: target.type,
      target_id: target.id,
      ...(parent ? { parent_comment_id: parent.id } : {}),
      root_comment_id: parent ? parent.root_comment_id : id,
      body_markdown: input.body_markdown,
      author_id: ctx.principal.id,
      mention_ids: body.mentionIds,
      attachments: claimed.attachments,
      created_at: createdAt,
      updated_at: createdAt,
      lock_version: 0,
      is_edited: false,
      is_moderated: false,
      is_deleted: false,
      is_deleted_by_moderator: false,
    };
    const object = eventObjectOf(comment);
    const events: DomainEvent[] = [domainEvent(ctx, 'comment.created', commentResource(id), object)];
    if (target.caseRecord) {
      events.push(
        domainEvent(
          ctx,
          'case.comment_added',
          { type: 'case', id: target.id },
          { ...object, case: target.caseRecord },
        ),
      );
    }
    const until = new Date(Date.now() + window * 1000).toISOString();
    const guardWrite =
      window > 0
        ? [commentDedupStore.of(ctx).write(fingerprint, { comment_id: id, until, lock_version: 0 }, guard)]
        : [];
    try {
      await commentStore.of(ctx).create(comment, events, [...guardWrite, ...claimed.writes]);
    } catch (error) {
      // Another post of the same body (or a claim of the same file) won the race: read again.
      if (!isRace(error) || attempt >= 3) throw error;
      if (window > 0 && !(await commentDedupStore.of(ctx).get(fingerprint))) {
        // A guard past its TTL that the table has not swept yet: invisible, but in the way.
        await commentDedupStore.of(ctx).discardExpired(fingerprint);
      }
      continue;
    }
    await claimed.cleanup();
    return { comment: await presentOne(ctx, comment, target), created: true };
  }
}

/** Keys a tombstone withholds: a deletion's previous_attributes must not carry them back out. */
const withheldByTombstone = ['body_markdown', 'reactions', 'mentions', 'attachments'];

function updatedEvent(ctx: Actor, next: StoredComment, before: StoredComment) {
  const previous = previousAttributes(eventObjectOf(before), eventObjectOf(next));
  if (next.is_deleted) for (const key of withheldByTombstone) delete previous[key];
  return domainEvent(ctx, 'comment.updated', commentResource(next.id), eventObjectOf(next), previous);
}

export async function updateComment(ctx: Actor, id: string, patch: UpdateComment): Promise<Comment> {
  const { comment: found, target } = await visibleComment(ctx, id);
  if (found.author_id !== ctx.principal.id) {
    throw cannotEditOthers('Only the author of a comment can edit it.');
  }
  const body = patch.body_markdown;
  const checked = body === undefined ? undefined : await bodyErrors(ctx.workspaceId, body);
  if (checked && checked.errors.length > 0) throw new CommentError('invalid', { fields: checked.errors });
  // Also a PATCH that changes nothing is a write (SPEC.md rule 8, as for every resource):
  // lock_version moves and comment.updated is emitted, without is_edited.
  const { after } = await updateVersioned<StoredComment>({
    key: `comment:${ctx.workspaceId}:${found.id}`,
    load: () => commentStore.of(ctx).get(found.id),
    expectedVersion: patch.lock_version,
    apply: (stored) => {
      if (stored.is_deleted) {
        throw new CommentError('invalid', {
          detail: 'A deleted comment cannot be edited.',
          fields: [
            {
              type: 'field-invalid',
              pointer: '#/body_markdown',
              detail: 'the comment is deleted; it cannot be edited',
            },
          ],
        });
      }
      if (body === undefined || body === stored.body_markdown) return stored;
      return { ...stored, body_markdown: body, mention_ids: checked?.mentionIds ?? [], is_edited: true };
    },
    save: (next, stored) => commentStore.of(ctx).update(next, stored, updatedEvent(ctx, next, stored)),
  });
  return presentOne(ctx, after, target);
}

/** Marks that a state was reached already: nothing to write. */
class AlreadyThere extends Error {}

export async function deleteComment(ctx: Actor, id: string): Promise<void> {
  const { comment: found } = await visibleComment(ctx, id);
  const byAuthor = found.author_id === ctx.principal.id;
  if (!byAuthor && !ctx.principal.grants.has('comments:update')) {
    throw cannotEditOthers('Only the author, or a moderator (comments:update), can delete a comment.', [
      'comments:update',
    ]);
  }
  try {
    await updateVersioned<StoredComment>({
      key: `comment:${ctx.workspaceId}:${found.id}`,
      load: () => commentStore.of(ctx).get(found.id),
      expectedVersion: undefined,
      apply: (stored) => {
        if (stored.is_deleted) throw new AlreadyThere();
        return {
          ...stored,
          is_deleted: true,
          is_deleted_by_moderator: !byAuthor,
          is_moderated: stored.is_moderated || !byAuthor,
          deleted_at: new Date().toISOString(),
          deleted_by: ctx.principal.id,
        };
      },
      save: (next, stored) => commentStore.of(ctx).update(next, stored, updatedEvent(ctx, next, stored)),
    });
  } catch (error) {
    if (!(error instanceof AlreadyThere)) throw error;
  }
}

export async function restoreComment(ctx: Actor, id: string): Promise<Comment> {
  const { comment: found, target } = await visibleComment(ctx, id);
  const notDeleted = () =>
    new CommentError('cannot-restore-not-deleted', { detail: 'The comment is not deleted.' });
  if (!found.is_deleted) throw notDeleted();
  const { after } = await updateVersioned<StoredComment>({
    key: `comment:${ctx.workspaceId}:${found.id}`,
    load: () => commentStore.of(ctx).get(found.id),
    expectedVersion: undefined,
    apply: (stored) => {
      if (!stored.is_deleted) throw notDeleted();
      const { deleted_at: _at, deleted_by: _by, ...rest } = stored;
      return {
        ...(rest as StoredComment),
        is_deleted: false,
        is_deleted_by_moderator: false,
        is_moderated: stored.is_moderated || stored.author_id !== ctx.principal.id,
      };
    },
    save: (next, stored) => commentStore.of(ctx).update(next, stored, updatedEvent(ctx, next, stored)),
  });
  return presentOne(ctx, after, target);
}
