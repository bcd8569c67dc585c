/**
 * The generated schema of a workspace, from its definitions and relations (SPEC.md, "GraphQL API
 * (read only)"): names, scalar mapping, enums, readOnly, system fields, relation fields, nested
 * inputs, collisions and the shape hash that lets identical workspaces share one schema.
 */
import {
  assertValidSchema,
  buildSchema,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isObjectType,
  parse,
  printType,
  validate,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import type { CustomObjectDefinition } from '../domain/custom-objects/definition.schema.ts';
import type { StoredRelation, StoredRelationSide } from '../domain/custom-objects/relation.schema.ts';
import { typeDefsOf } from './schema-builder.ts';
import { modelOf } from './schema-model.ts';

let ids = 0;
function definition(
  slug: string,
  properties: Record<string, unknown>,
  id = `def-${++ids}`,
): CustomObjectDefinition {
  return {
    id,
    slug,
    title: slug,
    access_class: 'STANDARD',
    type: 'object',
    properties,
    created_at: '2026-05-01T10:00:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
    lock_version: 0,
  };
}

function side(
  definitionId: string,
  slug: string,
  cardinality: 'ONE' | 'MANY',
  extra: Partial<StoredRelationSide> = {},
): StoredRelationSide {
  return {
    definition_id: definitionId,
    cardinality,
    required: false,
    slug,
    title: slug,
    is_hidden: false,
    translations: {},
    ...extra,
  };
}

function relation(id: string, a: StoredRelationSide, b: StoredRelationSide): StoredRelation {
  return { id, a, b, read_only: false, created_at: '', updated_at: '', lock_version: 0 };
}

const invoiceProperties = {
  number: { type: 'string', readOnly: true },
  amount: { type: 'number' },
  quantity: { type: 'integer' },
  paid: { type: 'boolean' },
  status: { type: 'string', enum: ['OPEN', 'PAID', 'on-hold'] },
  external_id: { type: 'string', format: 'uuid' },
  due_on: { type: 'string', format: 'date' },
  due_at: { type: 'string', format: 'time' },
  sent_at: { type: 'string', format: 'date-time' },
  contact: { type: 'string', format: 'email' },
  tags: { type: 'array' },
  scores: { type: 'array', items: { type: 'number' } },
  lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
  address: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      geo: { type: 'object', properties: { lat: { type: 'number' } } },
    },
  },
};

/**
 * The SDL as compileSchema makes it executable, built here with the test's own graphql: under
 * vitest, @graphql-tools (loaded by Node) and this file (resolved by Vite, development build)
 * hold two copies of graphql, whose schema objects cannot be mixed. Execution is covered over
 * HTTP (test/integration/graphql.test.ts).
 */
function compiled(definitions: CustomObjectDefinition[], relations: StoredRelation[] = []) {
  const model = modelOf(definitions, relations);
  const sdl = typeDefsOf(model.shape);
  return { model, sdl, schema: buildSchema(sdl) };
}

const fieldType = (type: GraphQLObjectType | GraphQLInputObjectType, name: string) =>
  String(type.getFields()[name]?.type);

