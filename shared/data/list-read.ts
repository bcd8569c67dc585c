/**
 * Reading a page of a list declared with a ListSpec (list-index.ts), so that it costs its page,
 * not its collection:
 *
 * 1. The index of the first sort key is walked in order, from the partition of each wanted
 *    segment (several partitions merge by sort key: users of every status), in Query pages
 *    sized to what the page still needs (list-scan.ts).
 * 2. A `where` filter, for what no index serves, is checked on the entries themselves.
 * 3. Entries with an equal first sort value form a group, ordered in memory by the further sort
 *    keys (and by id); numeric indexes (counts) always group, since their keys carry no id.
 * 4. `page × size` matches are skipped, `size` are taken, then one BatchGetItem reads the page's
 *    items (keys from the entries, or `itemKeyOf`).
 * 5. `page.total_elements` is the sum of the counters of the wanted segments (and `countedBy`)
 *    when there is no `where`; with one, the walk goes on to count the matches (README.md,
 *    "Lists": where that happens and what it costs), once per list revision: the count and the
 *    page boundaries a walk passes are kept in the table (list-cache.ts), so a later request of
 *    the same query starts at the nearest boundary before its page instead of the list's start.
 *
 * A facet (an equality filter on an open value, list-index.ts) walks that value's partitions of
 * its own index instead, and its counter makes the total. A `range` bounds the walked order's
 * leading key part (dates): a key range, whose total is a count of its entries. When the walked
 * order is not the first sort key (a facet or a range sorted by another field), the whole walk
 * is one group ordered in memory: it costs the facet's or the range's entries.
 *
 * A search is planned (list-plan.ts): its first request at a list revision reads the token
 * entries of the longest word whole (list-search.ts: the exact count, and then the answer,
 * ordered in memory); with the count kept, the walk of the requested order from the nearest kept
 * position, testing the words on each entry (ListSpec `tokensOnEntries`), when it is expected to
 * read fewer entries than the matches; without a total wanted, a probe of the token entries
 * decides. Either plan keeps where its page and the next start (at their first match).
 */

import { noteEstimatedTotal } from './call-cost.ts';
import { type ListScope, listKeys } from './keys.ts';
import {
  type Boundary,
  type Cached,
  type CacheRef,
  cachedOf,
  keep,
  queryHash,
  revisionCounter,
} from './list-cache.ts';
import { counterNamesOf, countersNamed, sumOf } from './list-counters.ts';
import { facetCounter, type ListSpec, type OrderPattern } from './list-index.ts';
import { abandonWalk, choosePlan, type PlanInput, probeSize } from './list-plan.ts';
import { shapeOf, type WalkResult, type WalkShape, walk } from './list-scan.ts';
import { type SearchCandidates, searchCandidates, searchMatches, tokensMatch } from './list-search.ts';
import { comparatorOf, type ListOrder, maxPerQuery } from './list-walk.ts';
import { boundedSearchWalk, estimatedTotal, readBound, tooCostly } from './read-bound.ts';
import { getRecords, type Key, queryItems, recordOf, type StoredRecord } from './table.ts';
import { tableDefinition } from './table-definition.ts';

export { comparatorOf, type ListOrder, searchMatches };

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
  /**
   * What `where` tests, as stable text (the query's filter parameters): a request whose `where`
   * has none keeps nothing between requests (list-cache.ts), since its filter cannot be named.
   */
  filterKey?: string;
}

export interface ListPage {
  items: StoredRecord[];
  total: number;
  /** Whether a match follows the page (known without a total: the walk reads one entry more). */
  hasMore: boolean;
}

