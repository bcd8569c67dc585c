/**
 * One page of a definition's instances for a filter and an order: the plan that decides what the
 * list indexes serve (instance-list.ts) and what is checked on the entries walked. REST lists and
 * GraphQL connections both come here. The costs, published in the data README ("CO_INST"):
 *
 * - no filter, order by id (the default), created_at, updated_at or an indexed property: the page
 *   (its entries and, off the default order, one BatchGetItem per 100 rows); total from counters;
 * - `_eq` on an indexed property: a key range of that property's index, total from the value's
 *   counter; `_in`: the same walk with the values' counters summed for the total;
 * - `_gt`/`_gte`/`_lt`/`_lte` on an indexed property: a key range of its index, in order when
 *   the order is that property (the page), else ordered in memory (the range); a total counts the
 *   range;
 * - any other filter is checked on the entries of the walk, which reads until the page is full;
 *   a total then reads the whole walk;
 * - an order by a property that is not indexed reads the collection and sorts it in memory;
 * - a filter on related records (links) walks the items, which alone carry links.
 */

import type { ListOrder } from '../../data/list-read.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { type InstanceItem, instanceStore } from './instance.store.ts';
import { conjuncts, type InstanceFilter, matchesFilter, needsLinks } from './instance-filter.ts';
import { absentKey, instanceList, maxTextKey, sortableValue, valueCounter } from './instance-list.ts';

/** One key of an order of instances: `id`, `created_at`, `updated_at` or a property's path. */
export type InstanceOrder = ListOrder;

export interface InstanceQuery {
  filter?: InstanceFilter;
  /** Default: id ascending (creation order). */
  order?: readonly InstanceOrder[];
  offset: number;
  limit: number;
  /** false: no total is computed (the walk stops at the page); `total` is then undefined. */
  withTotal: boolean;
}

export interface InstancePage {
  /** Items with their links. */
  items: InstanceItem[];
  total?: number;
  /** Whether a match follows the page. */
  hasMore: boolean;
}

type Condition = Extract<InstanceFilter, { field: string }>;

const separator = '\u0001';

/** Key bounds of the walked index for a comparison on an indexed property (undefined: none serves). */
function boundsOf(condition: Condition, type: unknown): { atLeast?: string; atMost?: string } | undefined {
  const key = sortableValue(condition.value, type);
  if (key === absentKey) return undefined;
  // A text cut for the key would make the bounds inexact: checked on the entries instead.
  if (typeof condition.value === 'string' && condition.value.length >= maxTextKey) return undefined;
  switch (condition.op) {
    case '_eq':
      return { atLeast: `${key}${separator}`, atMost: `${key}${separator}${absentKey}` };
    case '_gt':
      return { atLeast: `${key}${separator}${absentKey}`, atMost: absentKey };
    case '_gte':
      return { atLeast: key, atMost: absentKey };
    case '_lt':
      return { atMost: key };
    case '_lte':
      return { atMost: `${key}${separator}${absentKey}` };
    default:
      return undefined;
  }
}

const rangeOps = new Set(['_eq', '_gt', '_gte', '_lt', '_lte']);

export async function queryInstances(
  scope: StoreScope,
  definition: CustomObjectDefinition,
  query: InstanceQuery,
): Promise<InstancePage> {
  const spec = instanceList(definition);
  const order = query.order?.length ? query.order : [{ field: 'id', direction: 'asc' as const }];
  const first = order[0] as ListOrder;
  if (!spec.orders[first.field]) throw new Error(`instances are not ordered by ${first.field}`);
  const indexed = new Set(definition.indexed_properties ?? []);
  const typeOf = (name: string) => (definition.properties[name] as { type?: unknown } | undefined)?.type;
  const parts = conjuncts(query.filter);
  const where = query.filter
    ? (entry: InstanceItem) => matchesFilter(entry, query.filter as InstanceFilter)
    : undefined;

  // A condition an index serves: on an indexed property, preferably the one the order walks.
  const served = needsLinks(query.filter)
    ? undefined
    : parts
        .filter(
          (part): part is Condition => 'field' in part && indexed.has(part.field) && rangeOps.has(part.op),
        )
        .map((condition) => ({ condition, bounds: boundsOf(condition, typeOf(condition.field)) }))
        .filter((candidate) => candidate.bounds !== undefined)
        .sort(
          (x, y) =>
            Number(y.condition.field === first.field) - Number(x.condition.field === first.field) ||
            Number(y.condition.op === '_eq') - Number(x.condition.op === '_eq'),
        )[0];

  // The one condition of the filter, when a counter counts it exactly.
  const only = parts.length === 1 ? parts[0] : undefined;
  const countedBy =
    only && 'field' in only && indexed.has(only.field) && (only.op === '_eq' || only.op === '_in')
      ? (only.op === '_eq' ? [only.value] : Array.isArray(only.value) ? only.value : [])
          .filter((value) => !(typeof value === 'string' && value.length >= maxTextKey))
          .map((value) => valueCounter(only.field, sortableValue(value, typeOf(only.field))))
      : undefined;
  const exactCount =
    countedBy !== undefined &&
    only !== undefined &&
    'field' in only &&
    (only.op === '_eq'
      ? countedBy.length === 1
      : Array.isArray(only.value) && countedBy.length === new Set(only.value.map(String)).size);

  // The walk: the served condition's index, else the order's own (the base partition for a
  // property that has none, or when links are needed).
  const walk = served
    ? served.condition.field
    : needsLinks(query.filter) || spec.orders[first.field]?.index === 'base'
      ? 'id'
      : first.field;
  const { items, total, hasMore } = await instanceStore.of(scope).page(definition, {
    order,
    page: 0,
    size: query.limit,
    offset: query.offset,
    ...(walk !== first.field ? { walk } : {}),
    ...(served?.bounds ? { keyBounds: served.bounds } : {}),
    ...(where ? { where } : {}),
    ...(exactCount && countedBy ? { countedBy } : {}),
    ...(query.withTotal ? {} : { skipTotal: true }),
  });
  return { items, hasMore, ...(query.withTotal ? { total } : {}) };
}
