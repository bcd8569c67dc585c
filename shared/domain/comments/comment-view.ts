/**
 * A comment as its reader sees it, and as events carry it. What depends on the reader (is_unread,
 * has_reacted) comes from one read marker and one Query of the reader's reactions on the
 * target; names of authors and mentioned users are current (one BatchGetItem of the page's
 * people); attachment URLs are signed per read (valid one hour). A tombstone shows its place in
 * the thread only: no body, reactions, mentions or attachments.
 */
import { objectReadUrl } from '../../aws/upload-bucket.ts';
import type { PrincipalRecord } from '../../data/directory.store.ts';
import { principalStore } from '../users/user.store.ts';
import type { Comment } from './comment.schema.ts';
import { commentEmoji, emojiList } from './comment.schema.ts';
import { reactionAttribute, type StoredComment } from './comment.store.ts';

/** How long an attachment's URL works. */
export const attachmentUrlSeconds = 3600;

/** The instant a UUIDv7 was made (its first 48 bits, in milliseconds). */
export function instantOfId(id: string): number {
  return Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

export interface ReaderView {
  readerId: string;
  /** The reader's read marker of the target, in ms; undefined: never marked read. */
  readAtMs: number | undefined;
  /** `<comment_id>#<emoji name>` of the reader's reactions. */
  myReactions: ReadonlySet<string>;
  people: ReadonlyMap<string, PrincipalRecord | undefined>;
  urls: ReadonlyMap<string, { url: string; expiresAt: string }>;
}

/** Authors and mentioned users of the comments, and signed URLs of their attachments. */
export async function viewOf(
  workspaceId: string,
  comments: readonly StoredComment[],
  reader: { readerId: string; readAtMs: number | undefined; myReactions: ReadonlySet<string> },
): Promise<ReaderView> {
  const ids = [
    ...new Set(
      comments.flatMap((c) => (c.is_deleted ? [c.author_id] : [c.author_id, ...(c.mention_ids ?? [])])),
    ),
  ];
  const found = await principalStore.of(workspaceId).getMany(ids);
  const people = new Map(ids.map((id, index) => [id, found[index]]));
  const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + attachmentUrlSeconds * 1000)
    .toISOString()
    .replace('.000Z', 'Z');
  const urls = new Map<string, { url: string; expiresAt: string }>();
  await Promise.all(
    comments
      .filter((c) => !c.is_deleted)
      .flatMap((c) => c.attachments ?? [])
      .map(async (file) => {
        urls.set(file.key, { url: await objectReadUrl(file.key, attachmentUrlSeconds), expiresAt });
      }),
  );
  return { ...reader, people, urls };
}

function nameOf(person: PrincipalRecord | undefined) {
  if (!person) return {};
  if (person.kind === 'service_account') return person.client_id ? { first_name: person.client_id } : {};
  return {
    ...(person.firstname ? { first_name: person.firstname } : {}),
    ...(person.lastname ? { last_name: person.lastname } : {}),
  };
}

export function isUnread(comment: StoredComment, view: Pick<ReaderView, 'readerId' | 'readAtMs'>): boolean {
  if (comment.is_deleted || comment.author_id === view.readerId) return false;
  return view.readAtMs === undefined || instantOfId(comment.id) > view.readAtMs;
}

function reactionsOf(comment: StoredComment, mine: (name: string) => boolean) {
  return emojiList.flatMap((emoji) => {
    const name = commentEmoji[emoji];
    const count = Number(comment[reactionAttribute(name) as `rx_${string}`] ?? 0);
    return count > 0 ? [{ emoji, count, has_reacted: mine(name) }] : [];
  });
}

/**
 * What the API's comment and the events' comment share, in the published key order (a
 * tombstone's body left out). The readers' view and the event object add their own fields.
 */
function sharedFieldsOf(comment: StoredComment) {
  return {
    id: comment.id,
    target_type: comment.target_type,
    target_id: comment.target_id,
    ...(comment.parent_comment_id ? { parent_comment_id: comment.parent_comment_id } : {}),
    root_comment_id: comment.root_comment_id,
    ...(comment.is_deleted ? {} : { body_markdown: comment.body_markdown }),
    author: { id: comment.author_id },
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    lock_version: comment.lock_version,
    is_edited: comment.is_edited,
    is_moderated: comment.is_moderated,
    is_deleted: comment.is_deleted,
    is_deleted_by_moderator: comment.is_deleted_by_moderator,
  };
}

export function toComment(comment: StoredComment, view: ReaderView): Comment {
  const live = !comment.is_deleted;
  const author = view.people.get(comment.author_id);
  return {
    ...sharedFieldsOf(comment),
    author: { id: comment.author_id, ...nameOf(author), is_deleted: author === undefined },
    is_unread: isUnread(comment, view),
    reactions: live ? reactionsOf(comment, (name) => view.myReactions.has(`${comment.id}#${name}`)) : [],
    mentions: live
      ? (comment.mention_ids ?? []).map((id) => {
          const person = view.people.get(id);
          return { user_id: id, ...nameOf(person), is_deleted: person === undefined };
        })
      : [],
    attachments: live
      ? (comment.attachments ?? []).map((file) => {
          const signed = view.urls.get(file.key);
          return {
            file_id: file.file_id,
            file_name: file.file_name,
            mime_type: file.mime_type,
            size_bytes: file.size_bytes,
            url: signed?.url ?? '',
            url_expires_at: signed?.expiresAt ?? '',
          };
        })
      : [],
  };
}

/**
 * The comment as events carry it (data.object): no reader, so no is_unread nor has_reacted,
 * ids instead of names, attachments without URLs. A tombstone's body is left out here too.
 */
export function eventObjectOf(comment: StoredComment): Record<string, unknown> {
  const live = !comment.is_deleted;
  return {
    ...sharedFieldsOf(comment),
    reactions: live ? reactionsOf(comment, () => false).map(({ emoji, count }) => ({ emoji, count })) : [],
    mentions: live ? (comment.mention_ids ?? []).map((id) => ({ user_id: id })) : [],
    attachments: live
      ? (comment.attachments ?? []).map(({ file_id, file_name, mime_type, size_bytes }) => ({
          file_id,
          file_name,
          mime_type,
          size_bytes,
        }))
      : [],
  };
}
