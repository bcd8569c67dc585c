/**
 * The per-workspace read-only GraphQL API over HTTP (SPEC.md, "GraphQL API (read only)";
 * API-DECISIONS.md: POST /api/v2/graphql, Relay cursors, introspection): the generated schema,
 * checked with the graphql package against the served SDL and against introspection, filters,
 * orders, paging, relations, access per type, limits, GraphQL-over-HTTP statuses, 401 problem
 * documents and workspace isolation. The workspace is shared with other tests: every type here
 * has a slug of its own, and the workspace's schema is only ever checked through buildSchema and
 * validate.
 */
import { randomUUID } from 'node:crypto';
import {
  buildClientSchema,
  buildSchema,
  type GraphQLObjectType,
  type GraphQLSchema,
  getIntrospectionQuery,
  type IntrospectionQuery,
  lexicographicSortSchema,
  parse,
  printSchema,
  validate,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let technician: string;
let beta: string;
let empty: string;

beforeAll(async () => {
  [admin, technician, beta, empty] = await Promise.all([
    tokenFor('cases-admin'),
    tokenFor('cases-technician'),
    tokenFor('beta-admin'),
    // A workspace no test gives custom-object definitions.
    tokenFor('users-admin'),
  ]);
});

const unique = (base: string) => `${base}_${randomUUID().slice(0, 8)}`;

async function define(
  base: string,
  properties: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  token = admin,
): Promise<string> {
  const slug = unique(base);
  const response = await call('POST', '/api/v2/custom-objects/definitions', {
    token,
    body: { slug, title: base, type: 'object', properties, ...extra },
  });
  expect(response.status, response.text).toBe(201);
  return slug;
}

async function create(
  slug: string,
  data: Record<string, unknown>,
  relations?: Record<string, string | string[]>,
  token = admin,
): Promise<{ id: string; created_at: string; updated_at: string; lock_version: number }> {
  const response = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
    token,
    body: { data, ...(relations ? { relations } : {}) },
  });
  expect(response.status, response.text).toBe(201);
  return { ...response.body.data, lock_version: response.body.lock_version };
}

interface Side {
  definition_slug: string;
  cardinality: 'ONE' | 'MANY';
  slug: string;
  title?: string;
  is_hidden?: boolean;
}

