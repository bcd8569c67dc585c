/**
 * The items of offline sync (docs/offline-sync.md; keys in data/keys.ts):
 *
 * - the head (`T#<ws>` / `SYNC_HEAD`): the last feed position given out, moved only in the
 *   transaction that writes the entries up to it, so every entry at or below a head read is there;
 * - feed entries (`T#<ws>#SYNC_FEED#<user or *>` / position): "this record changed for this
 *   user", kept 31 days (one more than the cursor horizon, so none expires under a valid cursor);
 * - the scope index (`T#<ws>#SYNC_SCOPE#<user>` / `<day>#<type>#<id>`): the cases, tours and
 *   shifts a user holds, by day, so a full pull or a day's move of the window is a key range;
 * - record marks (`T#<ws>#SYNC_REC` / `<type>#<id>`): the last version the indexer saw and the
 *   version at which each field last changed (what a push merges against);
 * - installations (`T#<ws>#SYNC_INSTALL` / `<user>#<installation>`) and their mutations' results
 *   (`T#<ws>#SYNC_RESULT#<user>#<installation>` / id), kept 30 days.
 */
import { randomBytes } from 'node:crypto';
import { DataError } from '../../data/data-error.ts';
import {
  keys,
  syncFeedPartition,
  syncResultPartition,
  syncScopePartition,
  type WorkspaceId,
} from '../../data/keys.ts';
import {
  discardRecords,
  getRecord,
  getRecords,
  type Key,
  putRecords,
  queryItems,
  type StoredRecord,
  type TableWrite,
  transactWrite,
} from '../../data/table.ts';
import type { HeldType, SyncType } from './sync-subject.ts';

const day = 24 * 3600;
/** Feed entries outlive the 30-day cursor horizon by a day. */
const feedSeconds = 31 * day;
const resultSeconds = 30 * day;
/** Feed positions as sort keys: zero-padded, so text order is number order. */
const position = (seq: number) => String(seq).padStart(15, '0');

/** The shared feed's owner: areas, tags and skills, which every scope holds. */
export const sharedFeed = '*';

export interface FeedEntry {
  seq: number;
  type: SyncType;
  id: string;
  /** The user did not hold the record before this change: it enters their scope whole. */
  enter?: boolean;
  /** Custom-object instances: the definition's id. */
  parent?: string;
}

export interface ScopeEntry {
  type: HeldType;
  id: string;
  day: string;
}

export interface RecordMark {
  version: number;
  /** field → the version at which it last changed. */
  fields: Record<string, number>;
  /**
   * `fields` knows every change of a version after this one: the version before the first event
   * the indexer saw of the record (-1 from its creation on), or the version a backfill found.
   */
  complete_after?: number;
  deleted?: boolean;
}

export interface Installation {
  user_id: string;
  installation_id: string;
  last_mutation_id: number;
  lock_version: number;
  created_at: string;
  updated_at: string;
}

export interface StoredResult extends StoredRecord {
  id: number;
  status: string;
}

const cursorKeys = new Map<string, Buffer>();

/** Races for the head an append loses before it gives up (the stream then hands the batch over again). */
const maxLostRaces = 40;

/** Entries per transaction beside the head (DynamoDB takes 100 items). */
const entriesPerTransaction = 99;

