/**
 * SPEC.md rule 3 and the sort rule of rule 2: paging bounds, `sort=<field>:<asc|desc>` with the
 * published fields only.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { problemOf } from '../../test/support/problem-of.ts';
import { parseOrThrow } from '../http/validation.ts';
import { pageParam, sizeParam, sortParam } from './query-params.ts';

const ListQuery = z.object({ page: pageParam(), size: sizeParam() });

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
