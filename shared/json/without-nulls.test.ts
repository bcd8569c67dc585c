/** SPEC.md "Absent values": answers never carry `"field": null`, except in previous_attributes. */
import { describe, expect, it } from 'vitest';
import { stringifyWithoutNulls, withoutNullKeys } from './without-nulls.ts';

describe('Function: stringifyWithoutNulls', () => {
  it('omits null-valued keys at every depth', () => {
    expect(stringifyWithoutNulls({ a: null, b: { c: null, d: 1 }, e: [{ f: null }] })).toBe(
      '{"b":{"d":1},"e":[{}]}',
    );
  });

  it('keeps array elements in their places', () => {
    expect(stringifyWithoutNulls({ values: [1, null, 3] })).toBe('{"values":[1,null,3]}');
  });

  it('keeps the nulls of previous_attributes, which say a value used to be empty', () => {
    const entry = {
      data: { object: { description: null, name: 'B' }, previous_attributes: { description: null } },
    };

    expect(stringifyWithoutNulls(entry)).toBe(
      '{"data":{"object":{"name":"B"},"previous_attributes":{"description":null}}}',
    );
  });
});

describe('Function: withoutNullKeys', () => {
  it('copies a value without null-valued keys and leaves the original alone', () => {
    const original = { a: null, b: { c: null, d: [null, { e: null }] } };

    expect(withoutNullKeys(original)).toEqual({ b: { d: [null, {}] } });
    expect(original.a).toBeNull();
  });
});
