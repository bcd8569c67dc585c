/**
 * The walk of a list order's index (list-read.ts): the entries of one index partition in order,
 * fetched in Query pages as they are consumed, several partitions merged by sort key (users of
 * every status) or read one after another (an order of the segment values), and the order of
 * records a list request asks for, from the spec's own sort keys.
 */
import type { ListSpec } from './list-index.ts';
import { compareBytes } from './sort-key.ts';
import { queryItems, type RawItem, recordOf, type StoredRecord } from './table.ts';

export interface ListOrder {
  field: string;
  direction: 'asc' | 'desc';
}

/**
 * Items per Query call of a walk at most (FSM_LIST_QUERY_MAX lowers it: tests span many calls).
 * The default is the largest page (1,000) plus the entry that tells whether another follows, so
 * a full page is one call.
 */
export function maxPerQuery(): number {
  return Number(process.env.FSM_LIST_QUERY_MAX ?? 1001);
}

export interface Entry {
  raw: RawItem;
  record: StoredRecord;
  sortKey: string | number;
  /** Which of the walk's partitions (streams) it came from. */
  stream: number;
}

/** A comparator of records by the request's order, from the spec's own sort keys, then id. */
export function comparatorOf<R extends { id: string }>(spec: ListSpec<R>, order: readonly ListOrder[]) {
  const direction = order[0]?.direction ?? 'asc';
  return (a: StoredRecord, b: StoredRecord): number => {
    for (const [position, { field, direction: dir }] of order.entries()) {
      const pattern = spec.orders[field];
      if (!pattern) continue;
      // A key's own tie-breakers (the first name after the last name) count only when no
      // further sort key was asked for.
      // The lower parts of a numeric key (a creation time under a priority) are no published
      // tie-breaker: its ties fall to the next key or the id, as the index walk orders them.
      const last = position === order.length - 1;
      const lead = (key: string[] | number) =>
        Array.isArray(key) ? (last ? key : key.slice(0, 1)) : (pattern.leading?.(key) ?? key);
      const c = compareKeys(lead(pattern.key(a as unknown as R)), lead(pattern.key(b as unknown as R)));
      if (c !== 0) return dir === 'asc' ? c : -c;
    }
    const c = Math.sign(compareBytes(String(a.id), String(b.id)));
    return direction === 'asc' ? c : -c;
  };
}

function compareKeys(a: string[] | number, b: string[] | number): number {
  if (typeof a === 'number' || typeof b === 'number') return Number(a) - Number(b);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return compareBytes(x, y) < 0 ? -1 : 1;
  }
  return 0;
}

/** Several ordered streams as one (k-way merge by sort key). */
export async function* merged(streams: AsyncGenerator<Entry>[], descending: boolean): AsyncGenerator<Entry> {
  const heads = await Promise.all(streams.map((stream) => stream.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i];
      if (!head || head.done) continue;
      const current = best === -1 ? undefined : heads[best];
      if (!current || current.done) {
        best = i;
        continue;
      }
      const a = head.value.sortKey;
      const b = current.value.sortKey;
      // Byte order, as DynamoDB returns each partition (sort-key.ts compareBytes).
      const c = typeof a === 'number' ? a - Number(b) : compareBytes(a, String(b));
      const before = c < 0;
      const after = c > 0;
      if (descending ? after : before) best = i;
    }
    if (best === -1) return;
    const head = heads[best];
    if (!head || head.done) return;
    yield head.value;
    heads[best] = await (streams[best] as AsyncGenerator<Entry>).next();
  }
}

/** Several ordered streams one after another (the partitions of an order of segment values). */
export async function* concatenated(streams: AsyncGenerator<Entry>[]): AsyncGenerator<Entry> {
  for (const stream of streams) yield* stream;
}

