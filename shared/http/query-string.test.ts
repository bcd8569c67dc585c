/**
 * parseQueryString keeps what API Gateway's `queryStringParameters` loses: repeated keys in
 * order, and whether a comma was literal (`a,b`) or encoded (`a%2Cb`), which SPEC.md rule 2 needs.
 */
import { describe, expect, it } from 'vitest';
import { parseQueryString } from './query-string.ts';

describe('Function: parseQueryString', () => {
  it('keeps repeated keys with their values in order', () => {
    // Act
    const query = parseQueryString('ids=a&size=5&ids=b&ids=c');

    // Assess
    expect(query.get('ids')?.map((v) => v.value)).toEqual(['a', 'b', 'c']);
    expect(query.get('size')?.map((v) => v.value)).toEqual(['5']);
  });

  const decodingCases = [
    { title: 'decodes + to a space', raw: 'q=new+york', key: 'q', value: 'new york' },
    {
      title: 'percent-decodes a value',
      raw: 'q=M%C3%BCller%20%26%20S%C3%B6hne',
      key: 'q',
      value: 'Müller & Söhne',
    },
    { title: 'percent-decodes a key', raw: 'created%5Ffrom=x', key: 'created_from', value: 'x' },
    { title: 'keeps an encoded + as a plus', raw: 'phone=%2B4930', key: 'phone', value: '+4930' },
    { title: 'reads a key without = as an empty value', raw: 'flag', key: 'flag', value: '' },
    { title: 'keeps an = inside the value', raw: 'q=a=b', key: 'q', value: 'a=b' },
    { title: 'keeps a malformed escape verbatim', raw: 'q=100%', key: 'q', value: '100%' },
    { title: 'keeps an invalid UTF-8 escape verbatim', raw: 'q=%E0%A4%A', key: 'q', value: '%E0%A4%A' },
  ];

  it.each(decodingCases)('$title', ({ raw, key, value }) => {
    // Act
    const query = parseQueryString(raw);

    // Assess
    expect(query.get(key)).toEqual([{ value, hasLiteralComma: false }]);
  });

  it('decodes %2C to a comma without flagging a literal comma', () => {
    // Act
    const query = parseQueryString('names=a%2Cb');

    // Assess
    expect(query.get('names')).toEqual([{ value: 'a,b', hasLiteralComma: false }]);
  });

  it('flags a literal comma in the raw value', () => {
    // Act
    const query = parseQueryString('names=a,b&names=c');

    // Assess
    expect(query.get('names')).toEqual([
      { value: 'a,b', hasLiteralComma: true },
      { value: 'c', hasLiteralComma: false },
    ]);
  });

  it('ignores empty parts between, before and after ampersands', () => {
    // Act
    const query = parseQueryString('&a=1&&b=2&');

    // Assess
    expect([...query.keys()]).toEqual(['a', 'b']);
    expect(query.get('a')?.[0]?.value).toBe('1');
    expect(query.get('b')?.[0]?.value).toBe('2');
  });

  it.each([
    { title: 'returns an empty query for undefined', raw: undefined },
    { title: 'returns an empty query for an empty string', raw: '' },
  ])('$title', ({ raw }) => {
    // Act
    const query = parseQueryString(raw);

    // Assess
    expect(query.size).toBe(0);
  });
});
