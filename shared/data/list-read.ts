/**
 * Reading a page of a list declared with a ListSpec (list-index.ts), so that it costs its page,
 * not its collection:
 *
 * 1. The index of the first sort key is walked in order, from the partition of each wanted
 *    segment (several partitions merge by sort key: users of every status). Index entries are
 *    small (keys plus the listed attributes), and are fetched in Query pages sized to what the
 *    page still needs.
 * 2. A `where` filter, for what no index serves, is checked on the entries themselves.
 * 3. Entries with an equal first sort value form a group, ordered in memory by the further sort
 *    keys (and by id); numeric indexes (counts) always group, since their keys carry no id.
 * 4. `page × size` matches are skipped, `size` are taken, then one BatchGetItem reads the page's
 *    items (keys from the entries, or `itemKeyOf`).
 * 5. `page.total_elements` is the sum of the counters of the wanted segments (and `countedBy`)
 *    when there is no `where`; with one, the walk goes on to count the matches (README.md,
 *    "Lists": where that happens and what it costs).
 *
 * A facet (an equality filter on an open value, list-index.ts) walks that value's partitions of
 * its own index instead, and its counter makes the total. A `range` bounds the walked order's
 * leading key part (dates): a key range, whose total is a count of its entries. When the walked
 * order is not the first sort key (a facet or a range sorted by another field), the whole walk
 * is one group ordered in memory: it costs the facet's or the range's entries.
 *
 * Search (users) starts from token entries instead of an index: every token that starts with
 * the longest search word, deduplicated, filtered, ordered in memory. It costs its matches.
 */
import { type ListScope, listKeys } from './keys.ts';
import { facetCounter, facetSegment, type ListSpec } from './list-index.ts';
import { leadingPart } from './sort-key.ts';
import { getRecords, type Key, queryItems, type RawItem, recordOf, type StoredRecord } from './table.ts';
import { tableDefinition } from './table-definition.ts';

export interface ListOrder {
  field: string;
  direction: 'asc' | 'desc';
}

export interface ListRequest {
  scope: ListScope;
  /** Segment values to list (default: all of the spec's). */
  segments?: readonly string[];
  /** First entry served by its index; further entries order ties in memory. */
  order: readonly ListOrder[];
  page: number;
  size: number;
  /** A filter no index serves, on index entries (their listed attributes). */
  where?: (entry: StoredRecord) => boolean;
  /**
   * A counter (per segment) that counts exactly what this request lists, e.g. `role=admin`;
   * several: their sum (disjoint counters, such as the values of one facet).
   */
  countedBy?: string | readonly string[];
  /** Folded search words: each must start a token of the record (list-index.ts `tokens`). */
  search?: readonly string[];
  /** The item an entry stands for, when it is not the entry's own item (tag usage counters). */
  itemKeyOf?: (entry: StoredRecord) => Key;
  /**
   * Walk the partitions of one facet value (list-index.ts `facets`) instead of the whole list:
   * an equality filter that costs nothing, counted by its counter. Several values (an OR of
   * equalities, e.g. the models that contain a text) merge their partitions by sort key.
   */
  facet?: { name: string; value: string | readonly string[] };
  /**
   * Walk this order's index (a key of the spec's orders) although the first sort key is another:
   * to serve `range`. What the walk yields is then ordered in memory, so the page costs every
   * entry walked. A facet always walks its own order.
   */
  walk?: string;
  /**
   * Inclusive bounds on the leading part of the walked order's sort key (a date range): a key
   * range of the index. The total is then a count of the range's entries.
   */
  range?: { from?: string; to?: string };
  /**
   * Raw bounds of the walked order's sort keys (instance filters: `_gt` excludes a value's own
   * keys), used instead of `range`; like it, counted by walking unless `countedBy` counts it.
   */
  keyBounds?: { atLeast?: string; atMost?: string };
  /** Matches to skip instead of `page × size` (GraphQL offsets and cursors). */
  offset?: number;
  /** No total wanted (a GraphQL query that selects no totalCount): the walk stops at the page. */
  skipTotal?: boolean;
}

export interface ListPage {
  items: StoredRecord[];
  total: number;
  /** Whether a match follows the page (known without a total: the walk reads one entry more). */
  hasMore: boolean;
}

/**
 * Items per Query call of a walk at most (FSM_LIST_QUERY_MAX lowers it: tests span many calls).
 * The default is the largest page (1,000) plus the entry that tells whether another follows, so
 * a full page is one call.
 */
function maxPerQuery(): number {
  return Number(process.env.FSM_LIST_QUERY_MAX ?? 1001);
}

