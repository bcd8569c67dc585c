/**
 * One walk of a list request (list-read.ts): the walked order's index partitions (the wanted
 * segments, or a facet's values within them) as ordered streams, merged or one after another,
 * the filter checked on each entry, ties of the first sort key ordered in memory, matches
 * skipped up to the page and taken for it. A walk may start at a cached page boundary
 * (list-cache.ts) instead of the list's start, notes the boundaries it passes, and gives up
 * when the planner (list-plan.ts) says the matches are cheaper.
 */
import { listKeys } from './keys.ts';
import type { Boundary } from './list-cache.ts';
import { facetSegment, type ListSpec, type OrderPattern } from './list-index.ts';
import type { ListRequest } from './list-read.ts';
import { comparatorOf, concatenated, type Entry, entriesOf, merged, readSizes } from './list-walk.ts';
import { leadingPart } from './sort-key.ts';
import { tableDefinition } from './table-definition.ts';

/** How a request walks: resolved once from the spec and the request. */
export interface WalkShape<R extends { id: string }> {
  pattern: OrderPattern<R>;
  facet: boolean;
  facetValues: ReadonlyArray<string | undefined>;
  segments: ReadonlyArray<string | undefined>;
  /** Walked in another order than the first sort key: everything walked is ordered in memory. */
  inMemory: boolean;
  descending: boolean;
  /** Segment partitions one after another (an order of the segment values). */
  bySegment: boolean;
  /** Whether every entry is a group of its own, so a page can start after any entry. */
  resumable: boolean;
}

export function shapeOf<R extends { id: string }>(spec: ListSpec<R>, request: ListRequest): WalkShape<R> {
  const first = request.order[0];
  const facet = request.facet ? spec.facets?.[request.facet.name] : undefined;
  if (request.facet && !facet) throw new Error(`${spec.name} has no facet ${request.facet.name}`);
  const walked = facet?.order ?? request.walk ?? first?.field;
  const pattern = walked ? spec.orders[walked] : undefined;
  if (!first || !spec.orders[first.field] || !pattern)
    throw new Error(`${spec.name} is not listed by ${first?.field}`);
  const inMemory = walked !== first.field;
  const descending = first.direction === 'desc';
  const facetValues = request.facet
    ? typeof request.facet.value === 'string'
      ? [request.facet.value]
      : request.facet.value
    : [undefined];
  const segments = spec.segment ? (request.segments ?? spec.segment.values) : [undefined];
  const bySegment = pattern.segmentOrder !== undefined && !facet && spec.segment !== undefined;
  const indexName = facet?.index ?? pattern.index;
  const numeric = tableDefinition.indexes.find((index) => index.name === indexName)?.sortKeyType === 'N';
  const resumable =
    !inMemory &&
    !numeric &&
    request.order.length === 1 &&
    pattern.maintainedBy === undefined &&
    request.itemKeyOf === undefined;
  return {
    pattern,
    facet: facet !== undefined,
    facetValues,
    segments,
    inMemory,
    descending,
    bySegment,
    resumable,
  };
}

export interface WalkOptions {
  /** Matches to skip, counted from the list's start. */
  skip: number;
  size: number;
  where?: (entry: Entry['record']) => boolean;
  /** Go on to count every match. */
  counting: boolean;
  /** Start after this boundary instead of the list's start. */
  from?: Boundary;
  /** Asked after each entry while the page is not full: true gives the walk up. */
  giveUp?: (walked: number, matched: number) => boolean;
  /**
   * The matches of the whole query, when known exactly (a counter, a kept count). A resumable
   * walk (every entry its own group) then stops at its page's last match or at the last match of
   * all, instead of looking for one more, and `hasMore` comes from it.
   */
  total?: number;
  /** Segments whose partitions hold no match (their counters of the filter say 0): not walked. */
  emptySegments?: ReadonlySet<string | undefined>;
  /** Index entries the walk may read at most (the request's read bound, list-read.ts): then it stops. */
  budget?: number;
}

export interface WalkResult {
  page: Entry[];
  /** Matches from the list's start to where the walk stopped. */
  matches: number;
  hasMore: boolean;
  /**
   * Page boundaries passed (resumable walks only): the page's start and end, and every tenth; the
   * page's start at its first match (inclusive) when entries that do not match come before it.
   */
  boundaries: Boundary[];
  gaveUp: boolean;
  walked: number;
  /** Stopped at the read bound (`budget`): `matches` counts only the matches up to there. */
  truncated?: boolean;
}

