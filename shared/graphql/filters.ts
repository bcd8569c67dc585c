/**
 * GraphQL `where` and `order_by` arguments as the data layer's filter tree and order
 * (instance-filter.ts, instance-query.ts). The arguments arrive coerced by GraphQL, so every
 * field and operator is one the schema declares; what the schema cannot say is decided here:
 *
 * - the fields of one filter object are all required (AND); `_and: []` matches everything,
 *   `_or: []` nothing, `_not` negates; a field or operator given as null sets no condition;
 * - a comparison never matches an absent value, except `_is_null: true`; on a list property a
 *   comparison matches when any element does; `_ilike` is SQL ILIKE (`%` any run, `_` one
 *   character); text compares by code units;
 * - created_at / updated_at operands are normalized to the stored form (UTC, milliseconds), so
 *   `2026-05-01T10:00:00+02:00` compares as the instant it names;
 * - a condition on a relation field matches the records linked to at least one record of the
 *   related type meeting the nested filter; those are looked up first (`relatedIds`);
 * - `order_by` elements apply in list order; fields within one element in the input type's field
 *   order (give one field per element to be explicit); ties fall back to the id.
 */
import type { ComparisonOperator, InstanceFilter } from '../domain/custom-objects/instance-filter.ts';
import type { InstanceOrder } from '../domain/custom-objects/instance-query.ts';
import { badInput } from './paging.ts';
import {
  comparisonTypes,
  type InputFieldShape,
  logicalOperators,
  type ScalarName,
  type SchemaShape,
} from './schema-model.ts';

export type FilterField =
  | { kind: 'compare'; path: string; scalar: ScalarName | 'enum' }
  | { kind: 'nested'; input: string }
  | { kind: 'relation'; source: string; field: string; target: string };

export type OrderField = { kind: 'direction'; path: string } | { kind: 'nested'; input: string };

/** How each filter and order input of a schema maps to the data: built once per schema. */
export interface InputTables {
  filters: ReadonlyMap<string, ReadonlyMap<string, FilterField>>;
  orders: ReadonlyMap<string, ReadonlyMap<string, OrderField>>;
}

const systemFilters: Array<[string, FilterField]> = [
  ['id', { kind: 'compare', path: 'id', scalar: 'ID' }],
  ['created_at', { kind: 'compare', path: 'created_at', scalar: 'DateTime' }],
  ['updated_at', { kind: 'compare', path: 'updated_at', scalar: 'DateTime' }],
];
const systemOrders: Array<[string, OrderField]> = ['id', 'created_at', 'updated_at'].map((field) => [
  field,
  { kind: 'direction', path: field },
]);

function filterFieldOf(field: InputFieldShape): FilterField {
  return field.nested
    ? { kind: 'nested', input: field.type }
    : { kind: 'compare', path: field.path, scalar: field.scalar ?? 'String' };
}

export function inputTablesOf(shape: SchemaShape): InputTables {
  const filters = new Map<string, Map<string, FilterField>>();
  const orders = new Map<string, Map<string, OrderField>>();
  const orderFieldOf = (field: InputFieldShape): OrderField =>
    field.nested ? { kind: 'nested', input: field.type } : { kind: 'direction', path: field.path };
  for (const type of shape.types) {
    const filter = new Map<string, FilterField>(systemFilters);
    for (const field of type.filter) filter.set(field.field, filterFieldOf(field));
    for (const relation of type.relations) {
      if ((logicalOperators as readonly string[]).includes(relation.field) || filter.has(relation.field))
        continue;
      filter.set(relation.field, {
        kind: 'relation',
        source: type.name,
        field: relation.field,
        target: relation.target,
      });
    }
    filters.set(`${type.name}Filter`, filter);
    orders.set(
      `${type.name}OrderBy`,
      new Map([...systemOrders, ...type.order.map((f) => [f.field, orderFieldOf(f)] as const)]),
    );
    for (const input of type.inputs) {
      if (input.name.endsWith('Filter'))
        filters.set(input.name, new Map(input.fields.map((f) => [f.field, filterFieldOf(f)])));
      else orders.set(input.name, new Map(input.fields.map((f) => [f.field, orderFieldOf(f)])));
    }
  }
  return { filters, orders };
}

