/**
 * The rules of a GraphQL query that need no store: `where` and `order_by` as the data layer's
 * filter and order, connection windows and cursors, the depth and complexity limits, and the
 * response media type of GraphQL over HTTP.
 */
import { buildSchema, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { CustomObjectDefinition } from '../domain/custom-objects/definition.schema.ts';
import { graphqlResponseType, responseMediaType } from './execute.ts';
import { filterOf, inputTablesOf, orderOf, type RelatedIds } from './filters.ts';
import { limitErrors, maxComplexity } from './limits.ts';
import { cursorOf, resolveWindow, windowOf } from './paging.ts';
import { typeDefsOf } from './schema-builder.ts';
import { modelOf } from './schema-model.ts';

const definition = (
  slug: string,
  id: string,
  properties: Record<string, unknown>,
): CustomObjectDefinition => ({
  id,
  slug,
  title: slug,
  access_class: 'STANDARD',
  type: 'object',
  properties,
  created_at: '',
  updated_at: '',
  lock_version: 0,
});

const side = (definitionId: string, slug: string, cardinality: 'ONE' | 'MANY') => ({
  definition_id: definitionId,
  cardinality,
  required: false,
  slug,
  title: slug,
  is_hidden: false,
  translations: {},
});

const model = modelOf(
  [
    definition('invoice', 'i', {
      amount: { type: 'number' },
      status: { type: 'string', enum: ['OPEN', 'PAID'] },
      address: { type: 'object', properties: { city: { type: 'string' } } },
      'unit price': { type: 'number' },
    }),
    definition('customer', 'c', { name: { type: 'string' } }),
  ],
  [
    {
      id: 'r',
      a: side('i', 'invoices', 'ONE'),
      b: side('c', 'customer', 'MANY'),
      read_only: false,
      created_at: '',
      updated_at: '',
      lock_version: 0,
    },
  ],
);
const tables = inputTablesOf(model.shape);
const noRelations: RelatedIds = async () => {
  throw new Error('no relation expected');
};

describe('Function: filterOf', () => {
  it.each([
    ['_eq', 5],
    ['_neq', 5],
    ['_gt', 5],
    ['_gte', 5],
    ['_lt', 5],
    ['_lte', 5],
    ['_in', [1, 2]],
    ['_is_null', true],
  ])('turns %s into a condition on the property', async (op, value) => {
    expect(await filterOf(tables, 'invoiceFilter', { amount: { [op]: value } }, noRelations)).toEqual({
      field: 'amount',
      op,
      value,
    });
  });

  it('reads the stored name of a sanitized property and the dotted path of a nested one', async () => {
    const filter = await filterOf(
      tables,
      'invoiceFilter',
      { unit_price: { _gt: 1 }, address: { city: { _ilike: 'ber%' } } },
      noRelations,
    );
    expect(filter).toEqual({
      and: [
        { field: 'unit price', op: '_gt', value: 1 },
        { field: 'address.city', op: '_ilike', value: 'ber%' },
      ],
    });
  });

  it('combines _and, _or and _not, with empty lists meaning everything and nothing', async () => {
    const filter = await filterOf(
      tables,
      'invoiceFilter',
      { _and: [], _or: [{ status: { _in: ['OPEN'] } }, {}], _not: { amount: { _lt: 0 } } },
      noRelations,
    );
    expect(filter).toEqual({
      and: [
        { and: [] },
        { or: [{ field: 'status', op: '_in', value: ['OPEN'] }, { and: [] }] },
        { not: { field: 'amount', op: '_lt', value: 0 } },
      ],
    });
  });

  it('ignores operators given as null and normalizes created_at operands to the stored form', async () => {
    const filter = await filterOf(
      tables,
      'invoiceFilter',
      { amount: { _eq: null }, created_at: { _gte: '2026-05-01T12:00:00+02:00' } },
      noRelations,
    );
    expect(filter).toEqual({ field: 'created_at', op: '_gte', value: '2026-05-01T10:00:00.000Z' });
  });

  it('hands a relation condition to the lookup of related ids', async () => {
    const asked: unknown[] = [];
    const related: RelatedIds = async (relation, where) => {
      asked.push([relation, where]);
      return { link: { relationId: 'r', side: 'a' }, ids: new Set(['x']) };
    };
    const filter = await filterOf(tables, 'invoiceFilter', { customer: { name: { _eq: 'Acme' } } }, related);
    expect(asked).toEqual([
      [
        { kind: 'relation', source: 'invoice', field: 'customer', target: 'customer' },
        { name: { _eq: 'Acme' } },
      ],
    ]);
    expect(filter).toEqual({ link: { relationId: 'r', side: 'a' }, ids: new Set(['x']) });
  });

  it('answers undefined (everything) for an absent or empty where', async () => {
    expect(await filterOf(tables, 'invoiceFilter', undefined, noRelations)).toBeUndefined();
    expect(await filterOf(tables, 'invoiceFilter', {}, noRelations)).toBeUndefined();
  });
});

describe('Function: orderOf', () => {
  it('keeps the list order, reaches nested objects by path and lets a field count once', () => {
    expect(
      orderOf(tables, 'invoiceOrderBy', [
        { address: { city: 'desc' } },
        { amount: 'asc' },
        { address: { city: 'asc' } },
        { created_at: 'desc' },
      ]),
    ).toEqual([
      { field: 'address.city', direction: 'desc' },
      { field: 'amount', direction: 'asc' },
      { field: 'created_at', direction: 'desc' },
    ]);
  });

  it('answers the default for no order', () => {
    expect(orderOf(tables, 'invoiceOrderBy', undefined)).toEqual([]);
  });
});

describe('Function: windowOf', () => {
  it.each([
    [{}, 20, { start: 0, end: 20 }],
    [{}, 10, { start: 0, end: 10 }],
    [{ first: 5, offset: 3 }, 20, { start: 3, end: 8 }],
    [{ first: 5, after: cursorOf(9) }, 20, { start: 10, end: 15 }],
    [{ first: 5, after: cursorOf(9), offset: 2 }, 20, { start: 12, end: 17 }],
    [{ last: 3, before: cursorOf(10) }, 20, { start: 7, end: 10 }],
    [{ first: 10, last: 3 }, 20, { start: 7, end: 10 }],
    [{ after: cursorOf(2), before: cursorOf(5) }, 20, { start: 3, end: 5 }],
    [{ first: 0 }, 20, { start: 0, end: 0 }],
  ])('reads %j (default %i) as rows %j', (args, size, expected) => {
    expect(resolveWindow(windowOf(args, size))).toEqual(expected);
  });

  it('needs the total for last without before, and ends at it', () => {
    const window = windowOf({ last: 4 }, 20);
    expect(window.needsTotal).toBe(true);
    expect(resolveWindow(window, 25)).toEqual({ start: 21, end: 25 });
    expect(resolveWindow(window, 2)).toEqual({ start: 0, end: 2 });
  });

  it.each([
    [{ first: 1001 }, 'first must be between 0 and 1000'],
    [{ last: -1 }, 'last must be between 0 and 1000'],
    [{ offset: -2 }, 'offset must be 0 or more'],
    [{ after: 'bm9wZQ==' }, 'after is not a cursor'],
    [{ before: 'not base64 at all' }, 'before is not a cursor'],
  ])('refuses %j with BAD_USER_INPUT', (args, message) => {
    expect(() => windowOf(args, 20)).toThrow(message);
    try {
      windowOf(args, 20);
    } catch (error) {
      expect((error as { extensions: unknown }).extensions).toEqual({ code: 'BAD_USER_INPUT' });
    }
  });
});

describe('Function: limitErrors', () => {
  const schema = buildSchema(typeDefsOf(model.shape));
  const check = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    const operation = document.definitions.find(
      (one): one is OperationDefinitionNode => one.kind === Kind.OPERATION_DEFINITION,
    );
    if (!operation) throw new Error('no operation');
    const fragments = new Map(
      document.definitions
        .filter((one): one is FragmentDefinitionNode => one.kind === Kind.FRAGMENT_DEFINITION)
        .map((one) => [one.name.value, one]),
    );
    return limitErrors({
      schema,
      operation,
      fragments,
      variables,
      isConnection: (name) => name.endsWith('Connection'),
      isNode: (name) => name === 'invoice' || name === 'customer',
    }).map((error) => error.extensions?.code);
  };
  const nest = (levels: number): string => {
    let inner = 'id';
    for (let level = 0; level < levels; level++) {
      inner = level % 2 === 0 ? `customer { invoices(first: 1) { edges { node { ${inner} } } } }` : inner;
    }
    return inner;
  };

  it('passes 1,000 rows with a to-one relation and three nested connections', () => {
    expect(check('{ invoice(first: 1000) { totalCount edges { node { id customer { name } } } } }')).toEqual(
      [],
    );
    expect(
      check(
        '{ customer { edges { node { invoices { edges { node { customer { invoices { edges { node { id } } } } } } } } } } }',
      ),
    ).toEqual([]);
  });

  it('refuses a query deeper than 12 levels, fragments included', () => {
    expect(check(`{ invoice(first: 1) { edges { node { ${nest(5)} } } } }`)).toContain(
      'DEPTH_LIMIT_EXCEEDED',
    );
    expect(
      check(
        `{ invoice(first: 1) { ...deep } } fragment deep on invoiceConnection { edges { node { ${nest(5)} } } }`,
      ),
    ).toContain('DEPTH_LIMIT_EXCEEDED');
  });

  it('refuses a query that may return more than the complexity budget, with variables', () => {
    expect(maxComplexity).toBe(20_000);
    const query =
      'query($n: Int) { customer(first: $n) { edges { node { invoices(first: 1000) { edges { node { id } } } } } } }';
    expect(check(query, { n: 19 })).toEqual([]);
    expect(check(query, { n: 21 })).toEqual(['COMPLEXITY_LIMIT_EXCEEDED']);
  });

  it('does not count introspection', () => {
    expect(
      check('{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }'),
    ).toEqual([]);
  });
});

describe('Function: responseMediaType', () => {
  it.each([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    [graphqlResponseType, graphqlResponseType],
    [`${graphqlResponseType}, application/json;q=0.9`, graphqlResponseType],
    [`application/json, ${graphqlResponseType};q=0.5`, 'application/json'],
    ['text/html', 'application/json'],
  ])('answers %s with %s', (accept, expected) => {
    expect(responseMediaType(accept)).toBe(expected);
  });
});
