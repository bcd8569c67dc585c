/**
 * Storage of comment records (keys.ts `comment`): the item of each comment with its index
 * attributes (comment-index.ts), the target's counters moved in the transaction of each write,
 * and the pages of a target's comments, threaded or flat, each costing its page. Reactions,
 * read markers, duplicate guards and attachment uploads have stores of their own
 * (comment-reaction.store.ts, comment-read.store.ts, comment-dedup.store.ts,
 * comment-attachment.store.ts).
 */

import { DataError } from '../../data/data-error.ts';
import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import {
  getRecord,
  getRecords,
  type Key,
  queryItems,
  type StoredRecord,
  type TableWrite,
  transactWrite,
} from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import {
  complementOf,
  counterAdd,
  counterKey,
  indexAttributes,
  liveCounters,
  partitionOf,
  rootMark,
  targetKeyOf,
  threadEnd,
} from './comment-index.ts';

export { reactionAttribute, targetKeyOf } from './comment-index.ts';

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

/** What a page of a target's comments asks for. */
export interface CommentPageRequest {
  page: number;
  size: number;
  descending: boolean;
  /** Index entries per Query at most. */
  queryMax: number;
}

/** One workspace's comments: every call is scoped to it by construction. */
export interface WorkspaceCommentStore {
  key(id: string): Key;
  get(id: string): Promise<StoredComment | undefined>;
  /** The comments of a page, in the order asked (one BatchGetItem per 100). */
  getMany(ids: readonly string[]): Promise<StoredComment[]>;
  /** A new comment with its events, counters and whatever else must commit with it (`extra`). */
  create(
    comment: StoredComment,
    events: readonly DomainEvent[],
    extra?: readonly TableWrite[],
  ): Promise<void>;
  /**
   * Replace the comment's own fields with `next`'s if it still has `current`'s lock_version (an
   * UpdateItem: reaction counts stay as concurrent reactions left them). A change of is_deleted
   * moves the live counters.
   */
  update(next: StoredComment, current: StoredComment, event: DomainEvent): Promise<void>;
  /**
   * A threaded page: `size` root comments after `page × size` of them (gsi4), each followed by its
   * thread (one key range of gsi1 or gsi2). Total: the roots counter.
   */
  threadedPage(target: string, request: CommentPageRequest): Promise<{ ids: string[]; total: number }>;
  /** Every comment id of a target, oldest first (gsi3, keys only): what offline sync sends with a case. */
  allIds(target: string): Promise<string[]>;
  /** The comments, strongly consistent (one BatchGetItem per 100): what a sync pull sends. */
  getManyConsistent(ids: readonly string[]): Promise<StoredComment[]>;
  /** A flat page by creation (gsi3): `page × size` entries skipped. Total: the `all` counter. */
  flatPage(target: string, request: CommentPageRequest): Promise<{ ids: string[]; total: number }>;
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
  of(scope: StoreScope): WorkspaceCommentStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      key: (id) => keys.comment(workspaceId, id),

      async get(id) {
        return (await getRecord(keys.comment(workspaceId, id.toLowerCase()))) as StoredComment | undefined;
      },

      async getMany(ids) {
        const found = await getRecords(ids.map((id) => keys.comment(workspaceId, id)));
        return found.filter(
          (record): record is StoredRecord => record !== undefined,
        ) as unknown as StoredComment[];
      },

      async allIds(target) {
        const ids: string[] = [];
        for await (const entry of queryItems({
          index: 'gsi3',
          partitionKey: { name: 'gsi3pk', value: partitionOf(workspaceId, target) },
          sortKeyName: 'gsi3sk',
          pageSize: () => 1000,
        })) {
          ids.push(String(entry.gsi3sk));
        }
        return ids;
      },

      async getManyConsistent(ids) {
        const found = await getRecords(
          ids.map((id) => keys.comment(workspaceId, id)),
          { consistent: true },
        );
        return found.filter(
          (record): record is StoredRecord => record !== undefined,
        ) as unknown as StoredComment[];
      },

      async create(comment, events, extra = []) {
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

      async update(next, current, event) {
        const set: StoredRecord = {
          ...ownFields(next),
          list_values: indexAttributes(workspaceId, next).list_values,
        };
        delete set.id;
        const remove = Object.keys(ownFields(current)).filter((name) => !(name in set) && name !== 'id');
        const counters =
          next.is_deleted === current.is_deleted
            ? []
            : liveCounters(workspaceId, next, next.is_deleted ? -1 : 1);
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

      threadedPage: (target, request) => threadedPage(workspaceId, target, request),

      async flatPage(target, request) {
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
    };
  },
};

async function threadedPage(
  workspaceId: string,
  target: string,
  request: CommentPageRequest,
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
}

/** Whether a DataError means "someone else got there first" (a guard or claim raced). */
export function isRace(error: unknown): boolean {
  return error instanceof DataError && (error.code === 'already-exists' || error.code === 'version-conflict');
}