/** The feeds, their head and the cursor key. */
function feedParts(workspaceId: WorkspaceId) {
  const headKey = keys.syncHead(workspaceId);
  return {
    /** The key that signs this workspace's cursors: made once, kept per container. */
    async cursorKey(): Promise<Buffer> {
      const cached = cursorKeys.get(workspaceId);
      if (cached) return cached;
      const key = keys.syncCursorKey(workspaceId);
      let found = await getRecord(key, { consistent: true });
      if (!found) {
        try {
          await transactWrite([
            {
              kind: 'create',
              key,
              entity: 'sync_cursor_key',
              record: { secret: randomBytes(32).toString('base64') },
            },
          ]);
        } catch (error) {
          if (!(error instanceof DataError && error.code === 'already-exists')) throw error;
        }
        found = await getRecord(key, { consistent: true });
      }
      const secret = Buffer.from(String(found?.secret), 'base64');
      cursorKeys.set(workspaceId, secret);
      return secret;
    },

    /** The last position given out (0: none yet), strongly consistent. */
    async head(): Promise<{ seq: number; version: number | undefined }> {
      const item = await getRecord(headKey, { consistent: true });
      return item
        ? { seq: Number(item.seq), version: Number(item.lock_version) }
        : { seq: 0, version: undefined };
    },

    /**
     * Appends entries after the head, each `{owner, entry}`, in order: the entries and the head's
     * move commit together, on the head's version, so two indexers never give out one position
     * twice (the loser reads the head again). Returns the new head.
     */
    async append(entries: ReadonlyArray<{ owner: string } & Omit<FeedEntry, 'seq'>>): Promise<number> {
      let head = await this.head();
      let lostRaces = 0;
      const expiresAt = Math.floor(Date.now() / 1000) + feedSeconds;
      for (let start = 0; start < entries.length; ) {
        const chunk = entries.slice(start, start + entriesPerTransaction);
        const seq = head.seq + chunk.length;
        const writes: TableWrite[] = chunk.map(({ owner, type, id, enter, parent }, index) => ({
          kind: 'put',
          key: { pk: syncFeedPartition(workspaceId, owner), sk: position(head.seq + index + 1) },
          entity: 'sync_feed',
          record: { type, id, ...(enter ? { enter: 1 } : {}), ...(parent ? { parent } : {}) },
          expiresAt,
        }));
        const record = { seq, lock_version: (head.version ?? -1) + 1 };
        writes.push(
          head.version === undefined
            ? { kind: 'create', key: headKey, entity: 'sync_head', record }
            : { kind: 'replace', key: headKey, entity: 'sync_head', record, expectedVersion: head.version },
        );
        try {
          await transactWrite(writes);
        } catch (error) {
          // Another indexer moved the head first (its version), or held it at the same moment
          // (contention, cancelled as DynamoDB cancels both): read it again, after a pause that
          // grows and is jittered so racing indexers fall apart, and give the entries new places.
          const lost =
            error instanceof DataError &&
            ['version-conflict', 'already-exists', 'unavailable'].includes(error.code);
          if (!lost || ++lostRaces > maxLostRaces) throw error;
          await new Promise((resolve) =>
            setTimeout(resolve, Math.random() * Math.min(1000, 10 * 2 ** lostRaces)),
          );
          head = await this.head();
          continue;
        }
        head = { seq, version: record.lock_version };
        start += chunk.length;
      }
      return head.seq;
    },

    /** Entries of a feed after `after` up to `upTo`, in order, at most `limit`. */
    async feed(owner: string, after: number, upTo: number, limit: number): Promise<FeedEntry[]> {
      const entries: FeedEntry[] = [];
      if (upTo <= after) return entries;
      for await (const item of queryItems({
        partitionKey: { name: 'pk', value: syncFeedPartition(workspaceId, owner) },
        atLeast: position(after + 1),
        atMost: position(upTo),
        pageSize: () => Math.min(1000, limit - entries.length + 1),
      })) {
        entries.push({
          seq: Number(item.sk),
          type: item.type as SyncType,
          id: String(item.id),
          ...(item.enter ? { enter: true } : {}),
          ...(item.parent ? { parent: String(item.parent) } : {}),
        });
        if (entries.length >= limit) break;
      }
      return entries;
    },
  };
}