function streamsOf<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
  shape: WalkShape<R>,
  sizeOf: (stream: number) => number,
  from: Boundary | undefined,
  emptySegments: ReadonlySet<string | undefined> = new Set(),
) {
  const { pattern, descending } = shape;
  const bounds = request.keyBounds ?? {
    ...(request.range?.from ? { atLeast: request.range.from } : {}),
    ...(request.range?.to ? { atMost: `${request.range.to}\u0001\u{10FFFF}` } : {}),
  };
  const rank = (segment: string | undefined) => spec.segment?.values.indexOf(segment ?? '') ?? 0;
  const walkedSegments = shape.bySegment
    ? [...shape.segments].sort((a, b) => (descending ? rank(b) - rank(a) : rank(a) - rank(b)))
    : shape.segments;
  // Resuming: merged streams all continue after the boundary's key; streams read one after
  // another continue the boundary's own and skip those before it.
  const after = from ? { after: from.key, ...(from.inclusive ? { inclusive: true } : {}) } : {};
  const resume = (stream: number) =>
    from === undefined ? {} : shape.bySegment ? (stream === from.stream ? after : {}) : after;
  if (pattern.index === 'base' && !shape.facet) {
    if (!spec.basePartition) throw new Error(`${spec.name} has no base partition`);
    return [
      entriesOf({
        partition: spec.basePartition(request.scope),
        partitionKeyName: tableDefinition.partitionKey,
        sortKeyName: tableDefinition.sortKey,
        descending,
        pageSize: () => sizeOf(0),
        bounds,
        stream: 0,
        ...resume(0),
      }),
    ];
  }
  const facet = request.facet ? spec.facets?.[request.facet.name] : undefined;
  const indexName = facet?.index ?? pattern.index;
  const index = tableDefinition.indexes.find((candidate) => candidate.name === indexName);
  if (!index) throw new Error(`no index ${indexName}`);
  const partitions = shape.facetValues.flatMap((value) =>
    walkedSegments.map((segment) => ({
      segment,
      partition: listKeys.indexPartition(
        request.scope,
        spec.name,
        request.facet && value !== undefined ? facetSegment(request.facet.name, value, segment) : segment,
      ),
    })),
  );
  // A stream keeps its number (its position among the partitions) when others are left out.
  return partitions.flatMap(({ segment, partition }, stream) =>
    (shape.bySegment && from !== undefined && stream < from.stream) || emptySegments.has(segment)
      ? []
      : [
          entriesOf({
            index: index.name,
            partition,
            partitionKeyName: index.partitionKey,
            sortKeyName: index.sortKey,
            descending,
            pageSize: () => sizeOf(stream),
            bounds,
            stream,
            ...resume(stream),
          }),
        ],
  );
}

/** What makes a group of entries whose order the walk leaves to memory (ties of the first key). */
function groupsOf<R extends { id: string }>(spec: ListSpec<R>, request: ListRequest, shape: WalkShape<R>) {
  if (shape.inMemory) return () => '';
  if (shape.pattern.index === 'base' && !shape.facet) return (entry: Entry) => String(entry.sortKey);
  const facet = request.facet ? spec.facets?.[request.facet.name] : undefined;
  const indexName = facet?.index ?? shape.pattern.index;
  const numeric = tableDefinition.indexes.find((index) => index.name === indexName)?.sortKeyType === 'N';
  const secondary = request.order.length > 1;
  const leading = shape.pattern.leading;
  // Numeric keys carry no id: equal counts always form a group, ordered by id in memory (a key
  // of parts: its leading part, when further sort keys order the ties).
  if (numeric)
    return secondary && leading
      ? (entry: Entry) => leading(Number(entry.sortKey))
      : (entry: Entry) => entry.sortKey;
  if (!secondary) return (entry: Entry) => String(entry.sortKey);
  return shape.bySegment
    ? (entry: Entry) => spec.segment?.of(entry.record as unknown as R) ?? ''
    : (entry: Entry) => leadingPart(String(entry.sortKey));
}