interface Entry {
  raw: RawItem;
  record: StoredRecord;
  sortKey: string | number;
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
    const c = String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;
    return direction === 'asc' ? c : -c;
  };
}

function compareKeys(a: string[] | number, b: string[] | number): number {
  if (typeof a === 'number' || typeof b === 'number') return Number(a) - Number(b);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Several ordered streams as one (k-way merge by sort key). */
async function* merged(streams: AsyncGenerator<Entry>[], descending: boolean): AsyncGenerator<Entry> {
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
      const before = typeof a === 'number' ? a < Number(b) : a < String(b);
      const after = typeof a === 'number' ? a > Number(b) : a > String(b);
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
async function* concatenated(streams: AsyncGenerator<Entry>[]): AsyncGenerator<Entry> {
  for (const stream of streams) yield* stream;
}

/** Entries of one partition of an order's index (or of the base partition), in order. */
async function* entriesOf(params: {
  index?: string;
  partition: string;
  partitionKeyName: string;
  sortKeyName: string;
  descending: boolean;
  pageSize: () => number;
  bounds?: { atLeast?: string; atMost?: string };
}): AsyncGenerator<Entry> {
  for await (const raw of queryItems({
    ...(params.index ? { index: params.index } : {}),
    partitionKey: { name: params.partitionKeyName, value: params.partition },
    sortKeyName: params.sortKeyName,
    ...params.bounds,
    descending: params.descending,
    pageSize: params.pageSize,
  })) {
    const sortKey = raw[params.sortKeyName] as string | number;
    // What the list carries beyond the shared projection (ListSpec `listedValues`).
    const values = raw.list_values as StoredRecord | undefined;
    yield { raw, record: values ? { ...values, ...recordOf(raw) } : recordOf(raw), sortKey };
  }
}

export async function listPage<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
): Promise<ListPage> {
  if (request.search?.length) return searchPage(spec, request);
  const first = request.order[0];
  const facet = request.facet ? spec.facets?.[request.facet.name] : undefined;
  if (request.facet && !facet) throw new Error(`${spec.name} has no facet ${request.facet.name}`);
  const walked = facet?.order ?? request.walk ?? first?.field;
  const pattern = walked ? spec.orders[walked] : undefined;
  if (!first || !spec.orders[first.field] || !pattern)
    throw new Error(`${spec.name} is not listed by ${first?.field}`);
  // Walked in another order than the one asked for: everything walked is ordered in memory.
  const inMemory = walked !== first.field;
  const descending = first.direction === 'desc';
  const skip = request.offset ?? request.page * request.size;
  // A facet's counter counts exactly what its partitions hold (per segment).
  const facetValues = request.facet
    ? typeof request.facet.value === 'string'
      ? [request.facet.value]
      : request.facet.value
    : [undefined];
  const countedBy =
    request.countedBy ??
    (request.facet && !request.where
      ? facetValues.map((value) => facetCounter(request.facet?.name ?? '', value ?? ''))
      : undefined);
  // A filter that a counter counts exactly (`countedBy`) leaves the total to the counters; a
  // key range has no counter.
  const bounded = request.range !== undefined || request.keyBounds !== undefined;
  const counting =
    !request.skipTotal &&
    ((request.where !== undefined && countedBy === undefined) ||
      (bounded && request.countedBy === undefined));
  // Entries still needed: the page and what comes before it, plus one to see where a group ends.
  let needed = skip + request.size + 1;
  const pageSize = () => Math.min(maxPerQuery(), counting || inMemory ? maxPerQuery() : Math.max(needed, 10));
  const bounds = request.keyBounds ?? {
    ...(request.range?.from ? { atLeast: request.range.from } : {}),
    ...(request.range?.to ? { atMost: `${request.range.to}\u0001\u{10FFFF}` } : {}),
  };

  const segments = spec.segment ? (request.segments ?? spec.segment.values) : [undefined];
  // An order of the segment values (OrderPattern `segmentOrder`) walks their partitions one
  // after another, in the order of the values (reversed when descending), instead of merging.
  const bySegment = pattern.segmentOrder !== undefined && !facet && spec.segment !== undefined;
  const rank = (segment: string | undefined) => spec.segment?.values.indexOf(segment ?? '') ?? 0;
  const walkedSegments = bySegment
    ? [...segments].sort((a, b) => (descending ? rank(b) - rank(a) : rank(a) - rank(b)))
    : segments;
  let streams: AsyncGenerator<Entry>[];
  let groupsOf: (entry: Entry) => string | number;
  if (pattern.index === 'base' && !facet) {
    if (!spec.basePartition) throw new Error(`${spec.name} has no base partition`);
    streams = [
      entriesOf({
        partition: spec.basePartition(request.scope),
        partitionKeyName: tableDefinition.partitionKey,
        sortKeyName: tableDefinition.sortKey,
        descending,
        pageSize,
        bounds,
      }),
    ];
    groupsOf = (entry) => String(entry.sortKey);
  } else {
    const indexName = facet?.index ?? pattern.index;
    const index = tableDefinition.indexes.find((candidate) => candidate.name === indexName);
    if (!index) throw new Error(`no index ${indexName}`);
    streams = facetValues.flatMap((value) =>
      walkedSegments.map((segment) =>
        entriesOf({
          index: index.name,
          partition: listKeys.indexPartition(
            request.scope,
            spec.name,
            request.facet && value !== undefined ? facetSegment(request.facet.name, value, segment) : segment,
          ),
          partitionKeyName: index.partitionKey,
          sortKeyName: index.sortKey,
          descending,
          pageSize,
          bounds,
        }),
      ),
    );
    const secondary = request.order.length > 1;
    const leading = pattern.leading;
    // Numeric keys carry no id: equal counts always form a group, ordered by id in memory (a key
    // of parts: its leading part, when further sort keys order the ties).
    groupsOf =
      index.sortKeyType === 'N'
        ? secondary && leading
          ? (entry) => leading(Number(entry.sortKey))
          : (entry) => entry.sortKey
        : secondary
          ? bySegment
            ? (entry) => spec.segment?.of(entry.record as unknown as R) ?? ''
            : (entry) => leadingPart(String(entry.sortKey))
          : (entry) => String(entry.sortKey);
  }
  // One group: the whole walk, ordered in memory by the order asked for.
  if (inMemory) groupsOf = () => '';

  const compare = comparatorOf(spec, request.order);
  const page: Entry[] = [];
  let matches = 0;
  let stoppedEarly = false;
  let group: Entry[] = [];
  let groupKey: string | number | undefined;
  const closeGroup = () => {
    if (group.length > 1) group.sort((a, b) => compare(a.record, b.record));
    for (const entry of group) {
      if (matches >= skip && page.length < request.size) page.push(entry);
      matches++;
    }
    needed = Math.max(1, skip + request.size + 1 - matches);
    group = [];
  };
  for await (const entry of bySegment ? concatenated(streams) : merged(streams, descending)) {
    if (request.where && !request.where(entry.record)) continue;
    const key = groupsOf(entry);
    if (group.length > 0 && key !== groupKey) {
      closeGroup();
      if (!counting && matches >= skip + request.size) {
        // This entry is a match after the page.
        stoppedEarly = true;
        break;
      }
    }
    groupKey = key;
    group.push(entry);
  }
  if (group.length > 0) closeGroup();

  const total = request.skipTotal
    ? -1
    : counting
      ? matches
      : await countOf(spec, countedBy === undefined ? request : { ...request, countedBy }, segments);
  const keys = page.map((entry) =>
    request.itemKeyOf
      ? request.itemKeyOf(entry.record)
      : { pk: String(entry.raw.pk), sk: String(entry.raw.sk) },
  );
  const items =
    pattern.index === 'base' && !facet && !request.itemKeyOf
      ? page.map((entry) => entry.record)
      : await getRecords(keys);
  return {
    items: items.filter((item): item is StoredRecord => item !== undefined),
    total,
    hasMore: stoppedEarly || matches > skip + request.size,
  };
}

/**
 * The entries whose first sort value, folded, equals `value` (tags named `night shift`, in any
 * case): one Query of the order's index for that key prefix.
 */
export async function entriesWithValue<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  field: string,
  value: string,
): Promise<StoredRecord[]> {
  const pattern = spec.orders[field];
  const index = tableDefinition.indexes.find((candidate) => candidate.name === pattern?.index);
  if (!pattern || !index || index.sortKeyType !== 'S')
    throw new Error(`${spec.name} has no text order ${field}`);
  const [leading = ''] = pattern.key({ [field]: value } as unknown as R) as string[];
  const records: StoredRecord[] = [];
  for await (const raw of queryItems({
    index: index.name,
    partitionKey: { name: index.partitionKey, value: listKeys.indexPartition(scope, spec.name) },
    sortKeyName: index.sortKey,
    beginsWith: `${leading}\u0001`,
    pageSize: maxPerQuery,
  })) {
    records.push(recordOf(raw));
  }
  return records;
}

