/**
 * One way to declare how a collection is listed, and what its writes must therefore maintain.
 * A `ListSpec` names, per entity:
 *
 * - its orders: each sort key of the API and the access pattern that serves it, an index of
 *   table-definition.ts whose partition key names the list and whose sort key is built from
 *   the record (sort-key.ts), or `base` for the table's own sort key (the id);
 * - an optional segment: an equality filter whose values split the index partitions (users by
 *   status), so that filter costs nothing;
 * - its counters: `all`, one per segment value, and more per record (users: per role), so
 *   `page.total_elements` is a counter read, never a count of the collection;
 * - optionally, search tokens: one item per word, whose prefixes are key ranges;
 * - optionally, facets: equality filters on open values (a tour's driver), each an index whose
 *   partition holds one value's records, counted per value.
 *
 * `listWrites` derives, for a record going from `before` to `after`, the record's index
 * attributes and the counter and token writes that must join its transaction. Every writer of
 * a listed entity goes through it (the resource store, provisioning, the admin plane), so there
 * is no second write path. A record read from an item without the current attributes
 * (isIndexed false: written before this existed) counted nothing, so its first write adds it
 * to the counters; backfill.ts does the same for records nobody writes.
 */
import { type ListScope, listKeys, listVersion } from './keys.ts';
import { revisionCounter } from './list-cache.ts';
import { isIndexed, type StoredRecord, type TableWrite } from './table.ts';
import { type IndexName, listedAttributes, tableDefinition } from './table-definition.ts';

export interface OrderPattern<R> {
  /** The access pattern's name, as ElectroDB names them (`byLastName`). */
  pattern: string;
  index: IndexName | 'base';
  /** The sort key's parts, most significant first; a number for a numeric index. */
  key: (record: R) => string[] | number;
  /**
   * `counter`: the index entries are not the records' items but their counter items, which
   * keep the index key themselves (tags by usage_count: tag-usage.store.ts).
   */
  maintainedBy?: 'counter';
  /**
   * A numeric key made of parts (a rank × 10^13 plus a creation time): the leading part, which
   * ties broken by further sort keys share. Without it a numeric key is one value (a count).
   */
  leading?: (key: number) => number;
  /**
   * The order of the segment values themselves (cases by status, in the order of
   * `segment.values`). It has no index entries of its own: its walk reads the segment
   * partitions one after another, each through `index`, the index of the order named `within`,
   * whose order breaks its ties. `key` ranks the segment value, for ties ordered in memory.
   */
  segmentOrder?: { within: string };
}

export interface ListSpec<R extends { id: string }> {
  /** Names the list's index partitions and counters (`USER`, `AREA`, …). */
  name: string;
  /** Whether a record is listed at all (users: service accounts are not). */
  listed: (record: R) => boolean;
  segment?: { values: readonly string[]; of: (record: R) => string };
  /** By API sort field. */
  orders: Record<string, OrderPattern<R>>;
  /** Counters a listed record counts in besides `all` and its segment (`role=admin`). */
  counters?: (record: R) => string[];
  /** Search tokens of a record, folded (sort-key.ts `foldedWord`). */
  tokens?: (record: R) => string[];
  /**
   * Whether `tokens` of an index entry (its projection and `list_values`) are the record's own:
   * then a search may walk an order and test its words on the entries (list-plan.ts).
   */
  tokensOnEntries?: boolean;
  /** The table partition of the records, for `base` orders and search (its sort key is the id). */
  basePartition?: (scope: ListScope) => string;
  /**
   * Equality filters on open values (a tour's driver), each served by an index of its own whose
   * partitions are the list, the segment and the value (`L#TOUR#PLANNED#driver_id=<uuid>`),
   * sorted like the order named by `order`. A record without a value is in no partition of the
   * facet. Every facet value is counted (`<segment>#<facet>=<value>`), so a page filtered by
   * one facet costs its page and takes its total from counters.
   */
  facets?: Record<string, Facet<R>>;
  /**
   * What `where` filters and further sort keys read from an index entry besides the shared
   * projection (table-definition.ts `listedAttributes`): the record's own values, carried as
   * one map attribute, `list_values`, and read back into the entry (list-read.ts). DynamoDB
   * projects at most 100 attribute names over all indexes, so collections add theirs here.
   */
  listedValues?: (record: R) => Record<string, string | number | undefined>;
}

export interface Facet<R> {
  /** An index no order of the list uses. */
  index: IndexName;
  /** The order (a key of `orders`) whose sort key the facet's entries carry. */
  order: string;
  of: (record: R) => string | undefined;
}

/** The index partition suffix of a facet value, within a segment (list-read.ts walks it). */
export function facetSegment(facet: string, value: string, segment: string | undefined): string {
  return segment === undefined ? `${facet}=${value}` : `${segment}#${facet}=${value}`;
}

/** The counter of a facet value (within a segment, which counterNames prefixes). */
export const facetCounter = (facet: string, value: string) => `${facet}=${value}`;

const indexByName = new Map(tableDefinition.indexes.map((index) => [index.name, index]));

