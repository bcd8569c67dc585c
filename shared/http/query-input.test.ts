/**
 * SPEC.md rule 2 for query strings: repeated plural keys for arrays, no literal commas in array
 * values, no commas at all in `sort`, singular keys given once, no parameter the route does not publish.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { pageParam, sizeParam, sortParam } from '../schema/query-params.ts';
import { queryObjectFor } from './query-input.ts';
import { parseQueryString } from './query-string.ts';

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
