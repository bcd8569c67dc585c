/**
 * How the instances of one custom-object definition are listed (README.md, "Lists", the CO_INST
 * rows). Unlike the fixed collections of lists.ts, the declaration is built from the definition:
 *
 * - `id` is the table's own sort key (UUIDv7, so creation order): the default order, read
 *   straight from the instance partition, whose entries are the items themselves;
 * - `created_at` and `updated_at` are gsi4 and gsi5;
 * - the properties a definition names in `indexed_properties` (at most 3, top-level scalars) are
 *   gsi1, gsi2 and gsi3 in that order, each keyed by the value (text as typed, by code units;
 *   numbers as sortable strings; absent values last), and counted per value (`<name>=<value>`), so an equality filter
 *   on one is a key range whose total is a counter read;
 * - every other scalar property (nested ones by their dotted path) is an order too, but served
 *   in memory from a walk of the whole partition: it costs the collection.
 *
 * Index entries carry the instance's data (`list_values.data`), so a filter on any property is
 * checked on the entry without reading the item.
 */

import { instancePartition, type ListScope } from '../../data/keys.ts';
import type { ListSpec, OrderPattern } from '../../data/list-index.ts';
import type { IndexName } from '../../data/table-definition.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';

export interface StoredInstance {
  id: string;
  definition_id: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  lock_version: number;
}

/** Indexed properties per definition at most: gsi1..gsi3 (gsi4/gsi5 hold the timestamps). */
export const maxIndexedProperties = 3;
const indexSlots: readonly IndexName[] = ['gsi1', 'gsi2', 'gsi3'];

/** The last key of every order: absent values come last in ascending order. */
export const absentKey = '\u{10FFFF}';

/**
 * A number as a string whose bytes order like the number (IEEE 754 bits, sign flipped for
 * positives, all bits flipped for negatives, as 16 hex digits).
 */
export function sortableNumber(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value === 0 ? 0 : value);
  let bits = view.getBigUint64(0);
  bits = value < 0 ? ~bits & 0xffffffffffffffffn : bits | 0x8000000000000000n;
  return bits.toString(16).padStart(16, '0');
}

/** Characters of a text value a key holds; longer values share the key of their first 200. */
export const maxTextKey = 200;

/** A property value as its sort key part, by the property's JSON-Schema type. */
export function sortableValue(value: unknown, type: unknown): string {
  if (value === undefined || value === null) return absentKey;
  if (type === 'number' || type === 'integer')
    return typeof value === 'number' ? sortableNumber(value) : absentKey;
  if (type === 'boolean') return value === true ? '1' : '0';
  // Text as typed (not folded): so an equality or range filter is a key range of exactly its
  // matches, and the counters count exact values. Cut to keep keys within DynamoDB's 1,024 bytes.
  if (typeof value === 'string') return value.slice(0, maxTextKey);
  return absentKey;
}

/** The value at a dotted path of an instance's data (`address.city`). */
export function valueAt(data: Record<string, unknown> | undefined, path: string): unknown {
  let current: unknown = data;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

type Schema = Record<string, unknown>;

/** Scalar properties by dotted path with their type: what can be sorted on. */
export function sortablePaths(properties: Schema, prefix = '', depth = 1): Array<[string, unknown]> {
  const paths: Array<[string, unknown]> = [];
  for (const [name, schema] of Object.entries(properties)) {
    const property = (schema ?? {}) as Schema;
    const path = prefix ? `${prefix}.${name}` : name;
    if (property.type === 'object' && property.properties && depth < 6) {
      paths.push(...sortablePaths(property.properties as Schema, path, depth + 1));
    } else if (['string', 'number', 'integer', 'boolean'].includes(String(property.type))) {
      paths.push([path, property.type]);
    }
  }
  return paths;
}

/** The name of a definition's list: its index partitions and counters (by id: a rename moves nothing). */
export const instanceListName = (definitionId: string) => `CO#${definitionId}`;

/** The counter of one value of an indexed property. */
export const valueCounter = (property: string, key: string) => `${property}=${key}`;

const cache = new Map<string, { version: string; spec: ListSpec<StoredInstance> }>();

function workspaceOf(scope: ListScope): string {
  if (scope.kind !== 'workspace') throw new Error('instances are listed in a workspace');
  return scope.workspaceId;
}

/** The list declaration of a definition's instances, built once per definition version. */
export function instanceList(definition: CustomObjectDefinition): ListSpec<StoredInstance> {
  const version = `${definition.updated_at}#${definition.lock_version}`;
  const cached = cache.get(definition.id);
  if (cached?.version === version) return cached.spec;
  const properties = definition.properties as Schema;
  const indexed = (definition.indexed_properties ?? []).slice(0, maxIndexedProperties);
  const orders: Record<string, OrderPattern<StoredInstance>> = {
    id: { pattern: 'byId', index: 'base', key: (record) => [record.id] },
    created_at: { pattern: 'byCreation', index: 'gsi4', key: (record) => [String(record.created_at)] },
    updated_at: { pattern: 'byChange', index: 'gsi5', key: (record) => [String(record.updated_at)] },
  };
  for (const [path, type] of sortablePaths(properties)) {
    const slot = indexed.indexOf(path);
    orders[path] = {
      pattern: slot >= 0 ? `byIndexed${slot + 1}` : 'inMemory',
      index: slot >= 0 ? (indexSlots[slot] as IndexName) : 'base',
      key: (record) => [sortableValue(valueAt(record.data, path), type)],
    };
  }
  const typeOf = (name: string) => (properties[name] as Schema | undefined)?.type;
  const spec: ListSpec<StoredInstance> = {
    name: instanceListName(definition.id),
    listed: () => true,
    orders,
    counters: (record) =>
      indexed.map((name) => valueCounter(name, sortableValue(valueAt(record.data, name), typeOf(name)))),
    listedValues: (record) => ({ data: record.data as never }),
    basePartition: (scope) => instancePartition(workspaceOf(scope), definition.id),
  };
  cache.set(definition.id, { version, spec });
  return spec;
}