export async function listPage<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
): Promise<ListPage> {
  const shape = shapeOf(spec, request);
  const skip = request.offset ?? request.page * request.size;
  const search = request.search?.length ? request.search : undefined;
  // A facet's counter counts exactly what its partitions hold (per segment).
  const countedBy =
    request.countedBy ??
    (request.facet && !request.where
      ? shape.facetValues.map((value) => facetCounter(request.facet?.name ?? '', value ?? ''))
      : undefined);
  // A filter that a counter counts exactly (`countedBy`) leaves the total to the counters; a
  // key range has no counter; nor has a search.
  const bounded = request.range !== undefined || request.keyBounds !== undefined;
  const counted =
    search !== undefined ||
    (request.where !== undefined && countedBy === undefined) ||
    (bounded && request.countedBy === undefined);
  const totalNames = counted ? [] : counterNamesOf(countedBy, shape.segments);
  // What the planner weighs a search walk against, and what an estimated total scales to: the
  // entries of the wanted partitions.
  const walkableNames = search || counted ? counterNamesOf(undefined, shape.segments) : [];
  const askCache =
    (request.where === undefined || request.filterKey !== undefined) &&
    shape.pattern.maintainedBy === undefined &&
    request.itemKeyOf === undefined &&
    (search !== undefined ||
      (counted && !request.skipTotal) ||
      // A deep page, or page 0 of a filter: its first match may lie deep (kept at 0).
      (shape.resumable && (skip > 0 || request.where !== undefined)));
  const { counters, revisionSettled } = await countersNamed(spec, request.scope, [
    ...(request.skipTotal ? [] : totalNames),
    ...walkableNames,
    ...(askCache ? [revisionCounter] : []),
  ]);
  // Nothing is kept under a revision younger than the index lag bound, so nothing is read either.
  const cacheable = askCache && revisionSettled;
  const ref: CacheRef | undefined = cacheable
    ? {
        scope: request.scope,
        list: spec.name,
        query: queryHash({
          segments: shape.segments,
          order: request.order,
          facet: request.facet,
          walk: request.walk,
          range: request.range,
          keyBounds: request.keyBounds,
          countedBy: request.countedBy,
          search,
          filter: request.filterKey,
        }),
        revision: counters.get(revisionCounter) ?? 0,
      }
    : undefined;
  const cached: Cached = ref
    ? await cachedOf(ref, shape.resumable ? skip : 0, shape.resumable ? skip + request.size : 0)
    : { kept: new Set() };
  const from = shape.resumable ? cached.boundary : undefined;
  const segmentsWanted = new Set(shape.segments);
  const inSegments = (record: StoredRecord) =>
    !spec.segment || segmentsWanted.has(spec.segment.of(record as unknown as R));
  const where = request.where;

  let result: WalkResult;
  let total: number | undefined = request.skipTotal
    ? -1
    : counted
      ? cached.total
      : sumOf(counters, totalNames);
  // The matches of the whole query when known exactly: a resumable walk stops at the last.
  const known = counted ? cached.total : total !== undefined && total >= 0 ? total : undefined;
  if (search) {
    const served = await searchPage(spec, request, shape, {
      skip,
      search,
      total,
      cached,
      ref,
      walkable: sumOf(counters, walkableNames),
      matching: (record) => inSegments(record) && (!where || where(record)),
    });
    if ('items' in served) return served;
    // An estimate is served, never kept.
    if ('estimated' in served) {
      return finish(request, shape.pattern.index === 'base' && !shape.facet, served.result, {
        total: served.total ?? -1,
      });
    }
    ({ result, total } = served);
  } else {
    const counting = counted && total === undefined;
    // Segments whose counter of the filter holds no match: their partitions are not walked
    // (merged in, they only add entries: an area's cases in 3 of 6 statuses).
    const countedBy = request.countedBy;
    const empty =
      where && typeof countedBy === 'string' && !shape.facet && !counted && !request.skipTotal
        ? shape.segments.filter(
            (segment) => segment !== undefined && !counters.get(`${segment}#${countedBy}`),
          )
        : [];
    result = await walk(spec, request, shape, {
      ...(empty.length > 0 ? { emptySegments: new Set(empty) } : {}),
      skip,
      size: request.size,
      ...(where ? { where } : {}),
      counting,
      ...(from ? { from } : {}),
      ...(known !== undefined && !counting ? { total: known } : {}),
      budget: readBound(),
    });
    if (result.truncated) {
      // The page itself must be whole; only the count beyond it may be estimated.
      if (result.page.length < request.size) throw tooCostly();
      if (counting) {
        total = estimatedTotal(result, sumOf(counters, walkableNames), skip + request.size);
        noteEstimatedTotal();
        return finish(
          request,
          shape.pattern.index === 'base' && !shape.facet,
          { ...result, hasMore: true },
          // Nothing kept: every kept position carries the total, and an estimate is none.
          { total },
        );
      }
    }
    if (counting) total = result.matches;
  }
  return finish(request, shape.pattern.index === 'base' && !shape.facet, result, {
    total: total ?? -1,
    ...(ref ? { ref, learned: counted && cached.total === undefined, counted, from, kept: cached.kept } : {}),
  });
}

