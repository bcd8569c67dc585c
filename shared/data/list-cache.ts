/**
 * What a list keeps between requests of one query, so that stepping through its pages costs a
 * page each and a total that no counter holds is counted once: the query's total and the keys
 * where some of its pages start (page boundaries), in the table, beside the list's counters.
 *
 * Why the table and not a container's memory: a client stepping through pages meets whichever
 * Lambda instance is free, so a boundary must be where every instance finds it. Why it is never
 * served wrong: every listed write ADDs 1 to the list's revision counter (`<LIST>#rev`) through
 * its tally, right after it commits (list-index.ts `listWrites`, tally.ts), and cached values are
 * keyed by the revision they were read at. A read takes the revision with the counters it reads
 * anyway, so a value of another revision is simply never found; and nothing is kept (or looked
 * up) while the revision is younger than the index lag bound (list-read.ts `revisionSettledAt`),
 * so what is kept under a revision describes indexes that show every write it counts. Writes
 * and reads of kept state are best effort: they only save reads. Items expire after ten minutes
 * (TTL); DynamoDB deletes lazily, and an old revision is never asked for again anyway.
 *
 * Items: pk `T#<ws>#LIST_CACHE`, sk `<LIST>#<query hash>#<revision>#<matches before, 10 digits>`,
 * holding the walk position there (`stream`, `key`: resume after that sort key of that
 * partition, or at it when `inclusive`) and, when known, the query's `total`. `…#0000000000` is
 * the start of the list: the total, and the first match's position once a request saw it.
 */
import { createHash } from 'node:crypto';
import { DataError } from './data-error.ts';
import { type ListScope, listKeys } from './keys.ts';
import { putRecords, queryItems } from './table.ts';
import { tableDefinition } from './table-definition.ts';

/** The counter every listed write ADDs 1 to (list-index.ts `listWrites`). */
export const revisionCounter = 'rev';

/** How long a cached total or boundary lives (seconds). */
const cacheSeconds = 600;

/** Boundaries written by one request at most (one BatchWriteItem call). */
const maxWrites = 25;

/**
 * Where a walk can resume: after the entry with sort key `key` of partition (stream) `stream`,
 * or at it (`inclusive`: the first match of the list, kept at position 0 so that a walk skips
 * the entries before it).
 */
export interface Boundary {
  /** Matches before the position. */
  matches: number;
  stream: number;
  key: string;
  inclusive?: boolean;
}

export interface CacheRef {
  scope: ListScope;
  list: string;
  /** The query's hash (everything but its page), and the list's revision. */
  query: string;
  revision: number;
}

export interface Cached {
  total?: number;
  /** The nearest boundary at or before the matches asked for. */
  boundary?: Boundary;
  /** Positions already kept after the matches asked for, up to `through` (not to write again). */
  kept: ReadonlySet<number>;
}

/** A stable hash of what a list query asks for, its page aside. */
export function queryHash(description: unknown): string {
  return createHash('sha256').update(JSON.stringify(description)).digest('base64url').slice(0, 22);
}

const prefixOf = (ref: CacheRef) => `${ref.list}#${ref.query}#${ref.revision}#`;
const position = (matches: number) => String(matches).padStart(10, '0');

/**
 * The query's total, the nearest boundary at or before `matches`, and which positions after it
 * up to `through` (the next page's start) are kept already: one Query, descending from
 * `through`, of the few items down to the first at or before `matches` (one or two: 0.5 unit).
 */
export async function cachedOf(ref: CacheRef, matches: number, through = matches): Promise<Cached> {
  try {
    return await readCached(ref, matches, through);
  } catch (error) {
    // What is kept only saves reads: unreadable, the walk starts from the start.
    if (error instanceof DataError && error.code === 'unavailable') return { kept: new Set() };
    throw error;
  }
}

async function readCached(ref: CacheRef, matches: number, through: number): Promise<Cached> {
  const prefix = prefixOf(ref);
  const kept = new Set<number>();
  let total: number | undefined;
  for await (const raw of queryItems({
    partitionKey: { name: tableDefinition.partitionKey, value: listKeys.cachePartition(ref.scope) },
    sortKeyName: tableDefinition.sortKey,
    atLeast: `${prefix}${position(0)}`,
    atMost: `${prefix}${position(Math.max(matches, through))}`,
    descending: true,
    pageSize: () => 2,
  })) {
    const at = Number(String(raw.sk).slice(prefix.length));
    if (typeof raw.total === 'number') total ??= raw.total;
    if (at > matches) {
      kept.add(at);
      continue;
    }
    const boundary =
      typeof raw.key === 'string'
        ? {
            matches: at,
            stream: Number(raw.stream ?? 0),
            key: raw.key,
            ...(raw.inclusive === true ? { inclusive: true } : {}),
          }
        : undefined;
    return { ...(total !== undefined ? { total } : {}), ...(boundary ? { boundary } : {}), kept };
  }
  return { ...(total !== undefined ? { total } : {}), kept };
}

/**
 * Keeps what a request learned: boundaries, at most 25 (the caller picks the useful ones), each
 * with the total when it is known, and the start of the list (position 0) with the total when
 * the request counted it (`learned`). One BatchWriteItem call; nothing when there is nothing.
 */
export async function keep(
  ref: CacheRef,
  what: { total?: number | undefined; learned?: boolean },
  boundaries: readonly Boundary[],
) {
  const expiresAt = Math.floor(Date.now() / 1000) + cacheSeconds;
  const pk = listKeys.cachePartition(ref.scope);
  const total = what.total !== undefined ? { total: what.total } : {};
  const records = new Map<number, Record<string, unknown>>();
  // The start of the list holds the total alone unless a first match is kept there too.
  if (what.learned && what.total !== undefined) records.set(0, total);
  for (const boundary of boundaries) {
    records.set(boundary.matches, {
      stream: boundary.stream,
      key: boundary.key,
      ...(boundary.inclusive ? { inclusive: true } : {}),
      ...total,
    });
  }
  const items = [...records].slice(0, maxWrites);
  if (items.length === 0) return;
  // Best effort: the page is served whether or not its boundaries could be kept.
  await putRecords(
    items.map(([matches, record]) => ({
      key: { pk, sk: `${prefixOf(ref)}${position(matches)}` },
      entity: 'list-cache',
      record,
      expiresAt,
    })),
  ).catch(() => {});
}

/**
 * Whether the indexes show every write the revision counts, by when it was last applied: a write
 * commits before its tally moves the revision (tally.ts), and DynamoDB brings a global secondary
 * index up to date after the write, within the lag bound (FSM_LIST_INDEX_LAG_MS, 2 s by
 * default). Only then may what a walk learns be kept under the revision: kept earlier, it could
 * describe the index before the write under the revision after it, and be served until the next
 * write (a record twice across two pages, one never served, a total missing a create). A
 * revision without `applied_at` (written before tallies) is settled.
 */
export function revisionSettledAt(appliedAt: unknown, readAt: number): boolean {
  if (typeof appliedAt !== 'string') return true;
  return Date.parse(appliedAt) <= readAt - indexLagMs();
}

const indexLagMs = () => Number(process.env.FSM_LIST_INDEX_LAG_MS ?? 2000);
