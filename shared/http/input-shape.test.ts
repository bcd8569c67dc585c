/**
 * Strict input (API-DECISIONS.md): a body key the operation does not know is a 422 naming it,
 * with the key the caller probably meant; an array past its maximum is refused without reading
 * its elements; every detail is in the service's words, and a 422 lists a bounded number of
 * errors.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { problemOf } from '../../test/support/problem-of.ts';
import { lockVersion, text, uuid } from '../schema/fields.ts';
import { nearestKey } from './input-shape.ts';
import { maxFieldErrors, parseOrThrow } from './validation.ts';

const Stop = z.object({ case_id: uuid(), note: text().optional() });
const Body = z.object({
  title: text(),
  kind: z.enum(['INTERNAL', 'EXTERNAL']).optional(),
  owner_id: uuid().optional(),
  stops: z.array(Stop).max(3).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  payload: z.looseObject({ version: z.int() }).optional(),
  lock_version: lockVersion(),
});

const caseId = '0190b6a2-7c1e-7a3b-9f00-1234567890ab';

describe('Function: parseOrThrow (strict input)', () => {
  it('refuses a key the operation does not know, suggesting the one a small edit away', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, { titel: 'Boiler' }, 'body'));

    // Assess
    expect(problem.status).toBe(422);
    expect(problem.init.errors).toContainEqual({
      type: 'field-unknown',
      pointer: '#/titel',
      detail: 'is not a field of this operation; did you mean title?',
      data: { suggestion: 'title' },
    });
  });

  it('also reports the missing field the unknown key was meant to be', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, { titel: 'Boiler' }, 'body'));

    // Assess
    expect(problem.init.errors?.map((e) => [e.type, e.pointer])).toEqual([
      ['field-unknown', '#/titel'],
      ['field-required', '#/title'],
    ]);
  });

  it('refuses unknown keys inside nested objects and array elements, at their pointers', () => {
    // Act
    const problem = problemOf(() =>
      parseOrThrow(Body, { title: 'x', stops: [{ case_id: caseId, state: 'DONE' }] }, 'body'),
    );

    // Assess
    expect(problem.init.errors).toEqual([
      expect.objectContaining({ type: 'field-unknown', pointer: '#/stops/0/state' }),
    ]);
  });

  it('reads a camelCase spelling of a snake_case key as a suggestion', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, { title: 'x', lockVersion: 2 }, 'body'));

    // Assess
    expect(problem.init.errors).toEqual([
      expect.objectContaining({ pointer: '#/lockVersion', data: { suggestion: 'lock_version' } }),
    ]);
  });

  it('accepts any key where the schema is an open record or a loose object', () => {
    // Act
    const body = parseOrThrow(
      Body,
      { title: 'x', labels: { anything: 'goes' }, payload: { version: 1, extra: true } },
      'body',
    );

    // Assess
    expect(body).toMatchObject({ labels: { anything: 'goes' }, payload: { version: 1, extra: true } });
  });

  it('refuses an array past its maximum with one error, without validating its elements', () => {
    // Arrange
    const stops = Array.from({ length: 100_000 }, () => ({ case_id: 'not-a-uuid' }));

    // Act
    const problem = problemOf(() => parseOrThrow(Body, { title: 'x', stops }, 'body'));

    // Assess
    expect(problem.init.errors).toEqual([
      {
        type: 'field-invalid',
        pointer: '#/stops',
        detail: 'must hold at most 3 items; it holds 100000',
        data: { max_items: 3, items: 100_000 },
      },
    ]);
  });

  it(`lists at most ${maxFieldErrors} errors and says in data that it left some out`, () => {
    // Arrange
    const Wide = z.object({ ids: z.array(uuid()).max(10_000) });
    const ids = Array.from({ length: 5_000 }, (_, i) => `bad-${i}`);

    // Act
    const problem = problemOf(() => parseOrThrow(Wide, { ids }, 'body'));

    // Assess
    expect(problem.init.errors).toHaveLength(maxFieldErrors);
    expect(problem.init.data).toEqual({
      errors_truncated: true,
      errors_listed: maxFieldErrors,
      errors_total: 5_000,
    });
  });

  it('answers a blank enumeration value and a blank uuid as field-required', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, { title: 'x', kind: ' ', owner_id: '' }, 'body'));

    // Assess
    expect(problem.type).toBe('field-required');
    expect(problem.init.errors).toEqual([
      { type: 'field-required', pointer: '#/kind', detail: 'must not be blank' },
      { type: 'field-required', pointer: '#/owner_id', detail: 'must not be blank' },
    ]);
  });

  it.each([
    { title: 'a missing field', input: {}, pointer: '#/title', detail: 'is required' },
    {
      title: 'a wrong type',
      input: { title: 7 },
      pointer: '#/title',
      detail: 'must be a string, not an integer',
    },
    {
      title: 'a value outside a closed set',
      input: { title: 'x', kind: 'OTHER' },
      pointer: '#/kind',
      detail: 'must be one of "INTERNAL", "EXTERNAL"',
    },
    {
      title: 'a malformed uuid',
      input: { title: 'x', owner_id: 'abc' },
      pointer: '#/owner_id',
      detail: 'must be a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
    },
    {
      title: 'a fraction for an integer',
      input: { title: 'x', lock_version: 1.5 },
      pointer: '#/lock_version',
      detail: 'must be an integer, not a number',
    },
  ])('words $title in its own terms', ({ input, pointer, detail }) => {
    // Act
    const problem = problemOf(() => parseOrThrow(Body, input, 'body'));

    // Assess
    expect(problem.init.errors).toEqual([expect.objectContaining({ pointer, detail })]);
    expect(problem.message).not.toMatch(/Invalid input|expected|received/);
  });
});

describe('Function: nearestKey', () => {
  it.each([
    { key: 'titel', known: ['title', 'status'], expected: 'title' },
    { key: 'status', known: ['statuses', 'sort', 'search'], expected: 'statuses' },
    { key: 'statuse', known: ['status', 'statuses'], expected: undefined },
    { key: 'Lock-Version', known: ['lock_version'], expected: 'lock_version' },
    { key: 'colour', known: ['color', 'name'], expected: 'color' },
    { key: 'zzz', known: ['title', 'status'], expected: undefined },
    { key: 'ab', known: ['ac', 'ad'], expected: undefined },
  ])('suggests $expected for $key', ({ key, known, expected }) => {
    expect(nearestKey(key, known)).toBe(expected);
  });
});