export interface SearchContext {
  skip: number;
  search: readonly string[];
  /** The total to serve: known (kept), -1 (not wanted) or undefined (to count). */
  total: number | undefined;
  cached: Cached;
  ref: CacheRef | undefined;
  walkable: number;
  /** What the search's candidates must also be: in the wanted segments, passing `where`. */
  matching: (record: StoredRecord) => boolean;
}

/**
 * A search's page, planned (list-plan.ts): the walk of the requested order testing the words on
 * its entries (its result, for finish), or the candidates read whole, ordered and sliced (the
 * page, with where it and the next start in the order's index kept).
 */
async function searchPage<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
  shape: WalkShape<R>,
  context: SearchContext,
): Promise<ListPage | { result: WalkResult; total: number | undefined; estimated?: true }> {
  const { skip, search, cached, ref, matching } = context;
  const from = shape.resumable ? cached.boundary : undefined;
  const input: PlanInput = {
    walkable: context.walkable,
    needed: skip - (from?.matches ?? 0) + request.size + 1,
    ...(cached.total !== undefined ? { matches: cached.total } : {}),
    counting: context.total === undefined,
    filterOnEntries: spec.tokensOnEntries === true,
  };
  let candidates: SearchCandidates | undefined;
  let plan = choosePlan(input);
  if (plan === 'probe') {
    candidates = await searchCandidates(spec, request.scope, search, probeSize());
    input.candidates = { count: candidates.records.filter(matching).length, complete: candidates.complete };
    plan = choosePlan(input);
  }
  let reading: Promise<StoredRecord[]> | undefined;
  let cut = false;
  const everyMatch = () => {
    reading ??= (candidates ? Promise.resolve(candidates) : searchCandidates(spec, request.scope, search))
      .then(async (read) => {
        const records = await read.rest();
        cut = read.truncated;
        return records;
      })
      .then((records) => records.filter(matching));
    return reading;
  };
  if (plan === 'walk') {
    // A count runs beside the walk (the rest of the word's token entries, no item).
    const count = context.total === undefined ? everyMatch().then((all) => all.length) : undefined;
    const where = request.where;
    const result = await walk(spec, request, shape, {
      skip,
      size: request.size,
      where: (entry) =>
        (!where || where(entry)) && tokensMatch(spec.tokens?.(entry as unknown as R) ?? [], search),
      counting: false,
      ...(from ? { from } : {}),
      ...(cached.total !== undefined ? { total: cached.total } : {}),
      giveUp: (walked, matched) => abandonWalk(input, walked, matched),
    });
    if (!result.gaveUp) {
      const counted = count ? await count : context.total;
      if (!cut) return { result, total: counted };
      // The word's matches are more than one request may read: the page stands, its total is a
      // bounded count of the walked order instead.
      return boundedSearchWalk(spec, request, shape, context);
    }
  }
  const all = (await everyMatch()).sort(comparatorOf(spec, request.order));
  if (cut) {
    if (!spec.tokensOnEntries) throw tooCostly();
    return boundedSearchWalk(spec, request, shape, context);
  }
  const page = all.slice(skip, skip + request.size);
  // The matches are in the order's order: where this page and the next start in the order's
  // index is known (page 0's: at its first match), so a later request of them walks from there.
  // Each at its first match (inclusive), so that a walk of the page reads no entry before it;
  // the end of the matches after the last.
  const keeps = shape.resumable && !shape.bySegment && ref !== undefined;
  const starts = keeps ? [skip, skip + request.size] : [];
  const boundaries: Boundary[] = starts
    .filter((at) => at < all.length || (at > 0 && at <= all.length))
    .map((at) =>
      at < all.length
        ? { matches: at, stream: 0, key: indexKeyOf(shape.pattern, all[at] as StoredRecord), inclusive: true }
        : { matches: at, stream: 0, key: indexKeyOf(shape.pattern, all[at - 1] as StoredRecord) },
    )
    .filter((boundary) => unkept(boundary, from, cached.kept));
  const learned = cached.total === undefined;
  const [items] = await Promise.all([
    getRecords(page.map((record) => request.itemKeyOf?.(record) ?? itemKey(spec, request.scope, record))),
    ref && (boundaries.length > 0 || learned)
      ? keep(ref, { total: all.length, learned }, boundaries)
      : undefined,
  ]);
  return {
    items: items.filter((item): item is StoredRecord => item !== undefined),
    total: request.skipTotal ? -1 : all.length,
    hasMore: all.length > skip + request.size,
  };
}

