/**
 * How comments are laid out in the table (README.md, "Comments"): every list costs its page. A
 * target's comments are four index partitions of one value,
 * `T#<ws>#L#COMMENT#<target_type>#<target_id>`, on the generic indexes:
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
 * other. The stores of comments, reactions and read markers all build on this file.
 */
import { listKeys, type WorkspaceId } from '../../data/keys.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import type { Key, StoredRecord, TableWrite } from '../../data/table.ts';
import type { StoredComment } from './comment.store.ts';

const list = 'COMMENT';

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

/** Marks after a root id in gsi1/gsi2: the root itself, its replies, the end of its thread. */
export const rootMark = '\u0001';
export const replyMark = '\u0002';
export const threadEnd = '\u0003';

/** The index partition of a target's comments (all four indexes share it). */
export function partitionOf(workspaceId: WorkspaceId, target: string): string {
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

/** A counter of a target: `all`, `roots`, `live`, `live#by=<user>`. */
export const counterKey = (workspaceId: WorkspaceId, target: string, name: string): Key =>
  listKeys.counter(workspaceScope(workspaceId), list, `${target}#${name}`);

export function counterAdd(key: Key, by: number, greatest?: Record<string, string>): TableWrite {
  // A target's counters are every comment's of it: off the comment's transaction (data/tally.ts),
  // which applies them in no particular order, so the newest id is kept at its greatest.
  return {
    kind: 'add',
    key,
    entity: 'counter',
    attribute: 'count',
    by,
    ...(greatest ? { greatest } : {}),
    tally: true,
  };
}

/** The counter changes of a comment that becomes live (+1) or a tombstone (-1). */
export function liveCounters(workspaceId: WorkspaceId, comment: StoredComment, by: 1 | -1): TableWrite[] {
  const target = targetKeyOf(comment.target_type, comment.target_id);
  return [
    counterAdd(counterKey(workspaceId, target, 'live'), by),
    counterAdd(counterKey(workspaceId, target, `live#by=${comment.author_id}`), by),
  ];
}
