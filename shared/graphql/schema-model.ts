/**
 * A workspace's custom-object definitions and relations as what its GraphQL schema needs
 * (SPEC.md, "GraphQL API (read only)"): every name resolved, every collision settled. Two parts:
 *
 * - the shape: what the schema looks like, without any id, timestamp or lock_version. Its hash
 *   names one executable schema, which every workspace with the same shape shares
 *   (schema-cache.ts), so nothing that differs between such workspaces may be closed over by a
 *   resolver;
 * - the workspace's own part: the definition behind each type name and the relation (id, side)
 *   behind each relation field. Resolvers find them in the request's context.
 *
 * Naming rules, each applied in a fixed order so the outcome is deterministic:
 * - definitions in slug order; a definition whose object, connection, edge, filter or order type
 *   name is already taken (by GraphQL, by the names every schema defines or by an earlier
 *   definition) is left out whole (the save-time rules make this unreachable);
 * - properties in definition order, names sanitized (graphql-names.ts): a name already taken on
 *   the type by a system field is silently skipped; of two properties with the same GraphQL name
 *   the one already spelled so wins, else the smaller name (`fieldsOf`); the other stays in REST;
 * - enum and nested-object input types (`<slug>_<field>`, `<slug>_<field>Filter`,
 *   `<slug>_<field>OrderBy`) claimed after every definition's own types: a taken name makes the
 *   enum a String and leaves the nested input out;
 * - relation fields after the properties, in the order of their shape; a taken name is skipped.
 */
import { createHash } from 'node:crypto';
import type { CustomObjectDefinition } from '../domain/custom-objects/definition.schema.ts';
import { builtInTypeNames, graphqlName, systemFields } from '../domain/custom-objects/graphql-names.ts';
import type { StoredRelation } from '../domain/custom-objects/relation.schema.ts';

export type ScalarName = 'String' | 'ID' | 'Date' | 'Time' | 'DateTime' | 'Float' | 'Boolean';

/** The comparison input of each scalar, and of enums (`_in` with strings only). */
export const comparisonTypes = {
  String: 'String_comparison_exp',
  ID: 'ID_comparison_exp',
  Date: 'Date_comparison_exp',
  Time: 'Time_comparison_exp',
  DateTime: 'DateTime_comparison_exp',
  Float: 'Float_comparison_exp',
  Boolean: 'Boolean_comparison_exp',
  enum: 'Enum_comparison_exp',
} as const;

/** Every name a generated schema defines besides the workspace's own types. */
export const schemaTypeNames: readonly string[] = [...builtInTypeNames, ...Object.values(comparisonTypes)];

/** Names of the logical operators of a filter input: no property can take them there. */
export const logicalOperators = ['_and', '_or', '_not'] as const;

/** The value of a property field in the output type. */
export interface OutputShape {
  /** The named GraphQL type: a scalar, an enum of the shape, or String holding JSON. */
  type: string;
  list: boolean;
  /** An object (or a list of objects): rendered as its JSON text. */
  json: boolean;
  /** The scalar the stored value must be for the field to show it. */
  scalar: ScalarName;
}

/** A field of a filter or order input: a property (nested ones by their dotted path). */
export interface InputFieldShape {
  field: string;
  /** The dotted path of the property in the instance's data. */
  path: string;
  /** The input type: a comparison input, a nested filter, OrderDirection or a nested order. */
  type: string;
  nested: boolean;
  /** Comparisons only: the scalar whose operand the comparison takes. */
  scalar?: ScalarName | 'enum';
}

export interface PropertyFieldShape {
  field: string;
  /** The property's name in the instance's data. */
  name: string;
  description?: string;
  readOnly: boolean;
  output: OutputShape;
}

export interface EnumShape {
  name: string;
  values: Array<{ name: string; value: string }>;
}

export interface InputShape {
  name: string;
  fields: InputFieldShape[];
}

