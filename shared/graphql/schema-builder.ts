/**
 * The executable schema of a shape (schema-model.ts): its SDL, written out here, made executable
 * with @graphql-tools/schema and the generic resolvers of resolvers.ts. Everything the resolvers
 * need that differs between workspaces of the same shape comes from the request's context.
 *
 * Per object type `<slug>` (SPEC.md, "Type names"):
 *
 *   type <slug> { id: ID!  created_at: DateTime!  updated_at: DateTime!  lock_version: Float!
 *                 <properties>  <relation fields> }
 *   type <slug>Connection { edges: [<slug>Edge!]!  pageInfo: PageInfo!  totalCount: Long! }
 *   type <slug>Edge { cursor: String!  node: <slug>! }
 *   input <slug>Filter { _and _or _not  id created_at updated_at  <properties>  <relations> }
 *   input <slug>OrderBy { id created_at updated_at  <sortable properties> }
 *
 * and a root field `<slug>(where, order_by, first, after, last, before, offset): <slug>Connection!`.
 * A workspace without definitions gets `type Query { _empty: String }` alone.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { type GraphQLSchema, printSchema } from 'graphql';
import { type InputTables, inputTablesOf } from './filters.ts';
import { nestedPageSize, rootPageSize } from './paging.ts';
import { resolversOf } from './resolvers.ts';
import { comparisonTypes, type SchemaShape, type TypeShape } from './schema-model.ts';

export interface CompiledSchema {
  schema: GraphQLSchema;
  /** The SDL as served (printSchema of the executable schema), printed when first asked. */
  readonly sdl: string;
  shape: SchemaShape;
  tables: InputTables;
  connectionTypes: ReadonlySet<string>;
  nodeTypes: ReadonlySet<string>;
}

const describe = (text: string | undefined, indent = '') =>
  text ? `${indent}${JSON.stringify(text)}\n` : '';

const common = `${describe('A 64-bit integer, serialized as a JSON number.')}scalar Long
scalar Date
scalar Time
scalar DateTime

${describe('Sort direction: absent values come last in ascending order and first in descending order.')}enum OrderDirection {
  asc
  desc
}

${describe('Where a page stands in its connection.')}type PageInfo {
${describe('Rows follow the page.', '  ')}  hasNextPage: Boolean!
${describe('Rows precede the page.', '  ')}  hasPreviousPage: Boolean!
${describe('The cursor of the first edge; null when the page is empty.', '  ')}  startCursor: String
${describe('The cursor of the last edge; null when the page is empty.', '  ')}  endCursor: String
}
`;

function ordered(scalar: string): string {
  return ['_eq', '_neq', '_gt', '_gte', '_lt', '_lte'].map((op) => `  ${op}: ${scalar}`).join('\n');
}

const comparisons = `${describe('Conditions on a String: _ilike is SQL ILIKE (% any run, _ one character, no case).')}input ${comparisonTypes.String} {
${ordered('String')}
  _in: [String!]
  _is_null: Boolean
  _ilike: String
}

${(['ID', 'Date', 'Time', 'DateTime', 'Float'] as const)
  .map(
    (
      scalar,
    ) => `${describe(`Conditions on ${scalar === 'ID' ? 'an' : 'a'} ${scalar}.`)}input ${comparisonTypes[scalar]} {
${ordered(scalar)}
  _in: [${scalar}!]
  _is_null: Boolean
}
`,
  )
  .join('\n')}
${describe('Conditions on a Boolean.')}input ${comparisonTypes.Boolean} {
  _eq: Boolean
  _neq: Boolean
  _in: [Boolean!]
  _is_null: Boolean
}

${describe('Conditions on an enum field: the stored values (strings, not enum literals) it may have.')}input ${comparisonTypes.enum} {
  _in: [String!]
}
`;

const connectionArguments = (type: string) =>
  `(where: ${type}Filter, order_by: [${type}OrderBy!], first: Int, after: String, last: Int, before: String, offset: Int)`;

