/**
 * Filters on custom-object instances, as GraphQL `where` arguments arrive at the data layer: a
 * tree of conditions on fields (`id`, `created_at`, `updated_at` or a property, nested ones by
 * their dotted path) and of links (the instance is associated with one of a set of ids). One
 * matcher evaluates it on records, whatever the list walked; instance-query.ts decides which
 * part an index serves.
 *
 * Semantics (published with the GraphQL route): comparisons never match an absent or null value
 * (as in SQL), except `_is_null: true`; on an array property a condition matches when any element
 * does; `_ilike` is SQL LIKE without case (`%` any run, `_` one character); strings compare by
 * code units, so ISO dates and times compare as time.
 */

import { linkedIds } from './instance.store.ts';
import { valueAt } from './instance-list.ts';

export const comparisonOperators = [
  '_eq',
  '_neq',
  '_gt',
  '_gte',
  '_lt',
  '_lte',
  '_in',
  '_is_null',
  '_ilike',
] as const;
export type ComparisonOperator = (typeof comparisonOperators)[number];

export type InstanceFilter =
  | { and: InstanceFilter[] }
  | { or: InstanceFilter[] }
  | { not: InstanceFilter }
  | { field: string; op: ComparisonOperator; value: unknown }
  /** Linked through one relation side (instance.store.ts `linkAttribute`) to one of `ids`. */
  | { link: { relationId: string; side: 'a' | 'b' }; ids: ReadonlySet<string> };

export const systemFilterFields = ['id', 'created_at', 'updated_at'] as const;

/** The value a filter reads from a record: system fields at the top, properties in `data`. */
export function fieldValue(record: Record<string, unknown>, field: string): unknown {
  if ((systemFilterFields as readonly string[]).includes(field)) return record[field];
  return valueAt(record.data as Record<string, unknown> | undefined, field);
}

function compare(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return undefined;
}

const likeCache = new Map<string, RegExp>();

/** SQL LIKE, case-insensitive: `%` any run, `_` one character, everything else literal. */
export function likePattern(pattern: string): RegExp {
  let regex = likeCache.get(pattern);
  if (!regex) {
    const source = [...pattern]
      .map((character) =>
        character === '%' ? '.*' : character === '_' ? '.' : character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    regex = new RegExp(`^${source}$`, 'isu');
    if (likeCache.size > 1000) likeCache.clear();
    likeCache.set(pattern, regex);
  }
  return regex;
}

function scalarMatches(value: unknown, op: ComparisonOperator, operand: unknown): boolean {
  if (value === undefined || value === null) return false;
  switch (op) {
    case '_eq':
      return compare(value, operand) === 0;
    case '_neq': {
      const c = compare(value, operand);
      return c === undefined || c !== 0;
    }
    case '_gt':
      return (compare(value, operand) ?? 0) > 0;
    case '_gte': {
      const c = compare(value, operand);
      return c !== undefined && c >= 0;
    }
    case '_lt':
      return (compare(value, operand) ?? 0) < 0;
    case '_lte': {
      const c = compare(value, operand);
      return c !== undefined && c <= 0;
    }
    case '_in':
      return Array.isArray(operand) && operand.some((candidate) => compare(value, candidate) === 0);
    case '_ilike':
      return typeof value === 'string' && typeof operand === 'string' && likePattern(operand).test(value);
    default:
      return false;
  }
}

function conditionMatches(value: unknown, op: ComparisonOperator, operand: unknown): boolean {
  if (op === '_is_null') return (value === undefined || value === null) === (operand !== false);
  if (Array.isArray(value)) {
    // `_neq` on a list: no element equals the operand.
    if (op === '_neq') return value.every((element) => scalarMatches(element, '_neq', operand));
    return value.some((element) => scalarMatches(element, op, operand));
  }
  return scalarMatches(value, op, operand);
}

/** Whether a record (an item or an index entry carrying `data`) meets the filter. */
export function matchesFilter(record: Record<string, unknown>, filter: InstanceFilter): boolean {
  if ('and' in filter) return filter.and.every((part) => matchesFilter(record, part));
  if ('or' in filter) return filter.or.some((part) => matchesFilter(record, part));
  if ('not' in filter) return !matchesFilter(record, filter.not);
  if ('link' in filter) {
    return linkedIds(record, filter.link.relationId, filter.link.side).some((id) => filter.ids.has(id));
  }
  return conditionMatches(fieldValue(record, filter.field), filter.op, filter.value);
}

/** Whether the filter needs the instances' links (which only the items carry, not index entries). */
export function needsLinks(filter: InstanceFilter | undefined): boolean {
  if (!filter) return false;
  if ('and' in filter) return filter.and.some(needsLinks);
  if ('or' in filter) return filter.or.some(needsLinks);
  if ('not' in filter) return needsLinks(filter.not);
  return 'link' in filter;
}

/** The conjuncts at the top of a filter (`and` flattened). */
export function conjuncts(filter: InstanceFilter | undefined): InstanceFilter[] {
  if (!filter) return [];
  return 'and' in filter ? filter.and.flatMap(conjuncts) : [filter];
}