export interface RelationFieldShape {
  field: string;
  /** The object type reached. */
  target: string;
  /** To-many (a connection) or to-one (a nullable object). */
  many: boolean;
  description?: string;
}

export interface TypeShape {
  name: string;
  title: string;
  description?: string;
  properties: PropertyFieldShape[];
  relations: RelationFieldShape[];
  /** Property fields of `<name>Filter` (system and relation fields and logical operators are implied). */
  filter: InputFieldShape[];
  /** Property fields of `<name>OrderBy` (system fields implied). */
  order: InputFieldShape[];
  enums: EnumShape[];
  /** The nested-object filter and order inputs. */
  inputs: InputShape[];
}

export interface SchemaShape {
  types: TypeShape[];
}

export interface RelationLink {
  relationId: string;
  /** The side of the relation the parent type is on: its instances hold the linked ids under it. */
  side: 'a' | 'b';
}

export interface WorkspaceModel {
  shape: SchemaShape;
  /** sha-256 of the shape: workspaces with equal hashes share one executable schema. */
  hash: string;
  /** The definition behind each object type. */
  definitions: ReadonlyMap<string, CustomObjectDefinition>;
  /** The relation side behind each relation field, by `<type>.<field>`. */
  links: ReadonlyMap<string, RelationLink>;
}

const namePattern = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** A name GraphQL accepts for a field, type or enum value. */
export const usableName = (name: string) => namePattern.test(name) && !name.startsWith('__');

type Schema = Record<string, unknown>;
const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function scalarOf(schema: Schema): ScalarName | undefined {
  switch (schema.type) {
    case 'string':
      return schema.format === 'uuid'
        ? 'ID'
        : schema.format === 'date'
          ? 'Date'
          : schema.format === 'time'
            ? 'Time'
            : schema.format === 'date-time'
              ? 'DateTime'
              : 'String';
    case 'number':
    case 'integer':
      return 'Float';
    case 'boolean':
      return 'Boolean';
    default:
      return undefined;
  }
}

const enumOf = (schema: Schema): string[] | undefined =>
  schema.type === 'string' && Array.isArray(schema.enum) && schema.enum.length > 0
    ? schema.enum.filter((value): value is string => typeof value === 'string')
    : undefined;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

class Names {
  private readonly taken = new Set<string>(schemaTypeNames);
  claim(name: string): boolean {
    if (!usableName(name) || this.taken.has(name)) return false;
    this.taken.add(name);
    return true;
  }
  claimAll(names: readonly string[]): boolean {
    if (names.some((name) => !usableName(name) || this.taken.has(name))) return false;
    for (const name of names) this.taken.add(name);
    return true;
  }
}

/**
 * Property names of an object schema, sanitized, each GraphQL name once. Which of two properties
 * that sanitize to one name (`a-b`, `a_b`) gets it must not depend on the order of the keys: the
 * store keeps none in a map, so "the first in definition order" could change between reads. The
 * property already named as GraphQL names it wins, else the smaller name in code-unit order; the
 * other one stays reachable through REST only. Fields keep the position of the name's first use.
 */
function fieldsOf(properties: Schema, reserved: readonly string[] = []): Array<[string, string, Schema]> {
  const taken = new Set<string>(reserved);
  const fields = new Map<string, [name: string, schema: Schema]>();
  for (const [name, value] of Object.entries(properties)) {
    const field = graphqlName(name);
    if (!usableName(field) || taken.has(field) || !isObject(value)) continue;
    const held = fields.get(field)?.[0];
    if (held === undefined || prefers(field, name, held)) fields.set(field, [name, value]);
  }
  return [...fields].map(([field, [name, schema]]) => [field, name, schema]);
}

/** Whether `name` rather than `other` gets the GraphQL name `field` both sanitize to. */
function prefers(field: string, name: string, other: string): boolean {
  if ((name === field) !== (other === field)) return name === field;
  return name < other;
}