/** The sum of the counters of the wanted segments (and of `countedBy` within them). */
async function countOf<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
  segments: ReadonlyArray<string | undefined>,
): Promise<number> {
  const countedBy =
    request.countedBy === undefined
      ? [undefined]
      : typeof request.countedBy === 'string'
        ? [request.countedBy]
        : request.countedBy;
  const names = countedBy.flatMap((counter) =>
    segments.map((segment) =>
      segment === undefined ? (counter ?? 'all') : counter ? `${segment}#${counter}` : segment,
    ),
  );
  const counters = await getRecords(names.map((name) => listKeys.counter(request.scope, spec.name, name)));
  return counters.reduce((sum, counter) => sum + Math.max(0, Number(counter?.count ?? 0)), 0);
}

/**
 * Search: the token entries that start with the longest word (every record they name, once),
 * kept when every other word starts one of the record's tokens and `where` holds, ordered in
 * memory, counted, sliced.
 */
async function searchPage<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
): Promise<ListPage> {
  const segments = new Set(spec.segment ? (request.segments ?? spec.segment.values) : []);
  const matches = (await searchMatches(spec, request.scope, request.search ?? [])).filter((record) => {
    if (spec.segment && !segments.has(spec.segment.of(record as unknown as R))) return false;
    return !request.where || request.where(record);
  });
  matches.sort(comparatorOf(spec, request.order));
  const start = request.page * request.size;
  const page = matches.slice(start, start + request.size);
  const items = await getRecords(
    page.map((record) => request.itemKeyOf?.(record) ?? itemKey(spec, request.scope, record)),
  );
  return {
    items: items.filter((item): item is StoredRecord => item !== undefined),
    total: matches.length,
    hasMore: matches.length > start + request.size,
  };
}

