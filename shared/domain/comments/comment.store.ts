/**
 * Comments and what hangs off them: the comment items, their per-target index entries and
 * counters, read markers, reactions, duplicate-submission guards and attachment uploads
 * (README.md, "Comments"). Every list costs its page: a target's comments are four index
 * partitions of one value, `T#<ws>#L#COMMENT#<target_type>#<target_id>`, on the generic indexes:
 *
 * | index | entries            | sort key                                                  | serves                      |
 * |-------|--------------------|-----------------------------------------------------------|-----------------------------|
 * | gsi1  | every comment      | `<root id>` + U+0001 (the root) / U+0002 `<own id>` (replies) | threaded, roots oldest first |
 * | gsi2  | every comment      | the same under the root id's hex complement                | threaded, roots newest first |
 * | gsi3  | every comment      | `<own id>`                                                | flat, and unread after a time |
 * | gsi4  | root comments only | `<root id>`                                               | which roots a threaded page holds |
 *
 * Ids are UUIDv7 and a comment's created_at is its id's instant, so id order is creation order.
 * In gsi1 and gsi2 a thread is one contiguous key range, its root first and its replies (of any
 * depth) by creation; gsi2 reverses the order of the roots only. A threaded page walks gsi4 to
 * its roots (skipping page × size roots), then reads their threads as one key range.
 *
 * Counters (`T#<ws>#COUNT`, `COMMENT#<target>#…`): `all` (every comment, tombstones too; it also
 * holds the id of the newest comment), `roots`, `live` (not deleted) and `live#by=<user>`
 * (a person's own live comments), changed by ADD in the transaction of each write.
 *
 * Reaction counts are number attributes of the comment item (`rx_<emoji name>`), changed by ADD
 * only; every other write of a comment is an UpdateItem of its own fields, so neither clobbers the
 * other.
 */

import { DataError } from '../../data/data-error.ts';
import { commentReactionPartition, keys, listKeys, type WorkspaceId } from '../../data/keys.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { outboxWrite } from '../../data/outbox.ts';
import {
  getRecord,
  getRecords,
  type Key,
  queryItems,
  type StoredRecord,
  type TableWrite,
  transactWrite,
  writeItem,
} from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';

const list = 'COMMENT';
const entity = 'comment';

/** An attachment as the comment keeps it. */
export interface StoredCommentAttachment {
  file_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  /** The checked file in the upload bucket. */
  key: string;
}

export interface StoredComment {
  id: string;
  target_type: string;
  target_id: string;
  parent_comment_id?: string;
  root_comment_id: string;
  body_markdown: string;
  author_id: string;
  mention_ids: string[];
  attachments: StoredCommentAttachment[];
  created_at: string;
  updated_at: string;
  lock_version: number;
  is_edited: boolean;
  is_moderated: boolean;
  is_deleted: boolean;
  is_deleted_by_moderator: boolean;
  deleted_at?: string;
  deleted_by?: string;
  /** Reaction counts by emoji name (`rx_thumbs_up`); only ADD changes them. */
  [reactionCount: `rx_${string}`]: number | undefined;
}

/** `<target_type>#<target_id>`: what partitions, counters and markers of a target are keyed by. */
export const targetKeyOf = (targetType: string, targetId: string) => `${targetType}#${targetId}`;

export const reactionAttribute = (emojiName: string) => `rx_${emojiName}`;

/** UUIDv7 ids sort by their instant: the smallest id string of a millisecond (its first 13 characters). */
export function idFloorAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
}

/** Each hex digit d as 15 - d: reverses the order of ids of equal length. */
export function complementOf(id: string): string {
  return id.replace(/[0-9a-f]/g, (digit) => (15 - Number.parseInt(digit, 16)).toString(16));
}

const rootMark = '\u0001';
const replyMark = '\u0002';
const threadEnd = '\u0003';

function partitionOf(workspaceId: WorkspaceId, target: string): string {
  return listKeys.indexPartition(workspaceScope(workspaceId), list, target);
}

/** The index attributes of a comment (see the table above) and the values unread counting reads. */
export function indexAttributes(workspaceId: WorkspaceId, comment: StoredComment): StoredRecord {
  const partition = partitionOf(workspaceId, targetKeyOf(comment.target_type, comment.target_id));
  const isRoot = comment.parent_comment_id === undefined;
  const tail = isRoot ? rootMark : `${replyMark}${comment.id}`;
  return {
    gsi1pk: partition,
    gsi1sk: `${comment.root_comment_id}${tail}`,
    gsi2pk: partition,
    gsi2sk: `${complementOf(comment.root_comment_id)}${tail}`,
    gsi3pk: partition,
    gsi3sk: comment.id,
    ...(isRoot ? { gsi4pk: partition, gsi4sk: comment.id } : {}),
    list_values: { author_id: comment.author_id, deleted: comment.is_deleted ? 1 : 0 },
  };
}