/**
 * The filter and order input fields of an object's properties; nested objects get inputs of
 * their own named `<prefix>_<field>Filter` / `<prefix>_<field>OrderBy` (added to `inputs`).
 */
function inputFieldsOf(
  properties: Schema,
  prefix: string,
  pathPrefix: string,
  names: Names,
  inputs: InputShape[],
  reserved: readonly string[],
): { filter: InputFieldShape[]; order: InputFieldShape[] } {
  const filter: InputFieldShape[] = [];
  const order: InputFieldShape[] = [];
  for (const [field, name, schema] of fieldsOf(properties, reserved)) {
    // A dot in a property name would read as a nested path: such a property is not filterable.
    if (name.includes('.')) continue;
    const path = pathPrefix ? `${pathPrefix}.${name}` : name;
    const list = schema.type === 'array';
    const item = list ? (isObject(schema.items) ? schema.items : { type: 'string' }) : schema;
    if (item.type === 'object') {
      // Objects inside lists cannot be reached by a path: neither filtered nor sorted.
      if (list || !isObject(item.properties)) continue;
      const nestedPrefix = `${prefix}_${field}`;
      const filterName = `${nestedPrefix}Filter`;
      const orderName = `${nestedPrefix}OrderBy`;
      const claimedFilter = names.claim(filterName);
      const claimedOrder = names.claim(orderName);
      const nested = inputFieldsOf(item.properties, nestedPrefix, path, names, inputs, []);
      if (claimedFilter && nested.filter.length > 0) {
        inputs.push({ name: filterName, fields: nested.filter });
        filter.push({ field, path, type: filterName, nested: true });
      }
      if (claimedOrder && nested.order.length > 0) {
        inputs.push({ name: orderName, fields: nested.order });
        order.push({ field, path, type: orderName, nested: true });
      }
      continue;
    }
    const scalar = scalarOf(item);
    if (!scalar) continue;
    if (enumOf(item)) filter.push({ field, path, type: comparisonTypes.enum, nested: false, scalar: 'enum' });
    else filter.push({ field, path, type: comparisonTypes[scalar], nested: false, scalar });
    if (!list) order.push({ field, path, type: 'OrderDirection', nested: false });
  }
  return { filter, order };
}

function enumValuesOf(values: readonly string[]): EnumShape['values'] {
  const seen = new Set<string>();
  const result: EnumShape['values'] = [];
  for (const value of values) {
    const name = graphqlName(value);
    if (!usableName(name) || ['true', 'false', 'null'].includes(name) || seen.has(name)) continue;
    seen.add(name);
    result.push({ name, value });
  }
  return result;
}

function typeShapeOf(definition: CustomObjectDefinition, name: string, names: Names): TypeShape {
  const properties: PropertyFieldShape[] = [];
  const enums: EnumShape[] = [];
  const inputs: InputShape[] = [];
  const schemas = isObject(definition.properties) ? definition.properties : {};
  for (const [field, propertyName, schema] of fieldsOf(schemas, systemFields)) {
    const list = schema.type === 'array';
    const item = list ? (isObject(schema.items) ? schema.items : { type: 'string' }) : schema;
    const scalar = scalarOf(item);
    let output: OutputShape = { type: 'String', list, json: true, scalar: 'String' };
    if (scalar) output = { type: scalar, list, json: false, scalar };
    const values = enumOf(item);
    if (values) {
      const enumName = `${name}_${field}`;
      const enumValues = enumValuesOf(values);
      if (enumValues.length > 0 && names.claim(enumName)) {
        enums.push({ name: enumName, values: enumValues });
        output = { type: enumName, list, json: false, scalar: 'String' };
      }
    }
    const description = text(schema.description) ?? text(schema.title);
    properties.push({
      field,
      name: propertyName,
      ...(description ? { description } : {}),
      readOnly: schema.readOnly === true,
      output,
    });
  }
  // The filter cannot take a property named like a logical operator or a system field.
  const { filter, order } = inputFieldsOf(schemas, name, '', names, inputs, [
    ...systemFields,
    ...logicalOperators,
  ]);
  const description = text(definition.description);
  return {
    name,
    title: definition.title,
    ...(description ? { description } : {}),
    properties,
    relations: [],
    filter,
    order,
    enums,
    inputs,
  };
}