/** The ids of the related records meeting a nested filter, as a link condition. */
export type RelatedIds = (
  relation: { source: string; field: string; target: string },
  where: Record<string, unknown>,
) => Promise<InstanceFilter>;

const systemTimes = new Set(['created_at', 'updated_at']);

function normalizedOperand(path: string, value: unknown): unknown {
  if (!systemTimes.has(path)) return value;
  const normalize = (one: unknown) => {
    const time = typeof one === 'string' ? Date.parse(one) : Number.NaN;
    return Number.isNaN(time) ? one : new Date(time).toISOString();
  };
  return Array.isArray(value) ? value.map(normalize) : normalize(value);
}

function comparisons(path: string, operators: Record<string, unknown>): InstanceFilter[] {
  const parts: InstanceFilter[] = [];
  for (const [op, value] of Object.entries(operators)) {
    if (value === null || value === undefined) continue;
    parts.push({ field: path, op: op as ComparisonOperator, value: normalizedOperand(path, value) });
  }
  return parts;
}

const joined = (parts: InstanceFilter[]): InstanceFilter | undefined =>
  parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { and: parts };

/** The filter of a `where` argument of `<type>Filter` (or a nested-object filter); undefined: everything. */
export async function filterOf(
  tables: InputTables,
  input: string,
  where: Record<string, unknown> | null | undefined,
  relatedIds: RelatedIds,
): Promise<InstanceFilter | undefined> {
  if (!where) return undefined;
  const fields = tables.filters.get(input);
  if (!fields) throw new Error(`no filter input ${input}`);
  const parts: InstanceFilter[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === null || value === undefined) continue;
    if (key === '_and' || key === '_or') {
      const list = (value as Array<Record<string, unknown>>).map((one) =>
        filterOf(tables, input, one, relatedIds),
      );
      const resolved = (await Promise.all(list)).map((one) => one ?? { and: [] });
      parts.push(key === '_and' ? { and: resolved } : { or: resolved });
      continue;
    }
    if (key === '_not') {
      const inner = await filterOf(tables, input, value as Record<string, unknown>, relatedIds);
      parts.push({ not: inner ?? { and: [] } });
      continue;
    }
    const field = fields.get(key);
    if (!field) throw badInput(`${input} has no field ${key}.`);
    if (field.kind === 'compare') parts.push(...comparisons(field.path, value as Record<string, unknown>));
    else if (field.kind === 'nested') {
      const nested = await filterOf(tables, field.input, value as Record<string, unknown>, relatedIds);
      if (nested) parts.push(nested);
    } else parts.push(await relatedIds(field, value as Record<string, unknown>));
  }
  return joined(parts);
}

function ordersOf(tables: InputTables, input: string, element: Record<string, unknown>): InstanceOrder[] {
  const fields = tables.orders.get(input);
  if (!fields) throw new Error(`no order input ${input}`);
  const order: InstanceOrder[] = [];
  // In the input type's field order (GraphQL coerces input objects in that order).
  for (const [key, field] of fields) {
    const value = element[key];
    if (value === null || value === undefined) continue;
    if (field.kind === 'direction')
      order.push({ field: field.path, direction: value === 'desc' ? 'desc' : 'asc' });
    else order.push(...ordersOf(tables, field.input, value as Record<string, unknown>));
  }
  return order;
}

/** The order of an `order_by` argument of `<type>OrderBy`; empty: the default (id ascending). */
export function orderOf(
  tables: InputTables,
  input: string,
  orderBy: ReadonlyArray<Record<string, unknown>> | Record<string, unknown> | null | undefined,
): InstanceOrder[] {
  if (!orderBy) return [];
  const elements = Array.isArray(orderBy) ? orderBy : [orderBy];
  const order: InstanceOrder[] = [];
  const seen = new Set<string>();
  for (const element of elements) {
    for (const one of ordersOf(tables, input, element as Record<string, unknown>)) {
      // A field sorted twice: the first mention decides.
      if (seen.has(one.field)) continue;
      seen.add(one.field);
      order.push(one);
    }
  }
  return order;
}

export { comparisonTypes };
