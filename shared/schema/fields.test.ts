/**
 * The field conventions of SPEC.md written once in fields.ts: phone numbers with an explicit
 * country code normalised to E.164, colours, RFC 3339 timestamps normalised to UTC, texts that
 * are never blank.
 */
import { describe, expect, it } from 'vitest';
import { problemOf } from '../../test/support/problem-of.ts';
import { parseOrThrow } from '../http/validation.ts';
import { cssColor, dateTime, hexColor, lockVersion, text } from './fields.ts';
import { phoneNumber } from './phone-number.ts';

describe('Function: phoneNumber', () => {
  it.each([
    {
      title: 'normalises spaces, brackets and hyphens to E.164',
      input: '+49 (30) 1234-5678',
      expected: '+493012345678',
    },
    { title: 'keeps an E.164 number as it is', input: '+493012345678', expected: '+493012345678' },
    { title: 'normalises a US number', input: '+1 (202) 555-0143', expected: '+12025550143' },
    { title: 'ignores surrounding whitespace', input: ' +44 20 7946 0958 ', expected: '+442079460958' },
  ])('$title', ({ input, expected }) => {
    // Act
    const result = phoneNumber().safeParse(input);

    // Assess
    expect(result).toEqual({ success: true, data: expected });
  });

  it.each([
    { title: 'rejects a national number', input: '030 1234567', detail: /national/ },
    { title: 'rejects the 00 dial prefix', input: '0049 30 1234567', detail: /\(00\)/ },
    { title: 'rejects a country code alone', input: '+49', detail: /valid phone number/ },
    {
      title: 'rejects a number far too long',
      input: '+49 30 1234 5678 9012 3456',
      detail: /valid phone number/,
    },
    { title: 'rejects letters', input: '+49 thirty', detail: /valid phone number/ },
  ])('$title', ({ input, detail }) => {
    // Act
    const problem = problemOf(() => parseOrThrow(phoneNumber(), input, 'body'));

    // Assess
    expect(problem.status).toBe(422);
    expect(problem.type).toBe('validation-failed');
    expect(problem.init.errors).toEqual([expect.objectContaining({ type: 'field-invalid', pointer: '#' })]);
    expect(problem.init.errors?.[0]?.detail).toMatch(detail);
  });

  it('answers a blank phone number as field-required', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(phoneNumber(), '   ', 'body'));

    // Assess
    expect(problem.type).toBe('field-required');
  });
});

describe('Function: hexColor', () => {
  it.each([
    { title: 'accepts #rgb', value: '#abc' },
    { title: 'accepts #rgba in capitals', value: '#ABCD' },
    { title: 'accepts #rrggbb', value: '#1a2b3c' },
    { title: 'accepts #rrggbbaa', value: '#1a2b3c4d' },
  ])('$title', ({ value }) => {
    // Act
    const result = hexColor().safeParse(value);

    // Assess
    expect(result).toEqual({ success: true, data: value });
  });

  it.each([
    { title: 'rejects a value without #', value: '1a2b3c' },
    { title: 'rejects two digits', value: '#ab' },
    { title: 'rejects five digits', value: '#abcde' },
    { title: 'rejects seven digits', value: '#1a2b3c4' },
    { title: 'rejects nine digits', value: '#1a2b3c4d5' },
    { title: 'rejects non-hex digits', value: '#ggg' },
    { title: 'rejects a named colour', value: 'red' },
    { title: 'rejects an rgb() function', value: 'rgb(1, 2, 3)' },
    { title: 'rejects padding spaces', value: ' #abc' },
  ])('$title', ({ value }) => {
    // Act
    const result = hexColor().safeParse(value);

    // Assess
    expect(result.success).toBe(false);
  });
});

describe('Function: cssColor', () => {
  it.each([
    { title: 'accepts a hex colour', value: '#fff' },
    { title: 'accepts a named colour', value: 'red' },
    { title: 'accepts a named colour in any case', value: 'RebeccaPurple' },
    { title: 'accepts transparent', value: 'transparent' },
    { title: 'accepts rgb()', value: 'rgb(1, 2, 3)' },
    { title: 'accepts rgba()', value: 'rgba(1,2,3,0.5)' },
    { title: 'accepts hsl() with space syntax', value: 'hsl(120deg 50% 50%)' },
    { title: 'accepts hsla() with slash alpha', value: 'hsla(120 50% 50% / 0.5)' },
  ])('$title', ({ value }) => {
    // Act
    const result = cssColor().safeParse(value);

    // Assess
    expect(result.success).toBe(true);
  });

  it.each([
    { title: 'rejects an unknown name', value: 'notacolor' },
    { title: 'rejects an empty rgb()', value: 'rgb()' },
    { title: 'rejects words inside rgb()', value: 'rgb(a, b, c)' },
    { title: 'rejects other CSS functions', value: 'url(x)' },
    { title: 'rejects a bad hex colour', value: '#12' },
  ])('$title', ({ value }) => {
    // Act
    const result = cssColor().safeParse(value);

    // Assess
    expect(result.success).toBe(false);
  });
});