describe('Function: compileSchema', () => {
  describe('Method: scalar mapping', () => {
    const { schema } = compiled([definition('invoice', invoiceProperties)]);
    const invoice = schema.getType('invoice') as GraphQLObjectType;

    it.each([
      ['number', 'String!'],
      ['amount', 'Float'],
      ['quantity', 'Float'],
      ['paid', 'Boolean'],
      ['status', 'invoice_status'],
      ['external_id', 'ID'],
      ['due_on', 'Date'],
      ['due_at', 'Time'],
      ['sent_at', 'DateTime'],
      ['contact', 'String'],
      ['tags', '[String]'],
      ['scores', '[Float]'],
      ['lines', '[String]'],
      ['address', 'String'],
      ['id', 'ID!'],
      ['created_at', 'DateTime!'],
      ['updated_at', 'DateTime!'],
      ['lock_version', 'Float!'],
    ])('maps %s to %s', (field, type) => {
      expect(fieldType(invoice, field)).toBe(type);
    });

    it('builds a valid schema with no display-name field', () => {
      expect(() => assertValidSchema(schema)).not.toThrow();
      expect(Object.keys(invoice.getFields())).not.toContain('display_value');
    });

    it('names the enum <slug>_<field> with sanitized values', () => {
      const status = schema.getType('invoice_status');
      expect(isEnumType(status)).toBe(true);
      expect(isEnumType(status) && status.getValues().map((value) => value.name)).toEqual([
        'OPEN',
        'PAID',
        'on_hold',
      ]);
    });

    it('gives an enum field only _in with strings in the filter', () => {
      const filter = schema.getType('invoiceFilter') as GraphQLInputObjectType;
      const comparison = getNamedType(filter.getFields().status?.type) as GraphQLInputObjectType;
      expect(printType(comparison)).toContain('_in: [String!]');
      expect(Object.keys(comparison.getFields())).toEqual(['_in']);
    });

    it('types the connection, edge, pageInfo and totalCount Long', () => {
      const connection = schema.getType('invoiceConnection') as GraphQLObjectType;
      expect(fieldType(connection, 'edges')).toBe('[invoiceEdge!]!');
      expect(fieldType(connection, 'pageInfo')).toBe('PageInfo!');
      expect(fieldType(connection, 'totalCount')).toBe('Long!');
      const edge = schema.getType('invoiceEdge') as GraphQLObjectType;
      expect(fieldType(edge, 'cursor')).toBe('String!');
      expect(fieldType(edge, 'node')).toBe('invoice!');
    });

    it('gives the root field the connection arguments', () => {
      const root = schema.getQueryType()?.getFields().invoice;
      expect(String(root?.type)).toBe('invoiceConnection!');
      expect(root?.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
        'where: invoiceFilter',
        'order_by: [invoiceOrderBy!]',
        'first: Int',
        'after: String',
        'last: Int',
        'before: String',
        'offset: Int',
      ]);
    });
  });

  describe('Method: filter and order inputs', () => {
    const { schema } = compiled([definition('invoice', invoiceProperties)]);
    const filter = schema.getType('invoiceFilter') as GraphQLInputObjectType;
    const order = schema.getType('invoiceOrderBy') as GraphQLInputObjectType;

    it('filters system fields and properties, but not lock_version nor arrays of objects', () => {
      expect(Object.keys(filter.getFields())).toEqual([
        '_and',
        '_or',
        '_not',
        'id',
        'created_at',
        'updated_at',
        'number',
        'amount',
        'quantity',
        'paid',
        'status',
        'external_id',
        'due_on',
        'due_at',
        'sent_at',
        'contact',
        'tags',
        'scores',
        'address',
      ]);
      expect(fieldType(filter, '_and')).toBe('[invoiceFilter!]');
      expect(fieldType(filter, 'amount')).toBe('Float_comparison_exp');
      expect(fieldType(filter, 'sent_at')).toBe('DateTime_comparison_exp');
      expect(fieldType(filter, 'id')).toBe('ID_comparison_exp');
    });

    it('offers _ilike on strings only', () => {
      const comparison = (name: string) =>
        Object.keys((schema.getType(name) as GraphQLInputObjectType).getFields()).sort();
      expect(comparison('String_comparison_exp')).toContain('_ilike');
      expect(comparison('Float_comparison_exp')).not.toContain('_ilike');
      expect(comparison('Float_comparison_exp')).toEqual(
        ['_eq', '_gt', '_gte', '_in', '_is_null', '_lt', '_lte', '_neq'].sort(),
      );
    });

    it('sorts scalars and nested objects, not lists nor lock_version', () => {
      expect(Object.keys(order.getFields())).toEqual([
        'id',
        'created_at',
        'updated_at',
        'number',
        'amount',
        'quantity',
        'paid',
        'status',
        'external_id',
        'due_on',
        'due_at',
        'sent_at',
        'contact',
        'address',
      ]);
      expect(fieldType(order, 'amount')).toBe('OrderDirection');
    });

    it('names nested-object inputs <slug>_<field>Filter and <slug>_<field>OrderBy, recursively', () => {
      expect(fieldType(filter, 'address')).toBe('invoice_addressFilter');
      expect(fieldType(order, 'address')).toBe('invoice_addressOrderBy');
      const nested = schema.getType('invoice_addressFilter') as GraphQLInputObjectType;
      expect(fieldType(nested, 'city')).toBe('String_comparison_exp');
      expect(fieldType(nested, 'geo')).toBe('invoice_address_geoFilter');
      expect(isInputObjectType(schema.getType('invoice_address_geoOrderBy'))).toBe(true);
    });

    it('puts no generated type but the definitions at the root', () => {
      expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toEqual(['invoice']);
    });
  });

  describe('Method: names', () => {
    it('sanitizes property names and keeps one of two that collide, silently: the one spelled as GraphQL spells it', () => {
      const { schema } = compiled([
        definition('part', {
          'unit price': { type: 'number' },
          unit_price: { type: 'string' },
          '9lives': { type: 'boolean' },
          'a.b': { type: 'string' },
        }),
      ]);
      const part = schema.getType('part') as GraphQLObjectType;
      expect(fieldType(part, 'unit_price')).toBe('String');
      expect(fieldType(part, '_9lives')).toBe('Boolean');
      expect(fieldType(part, 'a_b')).toBe('String');
      expect(Object.keys(part.getFields())).toHaveLength(4 + 3);
    });

    it.each([
      ['in one order', { 'a-b': { type: 'number' }, 'a b': { type: 'boolean' } }],
      ['in the other', { 'a b': { type: 'boolean' }, 'a-b': { type: 'number' } }],
    ])(
      'picks the same one of two colliding properties whatever order the store keeps (%s)',
      (_order, properties) => {
        const { schema } = compiled([definition('part', properties)]);
        // Neither is spelled `a_b`: the smaller name in code-unit order (`a b`) wins.
        expect(fieldType(schema.getType('part') as GraphQLObjectType, 'a_b')).toBe('Boolean');
      },
    );

    it('skips a property whose name GraphQL reserves, and a filter field named like an operator', () => {
      const { schema } = compiled([
        definition('thing', { __secret: { type: 'string' }, _and: { type: 'string' } }),
      ]);
      const thing = schema.getType('thing') as GraphQLObjectType;
      expect(Object.keys(thing.getFields())).toEqual([
        'id',
        'created_at',
        'updated_at',
        'lock_version',
        '_and',
      ]);
      expect(fieldType(schema.getType('thingFilter') as GraphQLInputObjectType, '_and')).toBe(
        '[thingFilter!]',
      );
    });

    it('makes an enum whose name another definition takes a String, and builds', () => {
      const { schema } = compiled([
        definition('invoice', { status: { type: 'string', enum: ['OPEN'] } }),
        definition('invoice_status', { label: { type: 'string' } }),
      ]);
      expect(isObjectType(schema.getType('invoice_status'))).toBe(true);
      expect(fieldType(schema.getType('invoice') as GraphQLObjectType, 'status')).toBe('String');
    });

    it('skips the later of two definitions whose generated types collide', () => {
      const { schema } = compiled([
        definition('order', {}),
        definition('orderEdge', {}), // not a valid slug today; the generator must not fail anyway
      ]);
      expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toEqual(['order']);
    });
  });

  describe('Method: relations', () => {
    const invoice = definition('invoice', { number: { type: 'string' } }, 'inv');
    const customer = definition('customer', { name: { type: 'string' } }, 'cus');
    const employee = definition('employee', { name: { type: 'string' } }, 'emp');

    it('adds a to-one field on the ONE side and a connection on the MANY side, named by the other side', () => {
      const { schema, model } = compiled(
        [invoice, customer],
        [relation('r1', side('inv', 'invoices', 'ONE'), side('cus', 'customer', 'MANY'))],
      );
      const invoiceType = schema.getType('invoice') as GraphQLObjectType;
      const customerType = schema.getType('customer') as GraphQLObjectType;
      expect(fieldType(invoiceType, 'customer')).toBe('customer');
      expect(invoiceType.getFields().customer?.args).toEqual([]);
      expect(fieldType(customerType, 'invoices')).toBe('invoiceConnection!');
      expect(customerType.getFields().invoices?.args.map((arg) => arg.name)).toEqual([
        'where',
        'order_by',
        'first',
        'after',
        'last',
        'before',
        'offset',
      ]);
      expect(fieldType(schema.getType('invoiceFilter') as GraphQLInputObjectType, 'customer')).toBe(
        'customerFilter',
      );
      expect(model.links.get('invoice.customer')).toEqual({ relationId: 'r1', side: 'a' });
      expect(model.links.get('customer.invoices')).toEqual({ relationId: 'r1', side: 'b' });
    });

    it('adds nothing for a hidden side, neither in the type nor in the filter', () => {
      const { schema } = compiled(
        [invoice, customer],
        [
          relation(
            'r1',
            side('inv', 'invoices', 'ONE', { is_hidden: true }),
            side('cus', 'customer', 'MANY'),
          ),
        ],
      );
      expect(Object.keys((schema.getType('customer') as GraphQLObjectType).getFields())).not.toContain(
        'invoices',
      );
      expect(
        Object.keys((schema.getType('customerFilter') as GraphQLInputObjectType).getFields()),
      ).not.toContain('invoices');
      expect(fieldType(schema.getType('invoice') as GraphQLObjectType, 'customer')).toBe('customer');
    });

    it('gives a self-relation both fields on one type', () => {
      const { schema } = compiled(
        [employee],
        [relation('r2', side('emp', 'reports', 'ONE'), side('emp', 'manager', 'MANY'))],
      );
      const type = schema.getType('employee') as GraphQLObjectType;
      expect(fieldType(type, 'manager')).toBe('employee');
      expect(fieldType(type, 'reports')).toBe('employeeConnection!');
    });

    it('skips a relation field whose name a property has', () => {
      const { schema } = compiled(
        [invoice, customer],
        [relation('r1', side('inv', 'invoices', 'ONE'), side('cus', 'number', 'MANY'))],
      );
      expect(fieldType(schema.getType('invoice') as GraphQLObjectType, 'number')).toBe('String');
    });
  });

  describe('Method: placeholder and sharing', () => {
    it('serves only _empty: String to a workspace without definitions', () => {
      const { schema } = compiled([]);
      expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toEqual(['_empty']);
      expect(String(schema.getQueryType()?.getFields()._empty?.type)).toBe('String');
      expect(Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__'))).toEqual(
        expect.not.arrayContaining(['PageInfo', 'Long']),
      );
    });

    it('gives identical workspaces one hash whatever their ids and versions, and another shape another hash', () => {
      const one = modelOf(
        [definition('invoice', invoiceProperties, 'a1'), definition('customer', {}, 'a2')],
        [relation('x', side('a1', 'invoices', 'ONE'), side('a2', 'customer', 'MANY'))],
      );
      const two = modelOf(
        [
          { ...definition('customer', {}, 'b2'), lock_version: 7, updated_at: '2027-01-01T00:00:00.000Z' },
          definition('invoice', invoiceProperties, 'b1'),
        ],
        [relation('y', side('b1', 'invoices', 'ONE'), side('b2', 'customer', 'MANY'))],
      );
      const three = modelOf([definition('invoice', { ...invoiceProperties, extra: { type: 'string' } })], []);
      expect(two.hash).toBe(one.hash);
      expect(three.hash).not.toBe(one.hash);
      expect(two.links.get('invoice.customer')?.relationId).toBe('y');
    });

    it('validates queries against its SDL', () => {
      const { sdl } = compiled(
        [
          definition('invoice', invoiceProperties, 'i'),
          definition('customer', { name: { type: 'string' } }, 'c'),
        ],
        [relation('r', side('i', 'invoices', 'ONE'), side('c', 'customer', 'MANY'))],
      );
      const schema = buildSchema(sdl);
      const valid = parse(`{
        invoice(where: { _or: [{ amount: { _gt: 10 } }, { status: { _in: ["OPEN"] } }], customer: { name: { _ilike: "a%" } } },
                order_by: [{ address: { city: desc } }, { amount: asc }], first: 5, after: "b2Zmc2V0OjA=") {
          totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          edges { cursor node { id number status customer { name invoices(first: 2) { totalCount } } } }
        }
      }`);
      const invalid = parse('{ invoice(where: { status: { _eq: "OPEN" } }) { totalCount } }');
      expect(validate(schema, valid)).toEqual([]);
      expect(
        validate(schema, invalid)
          .map((error) => error.message)
          .join(),
      ).toContain('_eq');
    });

    it('writes the placeholder SDL', () => {
      expect(typeDefsOf(modelOf([], []).shape)).toBe('type Query {\n  _empty: String\n}\n');
    });
  });
});
