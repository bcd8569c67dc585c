/**
 * Index keys of indexed instance properties order like their values: numbers of any sign and
 * size, text by code units, absent values last.
 */
import { describe, expect, it } from 'vitest';
import { absentKey, sortableNumber, sortableValue } from './instance-list.ts';

describe('Sort keys of indexed instance properties', () => {
  it('orders numbers by value, negative and fractional ones included', () => {
    const numbers = [-1e308, -1000.5, -2, -0.001, 0, 0.001, 1, 2, 10, 999.99, 1e6, 1e308];
    const keys = [...numbers].reverse().map(sortableNumber).sort();
    expect(keys).toEqual(numbers.map(sortableNumber));
    expect(sortableNumber(-0)).toBe(sortableNumber(0));
  });

  it('puts absent values after every other value, whatever the type', () => {
    for (const [value, type] of [
      ['zzz', 'string'],
      [1e308, 'number'],
      [true, 'boolean'],
    ] as const) {
      expect(sortableValue(value, type) < absentKey).toBe(true);
      expect(sortableValue(undefined, type)).toBe(absentKey);
    }
  });

  it('keeps text as typed, cut at 200 characters', () => {
    expect(sortableValue('Zebra', 'string') < sortableValue('apple', 'string')).toBe(true);
    expect(sortableValue('x'.repeat(300), 'string')).toHaveLength(200);
  });
});