/** The scope index, the records' marks and the comment flags (what the indexer keeps, what pulls read). */
function scopeParts(workspaceId: WorkspaceId) {
  return {
    /** A user's held records of the days [from, to] (sort-key order), after `afterKey`. */
    async *scope(
      userId: string,
      from: string,
      to: string,
      afterKey?: string,
    ): AsyncGenerator<ScopeEntry & { key: string }> {
      for await (const item of queryItems({
        partitionKey: { name: 'pk', value: syncScopePartition(workspaceId, userId) },
        atLeast: afterKey && afterKey >= from ? afterKey : from,
        atMost: `${to}#\u{10FFFF}`,
        pageSize: () => 500,
      })) {
        if (afterKey && String(item.sk) <= afterKey) continue;
        yield {
          key: String(item.sk),
          type: item.type as HeldType,
          id: String(item.id),
          day: String(item.day),
        };
      }
    },

    /** Moves of the scope index: puts and deletes, each key's last move only (BatchWriteItem). */
    async moveScope(
      moves: ReadonlyArray<{ userId: string; entry: ScopeEntry; present: boolean }>,
    ): Promise<void> {
      const last = new Map<string, { key: Key; entry: ScopeEntry; present: boolean }>();
      for (const { userId, entry, present } of moves) {
        const key = {
          pk: syncScopePartition(workspaceId, userId),
          sk: `${entry.day}#${entry.type}#${entry.id}`,
        };
        last.set(`${key.pk}\u0000${key.sk}`, { key, entry, present });
      }
      const puts = [...last.values()].filter((move) => move.present);
      const removals = [...last.values()].filter((move) => !move.present);
      await Promise.all([
        putRecords(puts.map(({ key, entry }) => ({ key, entity: 'sync_scope', record: { ...entry } }))),
        discardRecords(removals.map(({ key }) => key)),
      ]);
    },

    async marks(
      records: ReadonlyArray<{ type: SyncType; id: string }>,
    ): Promise<Array<RecordMark | undefined>> {
      const found = await getRecords(
        records.map(({ type, id }) => keys.syncRecord(workspaceId, type, id)),
        { consistent: true },
      );
      return found as Array<RecordMark | undefined>;
    },

    async putMarks(marks: ReadonlyArray<{ type: SyncType; id: string; mark: RecordMark }>): Promise<void> {
      const unique = new Map(marks.map((entry) => [`${entry.type}#${entry.id}`, entry]));
      await putRecords(
        [...unique.values()].map(({ type, id, mark }) => ({
          key: keys.syncRecord(workspaceId, type, id),
          entity: 'sync_record',
          record: { ...mark },
        })),
      );
    },

    /**
     * Cases that have comments (a flag per case, set by the indexer before the comment's entry,
     * never cleared: comments are never removed): a pull reads the comments of these only.
     */
    async casesWithComments(caseIds: readonly string[]): Promise<Set<string>> {
      const found = await getRecords(
        caseIds.map((id) => keys.syncRecord(workspaceId, 'case_comments', id)),
        { consistent: true },
      );
      return new Set(caseIds.filter((_, index) => found[index] !== undefined));
    },

    async flagCasesWithComments(caseIds: readonly string[]): Promise<void> {
      await putRecords(
        [...new Set(caseIds)].map((id) => ({
          key: keys.syncRecord(workspaceId, 'case_comments', id),
          entity: 'sync_record',
          record: { comments: 1 },
        })),
      );
    },
  };
}

/** Installations and their mutations' results (push). */
function installationParts(workspaceId: WorkspaceId) {
  return {
    installationKey: (userId: string, installationId: string) =>
      keys.syncInstallation(workspaceId, userId, installationId),

    async installation(userId: string, installationId: string): Promise<Installation | undefined> {
      return (await getRecord(keys.syncInstallation(workspaceId, userId, installationId), {
        consistent: true,
      })) as Installation | undefined;
    },

    resultKey: (userId: string, installationId: string, mutationId: number) => ({
      pk: syncResultPartition(workspaceId, userId, installationId),
      sk: position(mutationId),
    }),

    resultExpiry: () => Math.floor(Date.now() / 1000) + resultSeconds,

    async results(
      userId: string,
      installationId: string,
      ids: readonly number[],
    ): Promise<Array<StoredResult | undefined>> {
      const found = await getRecords(
        ids.map((id) => ({ pk: syncResultPartition(workspaceId, userId, installationId), sk: position(id) })),
        { consistent: true },
      );
      return found as Array<StoredResult | undefined>;
    },
  };
}

export function syncStore(workspaceId: WorkspaceId) {
  return { ...feedParts(workspaceId), ...scopeParts(workspaceId), ...installationParts(workspaceId) };
}

export type SyncStore = ReturnType<typeof syncStore>;