export async function walk<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
  shape: WalkShape<R>,
  options: WalkOptions,
): Promise<WalkResult> {
  const { skip, size, where, counting, from } = options;
  const start = from?.matches ?? 0;
  // Entries still needed: the page and what comes before it, plus one to see where a group ends.
  let needed = skip - start + size + 1;
  // Each stream reads its share of the entries still needed (list-walk.ts readSizes): the
  // matches still needed ÷ the selectivity the walk observed so far.
  const entriesNeeded = () => {
    const found = matches - start + group.length;
    const remaining = Math.max(1, needed - group.length);
    if (!where || walked === 0) return remaining;
    return found === 0 ? undefined : Math.ceil((remaining * walked) / found);
  };
  const streams = streamsOf(
    spec,
    request,
    shape,
    (stream) => reads.sizeOf(stream),
    from,
    options.emptySegments,
  );
  const reads = readSizes({
    streams: streams.length,
    merged: !shape.bySegment,
    entriesNeeded,
    exact: !where && streams.length === 1,
    whole: counting || shape.inMemory,
  });
  const groupOf = groupsOf(spec, request, shape);
  const compare = comparatorOf(spec, request.order);
  const page: Entry[] = [];
  const boundaries: Boundary[] = [];
  const noted = (m: number) => m === skip || m === skip + size || m % (10 * size) === 0;
  let matches = start;
  let walked = 0;
  /** Entries walked up to the last match. */
  let lastMatch = 0;
  let stoppedEarly = false;
  let gaveUp = false;
  let group: Entry[] = [];
  let groupKey: string | number | undefined;
  const closeGroup = () => {
    if (group.length > 1) group.sort((a, b) => compare(a.record, b.record));
    for (const entry of group) {
      if (matches >= skip && page.length < size) page.push(entry);
      matches++;
      if (shape.resumable && size > 0 && matches % size === 0 && noted(matches))
        boundaries.push({ matches, stream: entry.stream, key: String(entry.sortKey) });
    }
    needed = Math.max(1, skip + size + 1 - matches);
    group = [];
  };
  const entries = shape.bySegment ? concatenated(streams) : merged(streams, shape.descending);
  // With the total known, a resumable walk needs no match after its page's last.
  const last =
    options.total !== undefined && shape.resumable && !counting
      ? Math.min(options.total, skip + size)
      : undefined;
  // Nothing to read (an empty page, `first: 0`, or one past the end): whether matches follow
  // the page is the total's to say, as at the end of a walk.
  if (last !== undefined && last <= start) {
    const hasMore = (options.total ?? 0) > skip + size;
    return { page, matches: start, hasMore, boundaries, gaveUp, walked };
  }
  let truncated = false;
  // A walk is no snapshot: a record whose entry moves ahead of it between two of its Queries (a
  // rename, a status change into a partition not read yet) is met again. Met once, it counts once.
  const met = new Set<unknown>();
  for await (const entry of entries) {
    if (options.budget !== undefined && walked >= options.budget) {
      truncated = true;
      break;
    }
    walked++;
    reads.consumed(entry.stream);
    const id = entry.record.id ?? entry.raw.sk;
    if (met.has(id)) continue;
    met.add(id);
    if (options.giveUp && page.length < size && options.giveUp(walked, matches - start + group.length)) {
      gaveUp = true;
      break;
    }
    if (where && !where(entry.record)) continue;
    const key = groupOf(entry);
    if (group.length > 0 && key !== groupKey) {
      closeGroup();
      if (!counting && matches >= skip + size) {
        // This entry is a match after the page.
        stoppedEarly = true;
        break;
      }
    }
    groupKey = key;
    // The page's first match after entries that do not match: its start is kept at the match
    // itself (inclusive), so a later walk of the page skips them.
    if (shape.resumable && size > 0 && matches === skip && walked - lastMatch > 1) {
      const at = boundaries.findIndex((boundary) => boundary.matches === skip);
      if (at >= 0) boundaries.splice(at, 1);
      boundaries.push({ matches: skip, stream: entry.stream, key: String(entry.sortKey), inclusive: true });
    }
    lastMatch = walked;
    group.push(entry);
    if (last !== undefined && matches + group.length >= last) break;
  }
  // A group cut by the read bound may miss members: only closed when the walk ended on its own.
  if (group.length > 0 && !gaveUp && !(truncated && !shape.resumable)) closeGroup();
  const hasMore =
    options.total !== undefined && !counting
      ? options.total > skip + size
      : stoppedEarly || matches > skip + size;
  return { page, matches, hasMore, boundaries, gaveUp, walked, ...(truncated ? { truncated } : {}) };
}