/**
 * The records (as their token entries hold them: the shared projection) of which every search
 * word starts a token: the token entries of the longest word, one Query of a key range, checked
 * against the other words. It costs the longest word's matches. For lists that filter further
 * on whole items (devices), which read the matches' items themselves.
 */
export async function searchMatches<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  search: readonly string[],
): Promise<StoredRecord[]> {
  const words = [...search].sort((a, b) => b.length - a.length);
  const [longest = '', ...others] = words;
  const candidates = new Map<string, { record: StoredRecord; tokens: string[] }>();
  for await (const raw of queryItems({
    partitionKey: { name: tableDefinition.partitionKey, value: listKeys.searchPartition(scope, spec.name) },
    sortKeyName: tableDefinition.sortKey,
    beginsWith: longest,
    pageSize: maxPerQuery,
  })) {
    const record = recordOf(raw);
    const id = String(record.id);
    if (!candidates.has(id)) candidates.set(id, { record, tokens: [] });
  }
  return [...candidates.values()]
    .filter(({ record }) => {
      const tokens = spec.tokens?.(record as unknown as R) ?? [];
      // Token entries hold the projection only: a spec whose tokens need more fields keeps them
      // in the entry's `token` list (list-index.ts puts each record's tokens there).
      const held = Array.isArray(record.tokens) ? (record.tokens as string[]) : tokens;
      return others.every((word) => held.some((token) => token.startsWith(word)));
    })
    .map(({ record }) => record);
}

/** Where a searched record's item is: its base partition, keyed by id. */
function itemKey<R extends { id: string }>(spec: ListSpec<R>, scope: ListScope, record: StoredRecord): Key {
  if (!spec.basePartition) throw new Error(`${spec.name} has no base partition to read searched items from`);
  return { pk: spec.basePartition(scope), sk: String(record.id) };
}

/**
 * The counters of a list whose name (within its segments) starts with `prefix`, e.g. every
 * `model=` facet counter of the devices: one Query of the list's key range of the workspace's
 * counter partition. Lists hold a handful of counters per segment plus one per facet value in
 * use, so this costs the distinct values, not the records.
 */
export async function countersOf<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  prefix: string,
): Promise<Array<{ segment: string | undefined; name: string; count: number }>> {
  const { pk } = listKeys.counter(scope, spec.name, '');
  const found: Array<{ segment: string | undefined; name: string; count: number }> = [];
  for await (const raw of queryItems({
    partitionKey: { name: tableDefinition.partitionKey, value: pk },
    sortKeyName: tableDefinition.sortKey,
    beginsWith: `${spec.name}#`,
    pageSize: maxPerQuery,
  })) {
    const rest = String(raw.sk).slice(spec.name.length + 1);
    const segment = spec.segment?.values.find((value) => rest.startsWith(`${value}#`));
    const name = segment === undefined ? rest : rest.slice(segment.length + 1);
    if (name.startsWith(prefix)) found.push({ segment, name, count: Number(raw.count ?? 0) });
  }
  return found;
}