/** The page's items (one BatchGetItem), with what the walk learned kept beside it. */
async function finish(
  request: ListRequest,
  base: boolean,
  result: WalkResult,
  state: {
    total: number;
    ref?: CacheRef;
    learned?: boolean;
    counted?: boolean;
    from?: Boundary | undefined;
    kept?: ReadonlySet<number>;
  },
): Promise<ListPage> {
  const keys = result.page.map((entry) =>
    request.itemKeyOf
      ? request.itemKeyOf(entry.record)
      : { pk: String(entry.raw.pk), sk: String(entry.raw.sk) },
  );
  // The next page's start first, then this one's, then every tenth page passed; none already
  // kept, unless at its first match where the kept one is not. The first match of the list (at
  // 0) shares its item with a counted total: kept only with it.
  const next = (skip: number) => (boundary: Boundary) => (boundary.matches === skip ? 0 : 1);
  const skip = request.offset ?? request.page * request.size;
  const boundaries = result.boundaries
    .filter(
      (boundary) =>
        unkept(boundary, state.from, state.kept) &&
        (boundary.matches > 0 || !state.counted || state.total >= 0),
    )
    .sort(
      (a, b) => next(skip + request.size)(a) - next(skip + request.size)(b) || next(skip)(a) - next(skip)(b),
    );
  const kept =
    state.ref && (boundaries.length > 0 || state.learned)
      ? keep(
          state.ref,
          { total: state.total >= 0 ? state.total : undefined, learned: state.learned === true },
          boundaries.slice(0, 24),
        )
      : undefined;
  const read: Promise<Array<StoredRecord | undefined>> =
    base && !request.itemKeyOf ? Promise.resolve(result.page.map((entry) => entry.record)) : getRecords(keys);
  const [items] = await Promise.all([read, kept]);
  return {
    items: items.filter((item): item is StoredRecord => item !== undefined),
    total: state.total,
    hasMore: result.hasMore,
  };
}

/**
 * Whether a boundary is worth writing: not kept already (the position the walk started from, or
 * one seen after the page), unless it starts at its first match where the kept one does not.
 */
function unkept(boundary: Boundary, from: Boundary | undefined, kept: ReadonlySet<number> | undefined) {
  if (kept?.has(boundary.matches)) return false;
  return boundary.matches !== from?.matches || (boundary.inclusive === true && !from.inclusive);
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

/** A record's sort key in an order's index (list-index.ts `indexedItem`), or its id in the base order. */
function indexKeyOf<R extends { id: string }>(pattern: OrderPattern<R>, record: StoredRecord): string {
  if (pattern.index === 'base') return String(record.id);
  const key = pattern.key(record as unknown as R);
  return Array.isArray(key) ? [...key, record.id].join('\u0001') : String(key);
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