async function relate(a: Side, b: Side, token = admin): Promise<string> {
  const response = await call('POST', '/api/v2/custom-objects/relations', {
    token,
    body: { relations: [{ a: { title: a.slug, ...a }, b: { title: b.slug, ...b } }] },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.items[0].id as string;
}

async function associate(relationId: string, a: string, b: string): Promise<void> {
  const response = await call('POST', `/api/v2/custom-objects/relations/${relationId}/associations`, {
    token: admin,
    body: { side_a_instance_id: a, side_b_instance_id: b },
  });
  expect(response.status, response.text).toBe(201);
}

interface GraphQLAnswer {
  status: number;
  contentType: string;
  data?: any;
  errors?: Array<{ message: string; path?: unknown[]; extensions?: { code?: string } }>;
  body: any;
}

async function gql(
  query: string,
  options: {
    token?: string;
    variables?: Record<string, unknown>;
    accept?: string;
    operationName?: string;
  } = {},
): Promise<GraphQLAnswer> {
  const response = await call('POST', '/api/v2/graphql', {
    token: options.token ?? admin,
    body: {
      query,
      ...(options.variables ? { variables: options.variables } : {}),
      ...(options.operationName ? { operationName: options.operationName } : {}),
    },
    ...(options.accept ? { headers: { accept: options.accept } } : {}),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    data: response.body?.data,
    errors: response.body?.errors,
    body: response.body,
  };
}

/** A query that must succeed: its data. */
async function data(query: string, options: Parameters<typeof gql>[1] = {}): Promise<any> {
  const answer = await gql(query, options);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data;
}

const codes = (answer: GraphQLAnswer) => (answer.errors ?? []).map((error) => error.extensions?.code);

async function servedSchema(token = admin): Promise<{ sdl: string; schema: GraphQLSchema }> {
  const response = await call('GET', '/api/v2/graphql/schema', { token });
  expect(response.status, response.text).toBe(200);
  return { sdl: response.text, schema: buildSchema(response.text) };
}

/** A type's fields as `name: Type` from introspection. */
async function fieldsOf(typeName: string, token = admin): Promise<Record<string, string>> {
  const result = await data(
    `query($name: String!) { __type(name: $name) { fields { name type { ...ref } } inputFields { name type { ...ref } } } }
     fragment ref on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`,
    { token, variables: { name: typeName } },
  );
  const render = (type: { kind: string; name: string | null; ofType: unknown }): string =>
    type.kind === 'NON_NULL'
      ? `${render(type.ofType as never)}!`
      : type.kind === 'LIST'
        ? `[${render(type.ofType as never)}]`
        : String(type.name);
  const type = result.__type as null | {
    fields: Array<{ name: string; type: never }> | null;
    inputFields: Array<{ name: string; type: never }> | null;
  };
  if (!type) return {};
  return Object.fromEntries(
    [...(type.fields ?? []), ...(type.inputFields ?? [])].map((field) => [field.name, render(field.type)]),
  );
}

const ids = (connection: { edges: Array<{ node: { id: string } }> }) =>
  connection.edges.map((edge) => edge.node.id);

describe('GraphQL API', () => {
  describe('schema', () => {
    it('serves the SDL as text/plain, which validates queries on the new type', async () => {
      // Prepare
      const slug = await define('invoice', { number: { type: 'string' } });

      // Act
      const response = await call('GET', '/api/v2/graphql/schema', { token: admin });
      const schema = buildSchema(response.text);

      // Assess
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.text).toContain(`type ${slug} {`);
      expect(
        validate(schema, parse(`{ ${slug}(first: 1) { totalCount edges { node { id number } } } }`)),
      ).toEqual([]);
      expect(validate(schema, parse(`{ ${slug} { edges { node { nope } } } }`))).not.toEqual([]);
    });

    it('serves the same schema through introspection as in the SDL', async () => {
      await define('report', { title: { type: 'string' }, score: { type: 'number' } });
      const { schema } = await servedSchema();

      const introspection = await data(getIntrospectionQuery({ specifiedByUrl: true, descriptions: true }));
      const fromIntrospection = buildClientSchema(introspection as IntrospectionQuery);

      expect(printSchema(lexicographicSortSchema(fromIntrospection))).toBe(
        printSchema(lexicographicSortSchema(schema)),
      );
    });

    it('answers a workspace without definitions with the placeholder _empty', async () => {
      const { sdl, schema } = await servedSchema(empty);
      const answer = await data('{ _empty }', { token: empty });

      expect(sdl.trim()).toBe('type Query {\n  _empty: String\n}');
      expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toEqual(['_empty']);
      expect(answer).toEqual({ _empty: null });
    });

    it('maps every JSON-Schema type to its GraphQL type, readOnly non-null, with the system fields', async () => {
      // Prepare
      const slug = await define('mapped', {
        code: { type: 'string', readOnly: true },
        label: { type: 'string' },
        amount: { type: 'number' },
        count: { type: 'integer' },
        active: { type: 'boolean' },
        ref: { type: 'string', format: 'uuid' },
        due_on: { type: 'string', format: 'date' },
        starts: { type: 'string', format: 'time' },
        sent_at: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        tags: { type: 'array' },
        scores: { type: 'array', items: { type: 'number' } },
        address: { type: 'object', properties: { city: { type: 'string' } } },
        state: { type: 'string', enum: ['NEW', 'in-work'] },
      });

      // Act
      const fields = await fieldsOf(slug);
      const connection = await fieldsOf(`${slug}Connection`);
      const edge = await fieldsOf(`${slug}Edge`);

      // Assess
      expect(fields).toEqual({
        id: 'ID!',
        created_at: 'DateTime!',
        updated_at: 'DateTime!',
        lock_version: 'Float!',
        code: 'String!',
        label: 'String',
        amount: 'Float',
        count: 'Float',
        active: 'Boolean',
        ref: 'ID',
        due_on: 'Date',
        starts: 'Time',
        sent_at: 'DateTime',
        mail: 'String',
        tags: '[String]',
        scores: '[Float]',
        address: 'String',
        state: `${slug}_state`,
      });
      expect(connection).toEqual({
        edges: `[${slug}Edge!]!`,
        pageInfo: 'PageInfo!',
        totalCount: 'Long!',
      });
      expect(edge).toEqual({ cursor: 'String!', node: `${slug}!` });
    });

    it('gives the root field the connection arguments and puts no generated type at the root', async () => {
      const slug = await define('rooted', {
        address: { type: 'object', properties: { city: { type: 'string' } } },
      });
      const { schema } = await servedSchema();

      const root = schema.getQueryType()?.getFields() ?? {};

      expect(root[slug]?.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
        `where: ${slug}Filter`,
        `order_by: [${slug}OrderBy!]`,
        'first: Int',
        'after: String',
        'last: Int',
        'before: String',
        'offset: Int',
      ]);
      expect(String(root[slug]?.type)).toBe(`${slug}Connection!`);
      expect(Object.keys(root).filter((name) => name.startsWith(slug))).toEqual([slug]);
      expect(schema.getType(`${slug}_addressFilter`)).toBeDefined();
    });

    it('returns values as their types show them: objects as JSON text, enums by their sanitized names', async () => {
      // Prepare
      const slug = await define('valued', {
        code: { type: 'string', readOnly: true },
        amount: { type: 'integer' },
        tags: { type: 'array' },
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } },
        state: { type: 'string', enum: ['NEW', 'in-work'] },
        sent_at: { type: 'string', format: 'date-time' },
      });
      const record = await create(slug, {
        code: 'V-1',
        amount: 3,
        tags: ['a', 'b'],
        address: { city: 'Berlin', zip: '10115' },
        state: 'in-work',
        sent_at: '2026-05-01T10:00:00Z',
      });

      // Act
      const result = await data(
        `{ ${slug} { edges { node { id created_at updated_at lock_version code amount tags address state sent_at } } } }`,
      );

      // Assess
      expect(result[slug].edges[0].node).toEqual({
        id: record.id,
        created_at: record.created_at,
        updated_at: record.updated_at,
        lock_version: 0,
        code: 'V-1',
        amount: 3,
        tags: ['a', 'b'],
        // Keys in alphabetical order, whatever the store keeps.
        address: '{"city":"Berlin","zip":"10115"}',
        state: 'in_work',
        sent_at: '2026-05-01T10:00:00Z',
      });
    });

    it('sanitizes property names and keeps the one of two that collide spelled as GraphQL spells it, silently, both staying in REST', async () => {
      // Prepare
      const slug = await define('sanitized', {
        'unit price': { type: 'number' },
        unit_price: { type: 'string' },
        '2nd-line': { type: 'string' },
      });
      const record = await create(slug, { 'unit price': 4.5, unit_price: 'text', '2nd-line': 'x' });

      // Act
      const fields = await fieldsOf(slug);
      const result = await data(`{ ${slug} { edges { node { unit_price _2nd_line } } } }`);
      const rest = await call('GET', `/api/v2/custom-objects/instances/${slug}/${record.id}`, {
        token: admin,
      });

      // Assess
      expect(fields.unit_price).toBe('String');
      expect(fields._2nd_line).toBe('String');
      expect(Object.keys(fields)).toHaveLength(4 + 2);
      expect(result[slug].edges[0].node).toEqual({ unit_price: 'text', _2nd_line: 'x' });
      expect(rest.body.data).toMatchObject({ 'unit price': 4.5, unit_price: 'text' });
    });

    it('accepts only _in with strings on an enum field', async () => {
      const slug = await define('enumerated', { state: { type: 'string', enum: ['OPEN', 'DONE'] } });
      await create(slug, { state: 'OPEN' });
      await create(slug, { state: 'DONE' });

      const filtered = await data(
        `{ ${slug}(where: { state: { _in: ["DONE"] } }) { edges { node { state } } } }`,
      );
      const byEq = await gql(`{ ${slug}(where: { state: { _eq: "DONE" } }) { totalCount } }`);
      const byLiteral = await gql(`{ ${slug}(where: { state: { _in: [DONE] } }) { totalCount } }`);
      const filter = await fieldsOf('Enum_comparison_exp');

      expect(filtered[slug].edges.map((edge: { node: unknown }) => edge.node)).toEqual([{ state: 'DONE' }]);
      expect(codes(byEq)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(codes(byLiteral)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(filter).toEqual({ _in: '[String!]' });
    });
  });

  describe('filters', () => {
    let slug: string;
    const rows: Record<string, string> = {};

    beforeAll(async () => {
      slug = await define('filtered', {
        name: { type: 'string' },
        amount: { type: 'number' },
        paid: { type: 'boolean' },
        due_on: { type: 'string', format: 'date' },
        tags: { type: 'array' },
        address: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            geo: { type: 'object', properties: { zone: { type: 'integer' } } },
          },
        },
      });
      const data = [
        [
          'a',
          {
            name: 'Alpha',
            amount: 10,
            paid: true,
            due_on: '2026-01-10',
            tags: ['red'],
            address: { city: 'Berlin', geo: { zone: 1 } },
          },
        ],
        [
          'b',
          {
            name: 'beta',
            amount: 20,
            paid: false,
            due_on: '2026-02-10',
            tags: ['red', 'blue'],
            address: { city: 'Bonn', geo: { zone: 2 } },
          },
        ],
        [
          'c',
          {
            name: 'Gamma',
            amount: 30,
            paid: true,
            due_on: '2026-03-10',
            tags: ['green'],
            address: { city: 'Köln', geo: { zone: 2 } },
          },
        ],
        ['d', { name: 'delta', due_on: '2026-04-10' }],
      ] as const;
      for (const [key, values] of data) rows[key] = (await create(slug, values)).id;
    });

    const matching = async (where: string): Promise<string[]> => {
      const result = await data(
        `{ ${slug}(where: ${where}, first: 100) { totalCount edges { node { id } } } }`,
      );
      expect(result[slug].totalCount).toBe(result[slug].edges.length);
      const byId = Object.fromEntries(Object.entries(rows).map(([key, id]) => [id, key]));
      return ids(result[slug]).map((id) => byId[id] ?? id);
    };

    it.each([
      ['{ amount: { _eq: 20 } }', ['b']],
      ['{ amount: { _neq: 20 } }', ['a', 'c']],
      ['{ amount: { _gt: 10 } }', ['b', 'c']],
      ['{ amount: { _gte: 20 } }', ['b', 'c']],
      ['{ amount: { _lt: 30 } }', ['a', 'b']],
      ['{ amount: { _lte: 10 } }', ['a']],
      ['{ amount: { _in: [10, 30] } }', ['a', 'c']],
      ['{ amount: { _is_null: true } }', ['d']],
      ['{ amount: { _is_null: false } }', ['a', 'b', 'c']],
      ['{ name: { _ilike: "%ta" } }', ['b', 'd']],
      ['{ name: { _ilike: "_amma" } }', ['c']],
      ['{ name: { _eq: "Alpha" } }', ['a']],
      ['{ paid: { _eq: false } }', ['b']],
      ['{ due_on: { _gte: "2026-02-10", _lt: "2026-04-10" } }', ['b', 'c']],
      ['{ tags: { _eq: "red" } }', ['a', 'b']],
      ['{ address: { city: { _ilike: "b%" } } }', ['a', 'b']],
      ['{ address: { geo: { zone: { _eq: 2 } } } }', ['b', 'c']],
      ['{ _and: [{ amount: { _gt: 10 } }, { paid: { _eq: true } }] }', ['c']],
      ['{ _or: [{ amount: { _eq: 10 } }, { name: { _eq: "delta" } }] }', ['a', 'd']],
      ['{ _not: { amount: { _gt: 10 } } }', ['a', 'd']],
      ['{ _or: [] }', []],
      ['{ _and: [] }', ['a', 'b', 'c', 'd']],
    ])('where %s matches %j', async (where, expected) => {
      expect(await matching(where)).toEqual(expected);
    });

    it('filters on the system fields', async () => {
      const first = await call('GET', `/api/v2/custom-objects/instances/${slug}/${rows.b}`, { token: admin });
      expect(await matching(`{ id: { _eq: "${rows.b}" } }`)).toEqual(['b']);
      expect(await matching(`{ id: { _in: ["${rows.a}", "${rows.c}"] } }`)).toEqual(['a', 'c']);
      expect(await matching(`{ created_at: { _gte: "${first.body.data.created_at}" } }`)).toEqual([
        'b',
        'c',
        'd',
      ]);
    });

    it('takes filters as variables and refuses operands of the wrong type', async () => {
      const result = await data(`query($where: ${slug}Filter) { ${slug}(where: $where) { totalCount } }`, {
        variables: { where: { amount: { _gte: 20 } } },
      });
      const wrong = await gql(`{ ${slug}(where: { due_on: { _eq: "10.01.2026" } }) { totalCount } }`);

      expect(result[slug].totalCount).toBe(2);
      expect(codes(wrong)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    });

    it('does not filter lock_version', async () => {
      const answer = await gql(`{ ${slug}(where: { lock_version: { _eq: 0 } }) { totalCount } }`);
      expect(codes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    });
  });

  describe('order and paging', () => {
    let slug: string;
    const created: string[] = [];

    beforeAll(async () => {
      slug = await define('paged', {
        rank: { type: 'integer' },
        address: { type: 'object', properties: { city: { type: 'string' } } },
      });
      const cities = ['Berlin', 'Aachen', 'Dresden', 'Celle', 'Essen'];
      for (let i = 0; i < 5; i++) {
        created.push((await create(slug, { rank: (i * 3) % 5, address: { city: cities[i] } })).id);
      }
    });

    it('orders ascending by id (creation) by default, asc and desc on properties and nested objects', async () => {
      const result = await data(`{
        plain: ${slug} { edges { node { id } } }
        asc: ${slug}(order_by: [{ rank: asc }]) { edges { node { rank } } }
        desc: ${slug}(order_by: { rank: desc }) { edges { node { rank } } }
        nested: ${slug}(order_by: [{ address: { city: desc } }]) { edges { node { address } } }
        created: ${slug}(order_by: [{ created_at: desc }]) { edges { node { id } } }
      }`);

      expect(ids(result.plain)).toEqual(created);
      expect(result.asc.edges.map((edge: { node: { rank: number } }) => edge.node.rank)).toEqual([
        0, 1, 2, 3, 4,
      ]);
      expect(result.desc.edges.map((edge: { node: { rank: number } }) => edge.node.rank)).toEqual([
        4, 3, 2, 1, 0,
      ]);
      expect(
        result.nested.edges.map((edge: { node: { address: string } }) => JSON.parse(edge.node.address).city),
      ).toEqual(['Essen', 'Dresden', 'Celle', 'Berlin', 'Aachen']);
      expect(ids(result.created)).toEqual([...created].reverse());
    });

    it('pages forward with first/after and backward with last/before, with Relay pageInfo', async () => {
      // Act
      const first = await data(
        `{ ${slug}(first: 2) { totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      );
      const page = first[slug];
      const second = await data(
        `query($after: String) { ${slug}(first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`,
        { variables: { after: page.pageInfo.endCursor } },
      );
      const last = await data(
        `{ ${slug}(last: 2) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor } } }`,
      );
      const before = await data(
        `query($before: String) { ${slug}(last: 2, before: $before) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } }`,
        { variables: { before: last[slug].pageInfo.startCursor } },
      );

      // Assess
      expect(page.totalCount).toBe(5);
      expect(ids(page)).toEqual(created.slice(0, 2));
      expect(page.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: page.edges[0].cursor,
        endCursor: page.edges[1].cursor,
      });
      expect(ids(second[slug])).toEqual(created.slice(2, 4));
      expect(second[slug].pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect(ids(last[slug])).toEqual(created.slice(3));
      expect(last[slug].pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      expect(ids(before[slug])).toEqual(created.slice(1, 3));
      expect(before[slug].pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    });

    it('skips rows with offset, after a cursor too, and answers an empty page with null cursors', async () => {
      const result = await data(`{
        skipped: ${slug}(offset: 3) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } }
        none: ${slug}(first: 0) { totalCount edges { node { id } } pageInfo { startCursor endCursor hasNextPage } }
        beyond: ${slug}(offset: 10) { edges { node { id } } pageInfo { startCursor hasNextPage } }
      }`);
      const start = await data(`{ ${slug}(first: 1) { edges { cursor } } }`);
      const afterAndOffset = await data(
        `query($after: String) { ${slug}(after: $after, offset: 1, first: 2) { edges { node { id } } } }`,
        { variables: { after: start[slug].edges[0].cursor } },
      );

      expect(ids(result.skipped)).toEqual(created.slice(3));
      expect(result.skipped.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false });
      expect(result.none).toEqual({
        totalCount: 5,
        edges: [],
        pageInfo: { startCursor: null, endCursor: null, hasNextPage: true },
      });
      expect(result.beyond).toEqual({ edges: [], pageInfo: { startCursor: null, hasNextPage: false } });
      expect(ids(afterAndOffset[slug])).toEqual(created.slice(2, 4));
    });

    it('serializes totalCount as a JSON number of type Long', async () => {
      const response = await call('POST', '/api/v2/graphql', {
        token: admin,
        body: { query: `{ ${slug} { totalCount } }` },
      });
      expect(response.text).toContain('"totalCount":5');
      expect((await fieldsOf(`${slug}Connection`)).totalCount).toBe('Long!');
    });

    it.each([
      ['first: 1001', 'first must be between 0 and 1000'],
      ['last: -1', 'last must be between 0 and 1000'],
      ['offset: -1', 'offset must be 0 or more'],
      ['after: "nonsense"', 'after is not a cursor'],
    ])('refuses %s with BAD_USER_INPUT', async (argument, message) => {
      const answer = await gql(`{ ${slug}(${argument}) { totalCount } }`);
      expect(answer.status).toBe(200);
      expect(codes(answer)).toEqual(['BAD_USER_INPUT']);
      expect(answer.errors?.[0]?.message).toContain(message);
      expect(answer.errors?.[0]?.path).toEqual([slug]);
    });
  });

  describe('relations', () => {
    let invoice: string;
    let customer: string;
    let relationId: string;
    let acme: { id: string };
    let globex: { id: string };
    const invoices: string[] = [];

    beforeAll(async () => {
      invoice = await define('invoice', { number: { type: 'string' }, amount: { type: 'number' } });
      customer = await define('customer', { name: { type: 'string' } });
      relationId = await relate(
        { definition_slug: invoice, cardinality: 'ONE', slug: 'invoices' },
        { definition_slug: customer, cardinality: 'MANY', slug: 'customer' },
      );
      acme = await create(customer, { name: 'Acme' });
      globex = await create(customer, { name: 'Globex' });
      for (let i = 0; i < 12; i++) {
        const one = await create(invoice, { number: `N-${i}`, amount: i * 10 });
        invoices.push(one.id);
        await associate(relationId, one.id, acme.id);
      }
      const lone = await create(invoice, { number: 'G-1', amount: 5 });
      invoices.push(lone.id);
      await associate(relationId, lone.id, globex.id);
    });

    it('adds a to-one field without arguments and a to-many connection on the other type', async () => {
      const invoiceFields = await fieldsOf(invoice);
      const customerFields = await fieldsOf(customer);
      const { schema } = await servedSchema();

      expect(invoiceFields.customer).toBe(customer);
      expect(customerFields.invoices).toBe(`${invoice}Connection!`);
      expect(
        (schema.getType(customer) as GraphQLObjectType).getFields().invoices?.args.map((arg) => arg.name),
      ).toEqual(['where', 'order_by', 'first', 'after', 'last', 'before', 'offset']);
      expect((schema.getType(invoice) as GraphQLObjectType).getFields().customer?.args).toEqual([]);
    });

    it('resolves a to-one relation and a nested connection of 10 rows by default', async () => {
      const result = await data(`{
        ${customer}(order_by: [{ name: asc }]) {
          edges { node { name invoices { totalCount edges { node { id number customer { name } } } pageInfo { hasNextPage } } } }
        }
      }`);

      const [acmeNode, globexNode] = result[customer].edges.map((edge: { node: unknown }) => edge.node);
      expect(acmeNode.name).toBe('Acme');
      expect(acmeNode.invoices.totalCount).toBe(12);
      expect(ids(acmeNode.invoices)).toEqual(invoices.slice(0, 10));
      expect(acmeNode.invoices.pageInfo.hasNextPage).toBe(true);
      expect(acmeNode.invoices.edges[0].node.customer).toEqual({ name: 'Acme' });
      expect(globexNode.invoices.totalCount).toBe(1);
      expect(globexNode.invoices.edges[0].node.number).toBe('G-1');
    });

    it('filters, orders and pages a nested connection', async () => {
      const result = await data(`{
        ${customer}(where: { name: { _eq: "Acme" } }) {
          edges { node {
            top: invoices(where: { amount: { _gte: 50 } }, order_by: [{ amount: desc }], first: 3) {
              totalCount edges { node { amount } } pageInfo { hasNextPage endCursor }
            }
            tail: invoices(last: 2) { edges { node { id } } }
          } }
        }
      }`);
      const node = result[customer].edges[0].node;
      const next = await data(
        `query($after: String) { ${customer}(where: { name: { _eq: "Acme" } }) { edges { node {
          invoices(where: { amount: { _gte: 50 } }, order_by: [{ amount: desc }], first: 3, after: $after) { edges { node { amount } } }
        } } } }`,
        { variables: { after: node.top.pageInfo.endCursor } },
      );

      expect(node.top.totalCount).toBe(7);
      expect(node.top.edges.map((edge: { node: { amount: number } }) => edge.node.amount)).toEqual([
        110, 100, 90,
      ]);
      expect(node.top.pageInfo.hasNextPage).toBe(true);
      expect(ids(node.tail)).toEqual(invoices.slice(10, 12));
      expect(
        next[customer].edges[0].node.invoices.edges.map(
          (edge: { node: { amount: number } }) => edge.node.amount,
        ),
      ).toEqual([80, 70, 60]);
    });

    it('filters by a related record, both ways', async () => {
      const result = await data(`{
        byCustomer: ${invoice}(where: { customer: { name: { _eq: "Globex" } } }) { edges { node { number } } }
        byInvoice: ${customer}(where: { invoices: { number: { _eq: "N-3" } } }) { edges { node { name } } }
        without: ${invoice}(where: { _not: { customer: {} } }) { totalCount }
      }`);

      expect(result.byCustomer.edges).toEqual([{ node: { number: 'G-1' } }]);
      expect(result.byInvoice.edges).toEqual([{ node: { name: 'Acme' } }]);
      expect(result.without.totalCount).toBe(0);
    });

    it('adds nothing for a hidden side, neither a field nor a filter', async () => {
      const task = await define('task', { title: { type: 'string' } });
      const project = await define('project', { title: { type: 'string' } });
      await relate(
        { definition_slug: task, cardinality: 'ONE', slug: 'tasks', is_hidden: true },
        { definition_slug: project, cardinality: 'MANY', slug: 'project' },
      );

      const projectFields = await fieldsOf(project);
      const projectFilter = await fieldsOf(`${project}Filter`);
      const taskFields = await fieldsOf(task);

      expect(Object.keys(projectFields)).not.toContain('tasks');
      expect(Object.keys(projectFilter)).not.toContain('tasks');
      expect(taskFields.project).toBe(project);
    });

    it('gives a self-relation both fields on one type', async () => {
      const employee = await define('employee', { name: { type: 'string' } });
      const reports = await relate(
        { definition_slug: employee, cardinality: 'ONE', slug: 'reports' },
        { definition_slug: employee, cardinality: 'MANY', slug: 'manager' },
      );
      const boss = await create(employee, { name: 'Boss' });
      const worker = await create(employee, { name: 'Worker' });
      await associate(reports, worker.id, boss.id);

      const result = await data(`{
        ${employee}(order_by: [{ name: asc }]) { edges { node { name manager { name } reports { edges { node { name } } } } } }
      }`);

      expect(result[employee].edges.map((edge: { node: unknown }) => edge.node)).toEqual([
        { name: 'Boss', manager: null, reports: { edges: [{ node: { name: 'Worker' } }] } },
        { name: 'Worker', manager: { name: 'Boss' }, reports: { edges: [] } },
      ]);
    });
  });

  describe('access', () => {
    it('answers a type the caller cannot read with an empty connection and a null to-one, the rest still running', async () => {
      // Prepare: a PROTECTED type with an empty matrix, linked from a STANDARD one.
      const secret = await define('secret', { code: { type: 'string' } }, { access_class: 'PROTECTED' });
      const note = await define('note', { text: { type: 'string' } });
      const relationId = await relate(
        { definition_slug: note, cardinality: 'ONE', slug: 'notes' },
        { definition_slug: secret, cardinality: 'MANY', slug: 'secret' },
      );
      const hidden = await create(secret, { code: 'S-1' });
      const visible = await create(note, { text: 'hello' });
      await associate(relationId, visible.id, hidden.id);
      const matrix = await call('PUT', `/api/v2/custom-objects/definitions/${secret}/permissions`, {
        token: admin,
        body: { entries: [] },
      });
      expect(matrix.status, matrix.text).toBe(200);
      const query = `{
        ${secret} { totalCount edges { node { code } } pageInfo { hasNextPage } }
        ${note} { edges { node { text secret { code } } } }
        filtered: ${note}(where: { secret: { code: { _eq: "S-1" } } }) { totalCount }
      }`;

      // Act
      const asTechnician = await data(query, { token: technician });
      const asAdmin = await data(query, { token: admin });

      // Assess
      expect(asTechnician[secret]).toEqual({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false } });
      expect(asTechnician[note].edges).toEqual([{ node: { text: 'hello', secret: null } }]);
      expect(asTechnician.filtered.totalCount).toBe(0);
      expect(asAdmin[secret].totalCount).toBe(1);
      expect(asAdmin[note].edges).toEqual([{ node: { text: 'hello', secret: { code: 'S-1' } } }]);
      expect(asAdmin.filtered.totalCount).toBe(1);
    });

    it('keeps the unreadable type in the schema of the caller', async () => {
      const secret = await define('vault', { code: { type: 'string' } }, { access_class: 'PROTECTED' });
      const { schema } = await servedSchema(technician);
      expect(schema.getType(secret)).toBeDefined();
    });
  });

  describe('changes', () => {
    it('shows a definition change in the next query', async () => {
      // Prepare
      const slug = await define('changing', { name: { type: 'string' } });
      await create(slug, { name: 'one' });
      const before = await gql(`{ ${slug} { edges { node { name color } } } }`);

      // Act
      const patch = await call('PATCH', `/api/v2/custom-objects/definitions/${slug}`, {
        token: admin,
        body: { properties: { color: { type: 'string' } } },
      });
      const after = await data(`{ ${slug} { edges { node { name color } } } }`);
      const sdl = await servedSchema();

      // Assess
      expect(patch.status, patch.text).toBe(200);
      expect(codes(before)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(after[slug].edges).toEqual([{ node: { name: 'one', color: null } }]);
      expect(sdl.sdl).toMatch(new RegExp(`type ${slug} \\{[^}]*color: String`));
    });

    it('follows a rename and a deletion', async () => {
      const slug = await define('renamed', { name: { type: 'string' } });
      const next = unique('renamed');
      await call('PATCH', `/api/v2/custom-objects/definitions/${slug}`, {
        token: admin,
        body: { slug: next },
      });
      const renamed = await servedSchema();
      await call('DELETE', `/api/v2/custom-objects/definitions/${next}`, { token: admin });
      const deleted = await servedSchema();

      expect(renamed.schema.getType(slug)).toBeUndefined();
      expect(renamed.schema.getType(next)).toBeDefined();
      expect(deleted.schema.getType(next)).toBeUndefined();
    });
  });

  describe('limits and errors', () => {
    let invoice: string;
    let customer: string;

    beforeAll(async () => {
      invoice = await define('limited', { number: { type: 'string' } });
      customer = await define('client', { name: { type: 'string' } });
      await relate(
        { definition_slug: invoice, cardinality: 'MANY', slug: 'invoices' },
        { definition_slug: customer, cardinality: 'MANY', slug: 'clients' },
      );
    });

    it('refuses a query deeper than 12 levels with DEPTH_LIMIT_EXCEEDED', async () => {
      const deep = `{ ${invoice}(first: 1) { edges { node { clients(first: 1) { edges { node { invoices(first: 1) { edges { node { clients(first: 1) { edges { node { id } } } } } } } } } } } } }`;
      const fits = `{ ${invoice} { edges { node { clients { edges { node { invoices { edges { node { id } } } } } } } } } }`;

      const refused = await gql(deep);
      const passed = await gql(fits);

      expect(refused.status).toBe(200);
      expect(codes(refused)).toEqual(['DEPTH_LIMIT_EXCEEDED']);
      expect(refused.errors?.[0]?.message).toContain('at most 12');
      expect(refused.data).toBeUndefined();
      expect(passed.errors).toBeUndefined();
    });

    it('refuses a query that may return too many records with COMPLEXITY_LIMIT_EXCEEDED', async () => {
      const answer = await gql(
        `{ ${invoice}(first: 1000) { edges { node { clients(first: 100) { edges { node { id } } } } } } }`,
      );
      expect(codes(answer)).toEqual(['COMPLEXITY_LIMIT_EXCEEDED']);
      expect(answer.errors?.[0]?.message).toContain('20000');
    });

    it('answers parse and validation errors with 200 for application/json and 400 for graphql-response+json', async () => {
      const parseJson = await gql('{ broken');
      const parseGraphql = await gql('{ broken', { accept: 'application/graphql-response+json' });
      const invalidGraphql = await gql('{ nope }', { accept: 'application/graphql-response+json' });
      const executed = await gql(`{ ${invoice}(first: 5000) { totalCount } }`, {
        accept: 'application/graphql-response+json',
      });

      expect(parseJson.status).toBe(200);
      expect(parseJson.contentType).toMatch(/^application\/json/);
      expect(codes(parseJson)).toEqual(['GRAPHQL_PARSE_FAILED']);
      expect(parseGraphql.status).toBe(400);
      expect(parseGraphql.contentType).toMatch(/^application\/graphql-response\+json/);
      expect(parseGraphql.body).not.toHaveProperty('data');
      expect(codes(invalidGraphql)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(invalidGraphql.status).toBe(400);
      expect(executed.status).toBe(200);
      expect(codes(executed)).toEqual(['BAD_USER_INPUT']);
    });

    it('runs the named operation and refuses an unknown one, and variables that do not fit', async () => {
      const document = `query A { ${invoice} { totalCount } } query B { ${customer} { totalCount } }`;
      const named = await data(document, { operationName: 'B' });
      const unknown = await gql(document, { operationName: 'C' });
      const badVariable = await gql(`query($n: Int) { ${invoice}(first: $n) { totalCount } }`, {
        variables: { n: 'many' },
        accept: 'application/graphql-response+json',
      });

      expect(Object.keys(named)).toEqual([customer]);
      expect(codes(unknown)).toEqual(['OPERATION_RESOLUTION_FAILURE']);
      expect(badVariable.status).toBe(400);
      expect(codes(badVariable)).toEqual(['BAD_USER_INPUT']);
    });

    it('has no mutations: the API is read only', async () => {
      const answer = await gql('mutation { anything }');
      expect(codes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    });

    it('answers a body without a query with a problem document', async () => {
      const response = await call('POST', '/api/v2/graphql', { token: admin, body: { variables: {} } });
      expect(response.status).toBe(422);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it.each([
      ['without a token', undefined, 'token_missing'],
      ['with a bad token', 'not-a-token', 'token_invalid'],
    ])('answers 401 problem documents %s, on both routes', async (_name, token, reason) => {
      const query = await call('POST', '/api/v2/graphql', { token, body: { query: '{ __typename }' } });
      const schema = await call('GET', '/api/v2/graphql/schema', { token });

      for (const response of [query, schema]) {
        expect(response.status).toBe(401);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({
          type: problemType('authentication-required'),
          data: { reason },
        });
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    });
  });

  describe('workspace isolation', () => {
    it("shows another workspace none of this one's types, and cannot read its records", async () => {
      // Prepare
      const mine = await define('private', { secret: { type: 'string' } });
      await create(mine, { secret: 'ours' });
      const theirs = await define('theirs', { note: { type: 'string' } }, {}, beta);

      // Act
      const betaSchema = await servedSchema(beta);
      const asBeta = await gql(`{ ${mine} { totalCount edges { node { secret } } } }`, { token: beta });
      const ownSchema = await servedSchema(admin);

      // Assess
      expect(betaSchema.schema.getType(mine)).toBeUndefined();
      expect(betaSchema.sdl).not.toContain(mine);
      expect(betaSchema.schema.getType(theirs)).toBeDefined();
      expect(codes(asBeta)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(ownSchema.schema.getType(theirs)).toBeUndefined();
    });

    it('shares nothing of the records of two workspaces with identical definitions', async () => {
      // The same slug and properties in both workspaces: one schema, each its own records.
      const slug = unique('twin');
      for (const token of [admin, beta]) {
        const response = await call('POST', '/api/v2/custom-objects/definitions', {
          token,
          body: { slug, title: 'Twin', type: 'object', properties: { owner: { type: 'string' } } },
        });
        expect(response.status, response.text).toBe(201);
      }
      await create(slug, { owner: 'cases' }, undefined, admin);
      await create(slug, { owner: 'beta' }, undefined, beta);

      const ours = await data(`{ ${slug} { edges { node { owner } } } }`, { token: admin });
      const theirs = await data(`{ ${slug} { edges { node { owner } } } }`, { token: beta });

      expect(ours[slug].edges).toEqual([{ node: { owner: 'cases' } }]);
      expect(theirs[slug].edges).toEqual([{ node: { owner: 'beta' } }]);
    });
  });
});