describe('Function: dateTime', () => {
  it.each([
    { title: 'keeps a UTC time in UTC', input: '2024-03-01T10:00:00Z', expected: '2024-03-01T10:00:00.000Z' },
    {
      title: 'normalises a positive offset to UTC',
      input: '2024-03-01T10:00:00+02:00',
      expected: '2024-03-01T08:00:00.000Z',
    },
    {
      title: 'normalises a negative offset with fractions to UTC',
      input: '2024-03-01T22:00:00.123-05:30',
      expected: '2024-03-02T03:30:00.123Z',
    },
    {
      title: 'reads a time without zone as UTC',
      input: '2024-03-01T10:00:00',
      expected: '2024-03-01T10:00:00.000Z',
    },
    {
      title: 'reads an unencoded + offset that query decoding turned into a space',
      input: '2024-03-01T12:00:00 02:00',
      expected: '2024-03-01T10:00:00.000Z',
    },
    {
      title: 'reads a time with fractions and no zone as UTC',
      input: '2024-12-31T23:59:59.5',
      expected: '2024-12-31T23:59:59.500Z',
    },
  ])('$title', ({ input, expected }) => {
    // Act
    const result = dateTime().safeParse(input);

    // Assess
    expect(result).toEqual({ success: true, data: expected });
  });

  it.each([
    { title: 'rejects garbage', input: 'yesterday' },
    { title: 'rejects a date alone', input: '2024-03-01' },
    { title: 'rejects a space instead of T', input: '2024-03-01 10:00:00Z' },
    { title: 'rejects month 13', input: '2024-13-01T10:00:00Z' },
    { title: 'rejects an hour-only offset', input: '2024-03-01T10:00:00+02' },
    { title: 'rejects a time without seconds', input: '2024-03-01T10:00Z' },
    { title: 'rejects a number', input: 1709287200000 },
  ])('$title', ({ input }) => {
    // Act
    const result = dateTime().safeParse(input);

    // Assess
    expect(result.success).toBe(false);
  });
});

describe('Function: text', () => {
  it.each([
    { title: 'a NUL character', value: 'a\u0000b' },
    { title: 'a bell character', value: 'ring\u0007' },
    { title: 'DEL', value: 'x\u007f' },
  ])('rejects text holding $title', ({ value }) => {
    expect(text().safeParse(value).success).toBe(false);
  });

  it('accepts tabs and line breaks in text', () => {
    expect(text().safeParse('line one\n\tline two\r\n').success).toBe(true);
  });

  it.each([
    { title: 'accepts a text at the default maximum of 255', options: {}, value: 'x'.repeat(255), ok: true },
    { title: 'rejects a text above the default maximum', options: {}, value: 'x'.repeat(256), ok: false },
    { title: 'accepts a text at a given maximum', options: { max: 10 }, value: 'x'.repeat(10), ok: true },
    { title: 'rejects a text above a given maximum', options: { max: 10 }, value: 'x'.repeat(11), ok: false },
    { title: 'rejects a text below a given minimum', options: { min: 3 }, value: 'ab', ok: false },
  ])('$title', ({ options, value, ok }) => {
    // Act
    const result = text(options).safeParse(value);

    // Assess
    expect(result.success).toBe(ok);
  });

  it('answers a too long text as field-invalid, not field-required', () => {
    // Act
    const problem = problemOf(() => parseOrThrow(text({ max: 3 }), 'abcd', 'body'));

    // Assess
    expect(problem.type).toBe('validation-failed');
    expect(problem.init.errors?.[0]?.type).toBe('field-invalid');
  });

  it('keeps inner and surrounding spaces of a text that is not blank', () => {
    // Act
    const result = text().safeParse('  North  East ');

    // Assess
    expect(result).toEqual({ success: true, data: '  North  East ' });
  });
});

describe('Function: lockVersion', () => {
  it.each([
    { title: 'accepts 0', value: 0, ok: true },
    { title: 'accepts null (last write wins)', value: null, ok: true },
    { title: 'accepts an omitted version', value: undefined, ok: true },
    { title: 'rejects a negative version', value: -1, ok: false },
    { title: 'rejects a fraction', value: 1.5, ok: false },
  ])('$title', ({ value, ok }) => {
    // Act
    const result = lockVersion().safeParse(value);

    // Assess
    expect(result.success).toBe(ok);
  });
});
