/**
 * How a body or query that breaks its schema is answered (SPEC.md, Errors and rule 10): null,
 * missing or blank required values are `field-required`, a wrong JSON type or shape is
 * `field-type-invalid`, anything else `field-invalid`; pointers name the offending field.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { problemOf } from '../../test/support/problem-of.ts';
import { toPointer } from '../schema/field-error.ts';
import { hexColor, lockVersion, text, uuid } from '../schema/fields.ts';
import { parseOrThrow } from './validation.ts';

const ZipRange = z.object({ from: text({ max: 16 }), to: text({ max: 16 }) });

const Body = z.object({
  name: text(),
  description: text({ max: 20 }).nullable().optional(),
  color: hexColor().optional(),
  count: z.number().optional(),
  kind: z.enum(['INTERNAL', 'EXTERNAL']).optional(),
  tag_ids: z.array(uuid()).optional(),
  zip_ranges: z.array(ZipRange).optional(),
  lock_version: lockVersion(),
});

const tagId = '0190b6a2-7c1e-7a3b-9f00-1234567890ab';

describe('Function: parseOrThrow', () => {
  it('returns the parsed value when the input is valid', () => {
    // Act
    const body = parseOrThrow(Body, { name: 'North', lock_version: null, tag_ids: [tagId] }, 'body');

    // Assess
    expect(body).toEqual({ name: 'North', lock_version: null, tag_ids: [tagId] });
  });

  const requiredCases = [
    { title: 'answers a missing required field as field-required', input: {}, pointer: '#/name' },
    { title: 'answers null on a required field as field-required', input: { name: null }, pointer: '#/name' },
    { title: 'answers an empty string as field-required', input: { name: '' }, pointer: '#/name' },
    {
      title: 'answers a whitespace-only string as field-required',
      input: { name: ' \t\n' },
      pointer: '#/name',
    },
    {
      title: 'answers a blank string on a clearable field as field-required, not as a clear',
      input: { name: 'x', description: '   ' },
      pointer: '#/description',
    },
    {
      title: 'answers null on an enumeration as field-required',
      input: { name: 'x', kind: null },
      pointer: '#/kind',
    },
    {
      title: 'answers a missing nested field as field-required with its pointer',
      input: { name: 'x', zip_ranges: [{ from: '10115' }] },
      pointer: '#/zip_ranges/0/to',
    },
  ];

  it.each(requiredCases)('$title', ({ input, pointer }) => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, input, 'body'));

    // Assess
    expect(problem.status).toBe(422);
    expect(problem.type).toBe('field-required');
    expect(problem.init.errors).toEqual([expect.objectContaining({ type: 'field-required', pointer })]);
  });

  const typeCases = [
    {
      title: 'answers 1.5 for an integer as field-type-invalid',
      input: { lock_version: 1.5 },
      pointer: '#/lock_version',
    },
    {
      title: 'answers a numeric string for an integer as field-type-invalid',
      input: { lock_version: '3' },
      pointer: '#/lock_version',
    },
    {
      title: 'answers a string for a number as field-type-invalid',
      input: { count: '3' },
      pointer: '#/count',
    },
    {
      title: 'answers a number for a string as field-type-invalid',
      input: { color: 42 },
      pointer: '#/color',
    },
    {
      title: 'answers an object for an array as field-type-invalid',
      input: { tag_ids: {} },
      pointer: '#/tag_ids',
    },
    {
      title: 'answers a string for an array as field-type-invalid',
      input: { tag_ids: tagId },
      pointer: '#/tag_ids',
    },
    {
      title: 'answers a wrong item type with the item pointer',
      input: { tag_ids: [tagId, 7] },
      pointer: '#/tag_ids/1',
    },
    { title: 'answers an array for an object item', input: { zip_ranges: [[]] }, pointer: '#/zip_ranges/0' },
    {
      title: 'answers a wrong nested type with the nested pointer',
      input: { zip_ranges: [{ from: '1', to: 2 }] },
      pointer: '#/zip_ranges/0/to',
    },
  ];

  it.each(typeCases)('$title', ({ input, pointer }) => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, { name: 'x', ...input }, 'body'));

    // Assess
    expect(problem.status).toBe(422);
    expect(problem.type).toBe('field-type-invalid');
    expect(problem.init.errors).toEqual([expect.objectContaining({ type: 'field-type-invalid', pointer })]);
  });

  const invalidCases = [
    {
      title: 'answers a malformed uuid as field-invalid',
      input: { tag_ids: ['nope'] },
      pointer: '#/tag_ids/0',
    },
    {
      title: 'answers an unsupported enum value as field-invalid',
      input: { kind: 'OTHER' },
      pointer: '#/kind',
    },
    {
      title: 'answers a negative lock_version as field-invalid',
      input: { lock_version: -1 },
      pointer: '#/lock_version',
    },
    {
      title: 'answers a too long text as field-invalid',
      input: { description: 'x'.repeat(21) },
      pointer: '#/description',
    },
    { title: 'answers a bad colour as field-invalid', input: { color: 'blue' }, pointer: '#/color' },
  ];

  it.each(invalidCases)('$title', ({ input, pointer }) => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, { name: 'x', ...input }, 'body'));

    // Assess
    expect(problem.status).toBe(422);
    expect(problem.type).toBe('validation-failed');
    expect(problem.init.errors).toEqual([expect.objectContaining({ type: 'field-invalid', pointer })]);
  });

  const priorityCases = [
    {
      title: 'types the problem field-type-invalid when any field has a wrong type',
      input: { name: null, kind: 'OTHER', lock_version: 1.5 },
      type: 'field-type-invalid',
    },
    {
      title: 'types the problem field-required when fields are missing and otherwise invalid',
      input: { name: '  ', kind: 'OTHER' },
      type: 'field-required',
    },
    {
      title: 'types the problem validation-failed when every error is another rule',
      input: { name: 'x', kind: 'OTHER', color: 'blue' },
      type: 'validation-failed',
    },
  ];

  it.each(priorityCases)('$title', ({ input, type }) => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, input, 'body'));

    // Assess
    expect(problem.type).toBe(type);
    expect(problem.status).toBe(422);
  });

  it('lists every failing field in errors, each with its own type and pointer', () => {
    // Act
    const problem = problemOf(() =>
      parseOrThrow(Body, { name: '', kind: 'OTHER', lock_version: 'one', tag_ids: [tagId, 'x'] }, 'body'),
    );

    // Assess
    expect(problem.init.errors?.map(({ type, pointer }) => ({ type, pointer }))).toEqual(
      expect.arrayContaining([
        { type: 'field-required', pointer: '#/name' },
        { type: 'field-invalid', pointer: '#/kind' },
        { type: 'field-type-invalid', pointer: '#/lock_version' },
        { type: 'field-invalid', pointer: '#/tag_ids/1' },
      ]),
    );
    expect(problem.init.errors).toHaveLength(4);
    expect(problem.init.detail).toContain('#/lock_version');
  });

  it('names no parameter for body fields', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, { name: 'x', count: 'many' }, 'body'));

    // Assess
    expect(problem.init.errors?.[0]).not.toHaveProperty('parameter');
  });

  it('names the parameter for query fields', () => {
    // Act
    const problem = problemOf(() =>
      parseOrThrow(z.object({ size: z.enum(['1', '2']) }), { size: '3' }, 'query'),
    );

    // Assess
    expect(problem.init.errors).toEqual([
      expect.objectContaining({ pointer: '#/query/size', parameter: 'size', data: { parameter: 'size' } }),
    ]);
  });

  it('points at the whole document when the root has the wrong type', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, 'a string', 'body'));

    // Assess
    expect(problem.type).toBe('field-type-invalid');
    expect(problem.init.errors).toEqual([
      expect.objectContaining({ type: 'field-type-invalid', pointer: '#' }),
    ]);
  });
});

describe('Function: toPointer', () => {
  it.each([
    { title: 'points at the root for an empty path', path: [], pointer: '#' },
    { title: 'joins keys and indexes', path: ['zip_ranges', 0, 'to'], pointer: '#/zip_ranges/0/to' },
    { title: 'escapes ~ and / in keys as RFC 6901 says', path: ['a/b', 'c~d'], pointer: '#/a~1b/c~0d' },
  ])('$title', ({ path, pointer }) => {
    // Act
    const result = toPointer(path);

    // Assess
    expect(result).toBe(pointer);
  });
});