function objectType(type: TypeShape): string {
  const lines = [
    `${describe(type.description ? `${type.title}: ${type.description}` : type.title)}type ${type.name} {`,
    '  id: ID!',
    '  created_at: DateTime!',
    '  updated_at: DateTime!',
    '  lock_version: Float!',
  ];
  for (const property of type.properties) {
    const named = property.output.list ? `[${property.output.type}]` : property.output.type;
    const note = property.output.json
      ? `${property.description ? `${property.description} ` : ''}(JSON text, keys in alphabetical order)`
      : property.description;
    lines.push(`${describe(note, '  ')}  ${property.field}: ${named}${property.readOnly ? '!' : ''}`);
  }
  for (const relation of type.relations) {
    lines.push(
      relation.many
        ? `${describe(`${relation.description ? `${relation.description}: ` : ''}${nestedPageSize} rows unless first or last says otherwise.`, '  ')}  ${relation.field}${connectionArguments(relation.target)}: ${relation.target}Connection!`
        : `${describe(relation.description, '  ')}  ${relation.field}: ${relation.target}`,
    );
  }
  lines.push('}');
  return lines.join('\n');
}

function inputTypes(type: TypeShape, tables: InputTables): string {
  const filter = [
    `input ${type.name}Filter {`,
    `  _and: [${type.name}Filter!]`,
    `  _or: [${type.name}Filter!]`,
    `  _not: ${type.name}Filter`,
    `  id: ${comparisonTypes.ID}`,
    `  created_at: ${comparisonTypes.DateTime}`,
    `  updated_at: ${comparisonTypes.DateTime}`,
    ...type.filter.map((field) => `  ${field.field}: ${field.type}`),
    ...type.relations
      .filter(
        (relation) => tables.filters.get(`${type.name}Filter`)?.get(relation.field)?.kind === 'relation',
      )
      .map((relation) => `  ${relation.field}: ${relation.target}Filter`),
    '}',
  ];
  const order = [
    `input ${type.name}OrderBy {`,
    '  id: OrderDirection',
    '  created_at: OrderDirection',
    '  updated_at: OrderDirection',
    ...type.order.map((field) => `  ${field.field}: ${field.type}`),
    '}',
  ];
  const nested = type.inputs.map((input) =>
    [`input ${input.name} {`, ...input.fields.map((field) => `  ${field.field}: ${field.type}`), '}'].join(
      '\n',
    ),
  );
  const enums = type.enums.map((one) =>
    [`enum ${one.name} {`, ...one.values.map((value) => `  ${value.name}`), '}'].join('\n'),
  );
  return [filter.join('\n'), order.join('\n'), ...nested, ...enums].join('\n\n');
}

/** The SDL of a shape, before it is made executable. */
export function typeDefsOf(shape: SchemaShape, tables: InputTables = inputTablesOf(shape)): string {
  if (shape.types.length === 0) return 'type Query {\n  _empty: String\n}\n';
  const root = shape.types.map(
    (type) =>
      `${describe(`${type.title}: one page of the records, ${rootPageSize} rows unless first or last says otherwise.`, '  ')}  ${type.name}${connectionArguments(type.name)}: ${type.name}Connection!`,
  );
  const types = shape.types.map((type) =>
    [
      objectType(type),
      `type ${type.name}Connection {\n  edges: [${type.name}Edge!]!\n  pageInfo: PageInfo!\n${describe('The rows of the connection, all pages together.', '  ')}  totalCount: Long!\n}`,
      `type ${type.name}Edge {\n  cursor: String!\n  node: ${type.name}!\n}`,
      inputTypes(type, tables),
    ].join('\n\n'),
  );
  return [`type Query {\n${root.join('\n')}\n}`, common, comparisons, ...types].join('\n\n');
}

/** The executable schema of a shape. */
export function compileSchema(shape: SchemaShape): CompiledSchema {
  const tables = inputTablesOf(shape);
  let printed: string | undefined;
  const schema = makeExecutableSchema({ typeDefs: typeDefsOf(shape, tables), resolvers: resolversOf(shape) });
  return {
    schema,
    get sdl() {
      printed ??= printSchema(schema);
      return printed;
    },
    shape,
    tables,
    connectionTypes: new Set(shape.types.map((type) => `${type.name}Connection`)),
    nodeTypes: new Set(shape.types.map((type) => type.name)),
  };
}