/** The record as stored: its fields plus the index attributes of every order it is listed in. */
export function indexedItem<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  record: R,
): StoredRecord {
  // Marked current whether listed or not: a record that is not listed is up to date too.
  const item: StoredRecord = { ...record, list_v: listVersion };
  if (!spec.listed(record)) return item;
  const values = Object.entries(spec.listedValues?.(record) ?? {}).filter(([, value]) => value !== undefined);
  if (values.length > 0) item.list_values = Object.fromEntries(values);
  const partition = listKeys.indexPartition(scope, spec.name, spec.segment?.of(record));
  for (const order of Object.values(spec.orders)) {
    if (order.index === 'base' || order.maintainedBy === 'counter' || order.segmentOrder) continue;
    const index = indexByName.get(order.index);
    if (!index) throw new Error(`no index ${order.index}`);
    const key = order.key(record);
    item[index.partitionKey] = partition;
    item[index.sortKey] = Array.isArray(key) ? [...key, record.id].join('\u0001') : key;
  }
  for (const [name, facet] of Object.entries(spec.facets ?? {})) {
    const value = facet.of(record);
    const index = indexByName.get(facet.index);
    const order = spec.orders[facet.order];
    if (!index || !order) throw new Error(`facet ${name} of ${spec.name}: no index ${facet.index} or order`);
    if (value === undefined) continue;
    const key = order.key(record);
    item[index.partitionKey] = listKeys.indexPartition(
      scope,
      spec.name,
      facetSegment(name, value, spec.segment?.of(record)),
    );
    item[index.sortKey] = Array.isArray(key) ? [...key, record.id].join('\u0001') : key;
  }
  return item;
}

/** The counter names a record counts in (empty when not listed). */
export function counterNames<R extends { id: string }>(spec: ListSpec<R>, record: R | undefined): string[] {
  if (!record || !spec.listed(record)) return [];
  const segment = spec.segment?.of(record);
  const facets = Object.entries(spec.facets ?? {}).flatMap(([name, facet]) => {
    const value = facet.of(record);
    return value === undefined ? [] : [facetCounter(name, value)];
  });
  const extra = [...(spec.counters?.(record) ?? []), ...facets];
  return [
    'all',
    ...(segment === undefined ? [] : [segment]),
    ...extra.map((name) => (segment === undefined ? name : `${segment}#${name}`)),
  ];
}

/** What a search token item holds: the record's listed attributes, for filters and order. */
function projection(record: object): StoredRecord {
  const source = record as Record<string, unknown>;
  const kept: StoredRecord = {};
  for (const name of listedAttributes) if (source[name] !== undefined) kept[name] = source[name];
  return kept;
}

/** What a record's index entries hold (keys, projection, listed values), as text to compare. */
function listingOf<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  record: R | undefined,
): string {
  if (!record || !spec.listed(record)) return '';
  const item = indexedItem(spec, scope, record);
  const keys = tableDefinition.indexes.flatMap((index) => [item[index.partitionKey], item[index.sortKey]]);
  return JSON.stringify([keys, item.list_values, projection(item), spec.tokens?.(record)]);
}

/**
 * Counter and token writes for a record going from `before` (absent on create) to `after`
 * (absent on delete). `before` counts only if it was stored with the current index attributes.
 */
export function listWrites<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  before: R | undefined,
  after: R | undefined,
): TableWrite[] {
  const counted = before && isIndexed(before) ? before : undefined;
  const writes: TableWrite[] = [];
  const deltas = new Map<string, number>();
  for (const name of counterNames(spec, counted)) deltas.set(name, (deltas.get(name) ?? 0) - 1);
  for (const name of counterNames(spec, after)) deltas.set(name, (deltas.get(name) ?? 0) + 1);
  // A write that changes what the list's entries hold moves the list's revision: what a list
  // kept between requests of the revision before is never read again (list-cache.ts).
  if (listingOf(spec, scope, counted) !== listingOf(spec, scope, after)) deltas.set(revisionCounter, 1);
  for (const [name, by] of deltas) {
    if (by !== 0) {
      writes.push({
        kind: 'add',
        key: listKeys.counter(scope, spec.name, name),
        entity: 'counter',
        attribute: 'count',
        by,
        // Counters and the revision are every record's: off its transaction (tally.ts).
        tally: true,
      });
    }
  }

  if (spec.tokens) {
    const tokensOf = (record: R | undefined) =>
      new Set(record && spec.listed(record) ? spec.tokens?.(record) : []);
    const old = tokensOf(counted);
    const next = tokensOf(after);
    const unchanged =
      counted !== undefined &&
      after !== undefined &&
      old.size === next.size &&
      [...next].every((token) => old.has(token)) &&
      JSON.stringify(projection(counted)) === JSON.stringify(projection(after));
    if (unchanged) return writes;
    for (const token of old) {
      if (!next.has(token) && counted) {
        writes.push({ kind: 'discard', key: listKeys.searchToken(scope, spec.name, token, counted.id) });
      }
    }
    for (const token of next) {
      if (!after) continue;
      writes.push({
        kind: 'put',
        key: listKeys.searchToken(scope, spec.name, token, after.id),
        entity: 'search-token',
        // Every token of the record rides along, so a search checks its further words on the
        // entry alone, whatever fields the tokens come from (list-read.ts `searchMatches`).
        record: { ...projection(after), token, tokens: [...next] },
      });
    }
  }
  return writes;
}