const counterKey = (workspaceId: WorkspaceId, target: string, name: string): Key =>
  listKeys.counter(workspaceScope(workspaceId), list, `${target}#${name}`);

function counterAdd(key: Key, by: number, fields?: Record<string, string>): TableWrite {
  return { kind: 'add', key, entity: 'counter', attribute: 'count', by, ...(fields ? { fields } : {}) };
}

/** The counter changes of a comment that becomes live (+1) or a tombstone (-1). */
function liveCounters(workspaceId: WorkspaceId, comment: StoredComment, by: 1 | -1): TableWrite[] {
  const target = targetKeyOf(comment.target_type, comment.target_id);
  return [
    counterAdd(counterKey(workspaceId, target, 'live'), by),
    counterAdd(counterKey(workspaceId, target, `live#by=${comment.author_id}`), by),
  ];
}

/** What the comment item's own fields are (reaction counts and index attributes aside). */
function ownFields(comment: StoredComment): StoredRecord {
  const fields: StoredRecord = {};
  for (const [name, value] of Object.entries(comment)) {
    if (!name.startsWith('rx_') && value !== undefined) fields[name] = value;
  }
  return fields;
}

export const commentStore = {
  key: (workspaceId: WorkspaceId, id: string) => keys.comment(workspaceId, id),

  async get(workspaceId: WorkspaceId, id: string): Promise<StoredComment | undefined> {
    return (await getRecord(keys.comment(workspaceId, id.toLowerCase()))) as StoredComment | undefined;
  },

  /** The comments of a page, in the order asked (one BatchGetItem per 100). */
  async getMany(workspaceId: WorkspaceId, ids: readonly string[]): Promise<StoredComment[]> {
    const found = await getRecords(ids.map((id) => keys.comment(workspaceId, id)));
    return found.filter(
      (record): record is StoredRecord => record !== undefined,
    ) as unknown as StoredComment[];
  },

  /** A new comment with its events, counters and whatever else must commit with it (`extra`). */
  async create(
    workspaceId: WorkspaceId,
    comment: StoredComment,
    events: readonly DomainEvent[],
    extra: readonly TableWrite[] = [],
  ): Promise<void> {
    const target = targetKeyOf(comment.target_type, comment.target_id);
    await transactWrite([
      {
        kind: 'create',
        key: keys.comment(workspaceId, comment.id),
        entity,
        record: { ...ownFields(comment), ...indexAttributes(workspaceId, comment) },
      },
      ...events.map(outboxWrite),
      counterAdd(counterKey(workspaceId, target, 'all'), 1, { last_id: comment.id }),
      ...(comment.parent_comment_id === undefined
        ? [counterAdd(counterKey(workspaceId, target, 'roots'), 1)]
        : []),
      ...liveCounters(workspaceId, comment, 1),
      ...extra,
    ]);
  },

  /**
   * Replace the comment's own fields with `next`'s if it still has `current`'s lock_version (an
   * UpdateItem: reaction counts stay as concurrent reactions left them). A change of is_deleted
   * moves the live counters.
   */
  async update(
    workspaceId: WorkspaceId,
    next: StoredComment,
    current: StoredComment,
    event: DomainEvent,
  ): Promise<void> {
    const set: StoredRecord = {
      ...ownFields(next),
      list_values: indexAttributes(workspaceId, next).list_values,
    };
    delete set.id;
    const remove = Object.keys(ownFields(current)).filter((name) => !(name in set) && name !== 'id');
    const counters =
      next.is_deleted === current.is_deleted ? [] : liveCounters(workspaceId, next, next.is_deleted ? -1 : 1);
    await transactWrite([
      {
        kind: 'update',
        key: keys.comment(workspaceId, next.id),
        set,
        remove,
        expectedVersion: current.lock_version,
      },
      outboxWrite(event),
      ...counters,
    ]);
  },

  /**
   * A threaded page: `size` root comments after `page × size` of them (gsi4), each followed by its
   * thread (one key range of gsi1 or gsi2). Total: the roots counter.
   */
  async threadedPage(
    workspaceId: WorkspaceId,
    target: string,
    request: { page: number; size: number; descending: boolean; queryMax: number },
  ): Promise<{ ids: string[]; total: number }> {
    const partition = partitionOf(workspaceId, target);
    const skip = request.page * request.size;
    const roots: string[] = [];
    let seen = 0;
    const totalPromise = getRecord(counterKey(workspaceId, target, 'roots'));
    for await (const entry of queryItems({
      index: 'gsi4',
      partitionKey: { name: 'gsi4pk', value: partition },
      sortKeyName: 'gsi4sk',
      descending: request.descending,
      pageSize: () => Math.min(request.queryMax, skip + request.size - seen),
    })) {
      if (seen++ < skip) continue;
      roots.push(String(entry.gsi4sk));
      if (roots.length >= request.size) break;
    }
    const total = Number((await totalPromise)?.count ?? 0);
    const first = roots[0];
    const last = roots.at(-1);
    if (first === undefined || last === undefined) return { ids: [], total };
    const index = request.descending ? 'gsi2' : 'gsi1';
    const keyOf = (root: string) => (request.descending ? complementOf(root) : root);
    const ids: string[] = [];
    for await (const entry of queryItems({
      index,
      partitionKey: { name: `${index}pk`, value: partition },
      sortKeyName: `${index}sk`,
      atLeast: `${keyOf(first)}${rootMark}`,
      atMost: `${keyOf(last)}${threadEnd}`,
      pageSize: () => request.queryMax,
    })) {
      ids.push(String(entry.id));
    }
    return { ids, total };
  },

  /** A flat page by creation (gsi3): `page × size` entries skipped. Total: the `all` counter. */
  async flatPage(
    workspaceId: WorkspaceId,
    target: string,
    request: { page: number; size: number; descending: boolean; queryMax: number },
  ): Promise<{ ids: string[]; total: number }> {
    const skip = request.page * request.size;
    const ids: string[] = [];
    let seen = 0;
    const totalPromise = getRecord(counterKey(workspaceId, target, 'all'));
    for await (const entry of queryItems({
      index: 'gsi3',
      partitionKey: { name: 'gsi3pk', value: partitionOf(workspaceId, target) },
      sortKeyName: 'gsi3sk',
      descending: request.descending,
      pageSize: () => Math.min(request.queryMax, skip + request.size - seen),
    })) {
      if (seen++ < skip) continue;
      ids.push(String(entry.gsi3sk));
      if (ids.length >= request.size) break;
    }
    return { ids, total: Number((await totalPromise)?.count ?? 0) };
  },

  /**
   * Per target, in one BatchGetItem (4 keys each): live comments, the caller's own live ones,
   * the newest comment's id and the caller's read marker.
   */
  async tallies(
    workspaceId: WorkspaceId,
    targets: readonly string[],
    userId: string,
  ): Promise<Array<{ live: number; mine: number; lastId?: string; readAt?: string }>> {
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

  /**
   * Live comments by others created after `afterMs` (gsi3 from that instant on): costs the
   * comments after the marker, never the ones before it.
   */
  async countUnreadAfter(
    workspaceId: WorkspaceId,
    target: string,
    afterMs: number,
    userId: string,
    queryMax: number,
  ): Promise<number> {
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

  async readMarker(workspaceId: WorkspaceId, userId: string, target: string): Promise<string | undefined> {
    const marker = await getRecord(keys.commentReadMarker(workspaceId, userId, target));
    return typeof marker?.read_at === 'string' ? marker.read_at : undefined;
  },

  /** The caller has read the target's comments up to `readAt` (one PutItem; a later mark replaces it). */
  async markRead(workspaceId: WorkspaceId, userId: string, target: string, readAt: string): Promise<void> {
    await writeItem({
      kind: 'put',
      key: keys.commentReadMarker(workspaceId, userId, target),
      entity: 'comment_read_marker',
      record: { user_id: userId, target, read_at: readAt },
    });
  },

  /** The caller's reactions on a target's comments, as `<comment_id>#<emoji name>` (one Query). */
  async reactionsOf(
    workspaceId: WorkspaceId,
    target: string,
    userId: string,
    queryMax: number,
  ): Promise<Set<string>> {
    const mine = new Set<string>();
    for await (const entry of queryItems({
      partitionKey: { name: 'pk', value: commentReactionPartition(workspaceId, target, userId) },
      pageSize: () => queryMax,
    })) {
      mine.add(String(entry.sk));
    }
    return mine;
  },

  /**
   * Add a reaction: its item (create-if-absent) and the comment's count, with the event.
   * `already-exists` when the caller had given it already (nothing changed).
   */
  async addReaction(
    workspaceId: WorkspaceId,
    comment: StoredComment,
    userId: string,
    emojiName: string,
    event: DomainEvent,
  ): Promise<void> {
    const target = targetKeyOf(comment.target_type, comment.target_id);
    await transactWrite([
      {
        kind: 'create',
        key: keys.commentReaction(workspaceId, target, userId, comment.id, emojiName),
        entity: 'comment_reaction',
        record: { comment_id: comment.id, user_id: userId, emoji: emojiName, created_at: event.occurred_at },
      },
      {
        kind: 'add',
        key: keys.comment(workspaceId, comment.id),
        entity,
        attribute: reactionAttribute(emojiName),
        by: 1,
      },
      outboxWrite(event),
    ]);
  },

  /** Remove a reaction and its count; `not-found` when the caller had not given it (nothing changed). */
  async removeReaction(
    workspaceId: WorkspaceId,
    comment: StoredComment,
    userId: string,
    emojiName: string,
    event: DomainEvent,
  ): Promise<void> {
    const target = targetKeyOf(comment.target_type, comment.target_id);
    await transactWrite([
      { kind: 'delete', key: keys.commentReaction(workspaceId, target, userId, comment.id, emojiName) },
      {
        kind: 'add',
        key: keys.comment(workspaceId, comment.id),
        entity,
        attribute: reactionAttribute(emojiName),
        by: -1,
      },
      outboxWrite(event),
    ]);
  },
};

/** The duplicate-submission guard (keys.ts `commentDedup`). */
export interface DedupGuard {
  comment_id: string;
  /** A repeat gets the comment back until then. */
  until: string;
  lock_version: number;
}

/** Guards outlive their window by a day, then TTL removes them. */
const guardRetentionSeconds = 86_400;

export const commentDedupStore = {
  async get(workspaceId: WorkspaceId, fingerprint: string): Promise<DedupGuard | undefined> {
    return (await getRecord(keys.commentDedup(workspaceId, fingerprint), { consistent: true })) as
      | DedupGuard
      | undefined;
  },

  /** The guard's write for the comment's transaction: create it, or take over a stale one (its version). */
  write(workspaceId: WorkspaceId, fingerprint: string, guard: DedupGuard, stale?: DedupGuard): TableWrite {
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
      : { kind: 'create', key, entity: 'comment_dedup', record: { ...guard, lock_version: 0 }, expiresAt };
  },

  /**
   * A guard past its TTL that DynamoDB has not swept yet is invisible to reads but still blocks a
   * create: drop it so the next attempt can create a fresh one.
   */
  async discardExpired(workspaceId: WorkspaceId, fingerprint: string): Promise<void> {
    await writeItem({ kind: 'discard', key: keys.commentDedup(workspaceId, fingerprint) });
  },
};

/** A comment attachment's upload (keys.ts `commentAttachment`). */
export interface AttachmentUploadRecord {
  id: string;
  created_by: string;
  file_name: string;
  mime_type: string;
  /** Where the form puts the file. */
  pending_key: string;
  /** Where the checked file is kept once attached. */
  asset_key: string;
  expires_at_utc: string;
  created_at: string;
  status: 'PENDING' | 'ATTACHED';
  comment_id?: string;
  size_bytes?: number;
  lock_version: number;
}

/** Unattached uploads (and their status) are kept a week; attached ones as long as their comment. */
const uploadRetentionSeconds = 7 * 86_400;

export const commentAttachmentStore = {
  async get(workspaceId: WorkspaceId, fileId: string): Promise<AttachmentUploadRecord | undefined> {
    return (await getRecord(keys.commentAttachment(workspaceId, fileId.toLowerCase()), {
      consistent: true,
    })) as AttachmentUploadRecord | undefined;
  },

  /** The upload record and its comment_attachment.created event, in one transaction. */
  async create(workspaceId: WorkspaceId, upload: AttachmentUploadRecord, event: DomainEvent): Promise<void> {
    await transactWrite([
      {
        kind: 'create',
        key: keys.commentAttachment(workspaceId, upload.id),
        entity: 'comment_attachment',
        record: { ...upload },
        expiresAt: Math.floor(Date.parse(upload.created_at) / 1000) + uploadRetentionSeconds,
      },
      outboxWrite(event),
    ]);
  },

  /** The claim of an upload by a comment, for the comment's transaction (fails if claimed meanwhile). */
  attachWrite(
    workspaceId: WorkspaceId,
    upload: AttachmentUploadRecord,
    commentId: string,
    size: number,
  ): TableWrite {
    return {
      kind: 'replace',
      key: keys.commentAttachment(workspaceId, upload.id),
      entity: 'comment_attachment',
      record: {
        ...upload,
        status: 'ATTACHED',
        comment_id: commentId,
        size_bytes: size,
        lock_version: upload.lock_version + 1,
      },
      expectedVersion: upload.lock_version,
    };
  },
};

/** Whether a DataError means "someone else got there first" (a guard or claim raced). */
export function isRace(error: unknown): boolean {
  return error instanceof DataError && (error.code === 'already-exists' || error.code === 'version-conflict');
}