interface RelationEdge {
  source: string;
  field: string;
  target: string;
  many: boolean;
  side: 'a' | 'b';
  relationId: string;
  description?: string;
}

function relationEdges(
  relations: readonly StoredRelation[],
  typeOfDefinition: Map<string, string>,
): RelationEdge[] {
  const edges: RelationEdge[] = [];
  for (const relation of relations) {
    const a = typeOfDefinition.get(relation.a?.definition_id);
    const b = typeOfDefinition.get(relation.b?.definition_id);
    if (!a || !b) continue;
    // A side's slug names it as the other side reaches it; a hidden side cannot be reached.
    const edge = (side: 'a' | 'b', source: string, target: string): void => {
      const far = side === 'a' ? relation.b : relation.a;
      const near = side === 'a' ? relation.a : relation.b;
      if (far.is_hidden) return;
      const description = text(far.title);
      edges.push({
        source,
        field: graphqlName(far.slug),
        target,
        many: near.cardinality === 'MANY',
        side,
        relationId: relation.id,
        ...(description ? { description } : {}),
      });
    };
    edge('a', a, b);
    edge('b', b, a);
  }
  const key = (edge: RelationEdge) =>
    JSON.stringify([edge.source, edge.field, edge.target, edge.many, edge.side, edge.description ?? '']);
  return edges.sort((x, y) => {
    const [kx, ky] = [key(x), key(y)];
    return kx < ky ? -1 : kx > ky ? 1 : x.relationId < y.relationId ? -1 : 1;
  });
}

/** The model of a workspace's GraphQL schema from its definitions and relations. */
export function modelOf(
  definitions: readonly CustomObjectDefinition[],
  relations: readonly StoredRelation[],
): WorkspaceModel {
  const names = new Names();
  const sorted = [...definitions].sort((x, y) => (x.slug < y.slug ? -1 : x.slug > y.slug ? 1 : 0));
  const kept: Array<[CustomObjectDefinition, string]> = [];
  for (const definition of sorted) {
    const name = graphqlName(definition.slug);
    if (names.claimAll([name, `${name}Connection`, `${name}Edge`, `${name}Filter`, `${name}OrderBy`])) {
      kept.push([definition, name]);
    }
  }
  const types = kept.map(([definition, name]) => typeShapeOf(definition, name, names));
  const byName = new Map(types.map((type) => [type.name, type]));
  const typeOfDefinition = new Map(kept.map(([definition, name]) => [definition.id, name]));
  const links = new Map<string, RelationLink>();
  const taken = new Map(
    types.map((type) => [
      type.name,
      new Set<string>([...systemFields, ...type.properties.map((property) => property.field)]),
    ]),
  );
  for (const edge of relationEdges(relations, typeOfDefinition)) {
    const type = byName.get(edge.source);
    const fields = taken.get(edge.source);
    if (!type || !fields || !usableName(edge.field) || fields.has(edge.field)) continue;
    fields.add(edge.field);
    type.relations.push({
      field: edge.field,
      target: edge.target,
      many: edge.many,
      ...(edge.description ? { description: edge.description } : {}),
    });
    links.set(`${edge.source}.${edge.field}`, { relationId: edge.relationId, side: edge.side });
  }
  const shape: SchemaShape = { types };
  return {
    shape,
    hash: createHash('sha256').update(JSON.stringify(shape)).digest('base64url'),
    definitions: new Map(kept.map(([definition, name]) => [name, definition])),
    links,
  };
}
