/**
 * What a custom-object definition may be when it is saved: a 422 that points at the field and
 * suggests a fix, never a GraphQL schema that breaks on the next query.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaErrors, slugErrors, slugPattern, suggestedSlug } from './definition-rules.ts';
import { graphqlName } from './graphql-names.ts';

const pointers = (errors: Array<{ pointer: string }>) => errors.map((error) => error.pointer);

describe('Function: graphqlName', () => {
  it('turns every character outside [_0-9A-Za-z] into _ and prefixes a leading digit', () => {
    expect(graphqlName('due-date')).toBe('due_date');
    expect(graphqlName('2nd line')).toBe('_2nd_line');
    expect(graphqlName('größe')).toBe('gr__e');
  });

  it('always yields a valid GraphQL name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (name) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(graphqlName(name))),
    );
  });
});

describe('Function: slugErrors', () => {
  it('accepts snake-case slugs', () => {
    expect(slugErrors('invoice', [])).toEqual([]);
    expect(slugErrors('work_order_2', ['invoice'])).toEqual([]);
  });

  it('refuses bad syntax and suggests a valid slug', () => {
    const [error] = slugErrors('Work Order', []);
    expect(error?.pointer).toBe('#/slug');
    expect(error?.detail).toContain('e.g. work_order');
  });

  it('takes GraphQL names case-sensitively: date and time are fine slugs beside the scalars Date and Time', () => {
    expect(slugErrors('date', [])).toEqual([]);
    expect(slugErrors('time', [])).toEqual([]);
  });

  it('suggests only slugs that are valid', () => {
    fc.assert(fc.property(fc.string(), (slug) => slugPattern.test(suggestedSlug(slug))));
  });
});

describe('Function: schemaErrors', () => {
  const valid = {
    type: 'object',
    required: ['number'],
    properties: {
      number: { type: 'string', readOnly: true },
      amount: { type: 'number' },
      status: { type: 'string', enum: ['open', 'paid'] },
      due: { type: 'string', format: 'date' },
      lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      tags: { type: 'array' },
      'due-date': { type: 'string' },
      due_date: { type: 'string' },
    },
  };

  it('accepts the supported keywords, and two names that sanitize alike (only GraphQL loses one)', () => {
    expect(schemaErrors(valid)).toEqual([]);
  });

  it.each([
    [{ ...valid, type: 'array' }, ['#/type']],
    [{ type: 'object', properties: { a: { type: 'decimal' } } }, ['#/properties/a/type']],
    [{ type: 'object', properties: { a: { type: 'string', pattern: '^x' } } }, ['#/properties/a/pattern']],
    [{ type: 'object', properties: { a: { type: 'number', format: 'date' } } }, ['#/properties/a/format']],
    [{ type: 'object', properties: { a: { type: 'string', enum: [] } } }, ['#/properties/a/enum']],
    [
      { type: 'object', properties: { a: { type: 'string', enum: ['a-b', 'a_b'] } } },
      ['#/properties/a/enum/1'],
    ],
    [{ type: 'object', properties: { a: { type: 'string', enum: ['true'] } } }, ['#/properties/a/enum/0']],
    [{ type: 'object', properties: { id: { type: 'string' } } }, ['#/properties/id']],
    [{ type: 'object', properties: { 'created-at': { type: 'string' } } }, ['#/properties/created-at']],
    [{ type: 'object', required: ['missing'], properties: { a: { type: 'string' } } }, ['#/required/0']],
    [
      { type: 'object', properties: { a: { type: 'array', items: { type: 'array' } } } },
      ['#/properties/a/items/type'],
    ],
    [
      { type: 'object', properties: { 'a/b': { type: 'string', items: { type: 'string' } } } },
      ['#/properties/a~1b/items'],
    ],
  ])('refuses %j at %j', (definition, expected) => {
    expect(pointers(schemaErrors(definition))).toEqual(expected);
  });

  it('lets nested objects have a property named id (only the top level has system fields)', () => {
    const nested = {
      type: 'object',
      properties: { line: { type: 'object', properties: { id: { type: 'string' } } } },
    };
    expect(schemaErrors(nested)).toEqual([]);
  });

  it('refuses objects nested deeper than 5 levels', () => {
    let property: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 6; i++) property = { type: 'object', properties: { inner: property } };
    expect(schemaErrors({ type: 'object', properties: { deep: property } }).length).toBeGreaterThan(0);
  });
});