/** Entries of one partition of an order's index (or of the base partition), in order. */
export async function* entriesOf(params: {
  index?: string;
  partition: string;
  partitionKeyName: string;
  sortKeyName: string;
  descending: boolean;
  pageSize: () => number;
  bounds?: { atLeast?: string; atMost?: string };
  stream: number;
  /** Resuming after this sort key (a cached page boundary): the key's own entry is skipped. */
  after?: string;
  /** Resuming at `after` instead: its entry is the first (a kept first match). */
  inclusive?: boolean;
}): AsyncGenerator<Entry> {
  const bounds = { ...params.bounds };
  if (params.after !== undefined) {
    // A key range from the boundary on (string keys hold the id: the boundary's entry is unique).
    if (params.descending) bounds.atMost = minOf(bounds.atMost, params.after);
    else bounds.atLeast = maxOf(bounds.atLeast, params.after);
  }
  for await (const raw of queryItems({
    ...(params.index ? { index: params.index } : {}),
    partitionKey: { name: params.partitionKeyName, value: params.partition },
    sortKeyName: params.sortKeyName,
    ...bounds,
    descending: params.descending,
    pageSize: params.pageSize,
  })) {
    const sortKey = raw[params.sortKeyName] as string | number;
    if (params.after !== undefined && !params.inclusive && sortKey === params.after) continue;
    // What the list carries beyond the shared projection (ListSpec `listedValues`).
    const values = raw.list_values as StoredRecord | undefined;
    const record = values ? { ...values, ...recordOf(raw) } : recordOf(raw);
    yield { raw, record, sortKey, stream: params.stream };
  }
}

const maxOf = (a: string | undefined, b: string) => (a === undefined || compareBytes(b, a) > 0 ? b : a);
const minOf = (a: string | undefined, b: string) => (a === undefined || compareBytes(b, a) < 0 ? b : a);

/** Entries a Query of a walk asks for at least: ~4 KB of entries, what one read unit rounds to. */
export const minEntriesPerQuery = 10;

/** How many entries each stream of a walk asks for per Query, from what the merge consumed. */
export interface ReadSizes {
  /** The Limit of the next Query of `stream`. */
  sizeOf(stream: number): number;
  /** The merge took an entry of `stream`. */
  consumed(stream: number): void;
}

/**
 * Read sizes for the streams of a walk. A stream's first Query asks for its share of what the
 * walk still needs, 1/k of it for k merged streams (k times the need would be read otherwise,
 * most of it never consumed); a stream the merge drained asks for its share of what is still
 * needed, by the entries the merge took from it so far. Streams read one after another (an order
 * of segment values) each ask for the whole need. `entriesNeeded` is the walk's estimate of the
 * entries still needed, all streams together (the matches still needed ÷ the selectivity
 * observed); `undefined` while a filter has matched nothing: then a drained stream doubles its
 * last Query. Uncertain estimates get a quarter more; every Query asks for at least ~4 KB of
 * entries (a read unit is paid per 4 KB anyway) and at most `maxPerQuery`.
 */
export function readSizes(params: {
  streams: number;
  merged: boolean;
  entriesNeeded: () => number | undefined;
  /** The estimate is exact (no filter, one stream): no margin. */
  exact: boolean;
  /** Every Query reads `maxPerQuery` (the walk counts or orders everything it walks). */
  whole: boolean;
}): ReadSizes {
  const consumed = new Map<number, number>();
  const last = new Map<number, number>();
  let taken = 0;
  return {
    consumed(stream) {
      consumed.set(stream, (consumed.get(stream) ?? 0) + 1);
      taken++;
    },
    sizeOf(stream) {
      const max = maxPerQuery();
      if (params.whole) return max;
      const previous = last.get(stream);
      const own = consumed.get(stream) ?? 0;
      const share = !params.merged ? 1 : own > 0 && taken > 0 ? own / taken : 1 / Math.max(1, params.streams);
      const needed = params.entriesNeeded();
      const wanted =
        needed === undefined
          ? 2 * (previous ?? minEntriesPerQuery)
          : Math.ceil(needed * share * (params.exact ? 1 : 1.25));
      const size = Math.min(max, Math.max(minEntriesPerQuery, wanted));
      last.set(stream, size);
      return size;
    },
  };
}
