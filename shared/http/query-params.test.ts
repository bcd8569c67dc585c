/**
 * SPEC.md rule 2 and 3 for query strings: repeated plural keys for arrays, no literal commas in
 * array values, no commas at all in `sort`, singular keys given once, and paging bounds.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { problemOf } from '../../test/support/problem-of.ts';
import { pageParam, queryObjectFor, sizeParam, sortParam } from './query-params.ts';
import { parseQueryString } from './query-string.ts';
import { parseOrThrow } from './validation.ts';

const ListQuery = z.object({
  target_ids: z.array(z.string()).optional(),
  name: z.string().optional(),
  sort: sortParam(['name', 'created_at', 'id']),
  page: pageParam(),
  size: sizeParam(),
});

function shape(raw: string) {
  return queryObjectFor(ListQuery, parseQueryString(raw));
}

describe('Function: queryObjectFor', () => {
  it('turns repeated plural keys into an array in request order', () => {
    // Act
    const { input, errors } = shape('target_ids=b&target_ids=a&target_ids=c');

    // Assess
    expect(errors).toEqual([]);
    expect(input).toEqual({ target_ids: ['b', 'a', 'c'] });
  });

  it('turns a single plural key into a one-element array', () => {
    // Act
    const { input } = shape('target_ids=a');

    // Assess
    expect(input).toEqual({ target_ids: ['a'] });
  });

  it('accepts %2C inside an array value as a comma in that value', () => {
    // Act
    const { input, errors } = shape('target_ids=a%2Cb&target_ids=c');

    // Assess
    expect(errors).toEqual([]);
    expect(input).toEqual({ target_ids: ['a,b', 'c'] });
  });

  it('rejects a literal comma in an array value with an error naming the parameter', () => {
    // Act
    const { input, errors } = shape('target_ids=a&target_ids=b,c');

    // Assess
    expect(input).not.toHaveProperty('target_ids');
    expect(errors).toEqual([
      expect.objectContaining({
        type: 'field-invalid',
        parameter: 'target_ids',
        pointer: '#/query/target_ids/1',
      }),
    ]);
  });

  it.each([
    { title: 'rejects a literal comma in sort', raw: 'sort=name:asc,id:desc' },
    { title: 'rejects an encoded comma in sort', raw: 'sort=name:asc%2Cid:desc' },
    { title: 'rejects a comma in any repetition of sort', raw: 'sort=id:asc&sort=name,created_at' },
  ])('$title', ({ raw }) => {
    // Act
    const { input, errors } = shape(raw);

    // Assess
    expect(input).not.toHaveProperty('sort');
    expect(errors).toEqual([
      expect.objectContaining({ type: 'field-invalid', parameter: 'sort', pointer: '#/query/sort' }),
    ]);
  });

  it('keeps repeated sort keys as an array', () => {
    // Act
    const { input, errors } = shape('sort=name:desc&sort=id');

    // Assess
    expect(errors).toEqual([]);
    expect(input).toEqual({ sort: ['name:desc', 'id'] });
  });

  it.each([
    { title: 'rejects a repeated singular key', raw: 'name=a&name=b', parameter: 'name' },
    { title: 'rejects a repeated page', raw: 'page=1&page=2', parameter: 'page' },
  ])('$title', ({ raw, parameter }) => {
    // Act
    const { input, errors } = shape(raw);

    // Assess
    expect(input).not.toHaveProperty(parameter);
    expect(errors).toEqual([
      expect.objectContaining({ type: 'field-invalid', parameter, pointer: `#/query/${parameter}` }),
    ]);
  });

  it('passes a singular key with a literal comma through as one string', () => {
    // Act
    const { input, errors } = shape('name=Smith,+John');

    // Assess
    expect(errors).toEqual([]);
    expect(input).toEqual({ name: 'Smith, John' });
  });

  it('reports every rule violation of the query string at once', () => {
    // Act
    const { errors } = shape('target_ids=a,b&name=x&name=y&sort=a,b');

    // Assess
    expect(errors.map((e) => e.parameter).sort()).toEqual(['name', 'sort', 'target_ids']);
  });

  it('refuses each parameter the route does not declare, naming it under #/query', () => {
    // Act
    const { input, errors } = shape('unknown=1&unknown=2&other=a,b');

    // Assess
    expect(errors).toEqual([
      expect.objectContaining({
        type: 'field-unknown',
        pointer: '#/query/unknown',
        data: { parameter: 'unknown' },
      }),
      expect.objectContaining({
        type: 'field-unknown',
        pointer: '#/query/other',
        data: { parameter: 'other' },
      }),
    ]);
    expect(input).toEqual({});
  });

  it('suggests the published parameter a small edit away from an unknown one', () => {
    // Act
    const { errors } = shape('target_id=0190b6a2-7c1e-7a3b-9f00-1234567890ab');

    // Assess
    expect(errors).toEqual([
      expect.objectContaining({
        type: 'field-unknown',
        pointer: '#/query/target_id',
        data: { parameter: 'target_id', suggestion: 'target_ids' },
      }),
    ]);
  });

  it('refuses any parameter when the route has no query schema', () => {
    // Act
    const result = queryObjectFor(undefined, parseQueryString('page=1'));

    // Assess
    expect(result.input).toEqual({});
    expect(result.errors).toEqual([
      expect.objectContaining({ type: 'field-unknown', pointer: '#/query/page' }),
    ]);
  });
});

describe('Function: pageParam', () => {
  it.each([
    { title: 'accepts page 0', value: '0', expected: 0 },
    { title: 'accepts a large page', value: '12345', expected: 12345 },
    { title: 'accepts leading zeros', value: '007', expected: 7 },
  ])('$title', ({ value, expected }) => {
    // Act
    const result = pageParam().safeParse(value);

    // Assess
    expect(result).toEqual({ success: true, data: expected });
  });

  it.each([
    { title: 'rejects a negative page', value: '-1' },
    { title: 'rejects a decimal page', value: '1.5' },
    { title: 'rejects an exponent', value: '1e2' },
    { title: 'rejects a word', value: 'first' },
    { title: 'rejects an empty value', value: '' },
    { title: 'rejects a signed page', value: '+1' },
    { title: 'rejects padding spaces', value: ' 1' },
    { title: 'rejects a page beyond safe integers', value: '99999999999999999999' },
  ])('$title', ({ value }) => {
    // Act
    const result = pageParam().safeParse(value);

    // Assess
    expect(result.success).toBe(false);
  });

  it('leaves an absent page absent so the list applies its default', () => {
    // Act
    const result = pageParam().safeParse(undefined);

    // Assess
    expect(result).toEqual({ success: true, data: undefined });
  });
});

describe('Function: sizeParam', () => {
  it.each([
    { title: 'accepts the smallest size', value: '1', expected: 1 },
    { title: 'accepts the largest size', value: '100', expected: 100 },
  ])('$title', ({ value, expected }) => {
    // Act
    const result = sizeParam().safeParse(value);

    // Assess
    expect(result).toEqual({ success: true, data: expected });
  });

  it.each([
    { title: 'rejects size 0', value: '0' },
    { title: 'rejects size 101', value: '101' },
    { title: 'rejects a negative size', value: '-5' },
    { title: 'rejects a decimal size', value: '20.0' },
    { title: 'rejects a word', value: 'all' },
  ])('$title', ({ value }) => {
    // Act
    const result = sizeParam().safeParse(value);

    // Assess
    expect(result.success).toBe(false);
  });

  it('takes a different upper bound when an endpoint states one', () => {
    // Act
    const accepted = sizeParam(1000).safeParse('1000');
    const rejected = sizeParam(1000).safeParse('1001');

    // Assess
    expect(accepted).toEqual({ success: true, data: 1000 });
    expect(rejected.success).toBe(false);
  });

  it('leaves an absent size absent so the list applies its default', () => {
    // Act
    const result = sizeParam().safeParse(undefined);

    // Assess
    expect(result).toEqual({ success: true, data: undefined });
  });

  it('answers an out-of-range size as a 422 naming the parameter', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(ListQuery, { size: '101' }, 'query'));

    // Assess
    expect(problem.status).toBe(422);
    expect(problem.type).toBe('validation-failed');
    expect(problem.init.errors).toEqual([
      expect.objectContaining({ type: 'field-invalid', pointer: '#/query/size', parameter: 'size' }),
    ]);
  });
});

describe('Function: sortParam', () => {
  const sort = sortParam(['name', 'created_at']);

  it.each([
    { title: 'reads name:asc', values: ['name:asc'], expected: [{ field: 'name', direction: 'asc' }] },
    { title: 'reads name:desc', values: ['name:desc'], expected: [{ field: 'name', direction: 'desc' }] },
    {
      title: 'reads a bare field as ascending',
      values: ['name'],
      expected: [{ field: 'name', direction: 'asc' }],
    },
    {
      title: 'keeps several keys in order',
      values: ['created_at:desc', 'name'],
      expected: [
        { field: 'created_at', direction: 'desc' },
        { field: 'name', direction: 'asc' },
      ],
    },
  ])('$title', ({ values, expected }) => {
    // Act
    const result = sort.safeParse(values);

    // Assess
    expect(result).toEqual({ success: true, data: expected });
  });

  it.each([
    { title: 'rejects an unknown field', value: 'colour:asc' },
    { title: 'rejects a bad direction', value: 'name:up' },
    { title: 'rejects an upper-case direction', value: 'name:DESC' },
    { title: 'rejects an empty direction', value: 'name:' },
    { title: 'rejects an extra segment', value: 'name:asc:x' },
    { title: 'rejects an empty value as a missing one', value: '' },
  ])('$title', ({ value }) => {
    // Act
    const problem = problemOf(() => parseOrThrow(z.object({ sort }), { sort: ['name', value] }, 'query'));

    // Assess
    expect(problem.status).toBe(422);
    expect(problem.init.errors).toEqual([
      expect.objectContaining({
        type: value === '' ? 'field-required' : 'field-invalid',
        pointer: '#/query/sort/1',
        parameter: 'sort',
      }),
    ]);
  });

  it('leaves an absent sort absent so the list applies its default order', () => {
    // Act
    const result = sort.safeParse(undefined);

    // Assess
    expect(result).toEqual({ success: true, data: undefined });
  });
});
