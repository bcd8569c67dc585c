/**
 * The rules between a shift's fields (shift-rules.ts): hours in order and one working day at
 * most, breaks inside the shift with room for their duration.
 */
import { describe, expect, it } from 'vitest';
import type { ShiftBreak } from './shift.schema.ts';
import { shiftErrors } from './shift-rules.ts';

const at = (hours: number) => new Date(Date.UTC(2026, 5, 11) + hours * 3_600_000).toISOString();

function shift(overrides: { start?: number; end?: number; breaks?: Array<Partial<ShiftBreak>> } = {}) {
  return {
    start: at(overrides.start ?? 6),
    end: at(overrides.end ?? 14),
    breaks: (overrides.breaks ?? []).map((pause) => ({
      earliest_start: at(10),
      latest_end: at(12),
      duration: 'PT30M',
      ...pause,
    })),
  };
}

const pointers = (errors: Array<{ pointer: string }>) => errors.map((error) => error.pointer);

describe('Function: shiftErrors', () => {
  describe('successful', () => {
    it.each([
      { title: 'an 8-hour shift without breaks', input: shift() },
      { title: 'exactly 24 hours', input: shift({ start: 0, end: 24 }) },
      { title: 'a break filling its window exactly', input: shift({ breaks: [{ duration: 'PT2H' }] }) },
      {
        title: 'a break window as long as the shift',
        input: shift({ breaks: [{ earliest_start: at(6), latest_end: at(14) }] }),
      },
      {
        title: 'two breaks whose windows overlap',
        input: shift({ breaks: [{}, { earliest_start: at(11) }] }),
      },
    ])('accepts $title', ({ input }) => {
      expect(shiftErrors(input)).toEqual([]);
    });
  });

  describe('failing', () => {
    it.each([
      { title: 'an end before the start', input: shift({ end: 5 }), errors: ['#/end'] },
      { title: 'an end equal to the start', input: shift({ end: 6 }), errors: ['#/end'] },
      { title: 'a second over 24 hours', input: shift({ end: 30 + 1 / 3600 }), errors: ['#/end'] },
      {
        title: 'a break starting before the shift',
        input: shift({ breaks: [{ earliest_start: at(5.5) }] }),
        errors: ['#/breaks/0/earliest_start'],
      },
      {
        title: 'a break ending after the shift',
        input: shift({ breaks: [{ latest_end: at(14.5) }] }),
        errors: ['#/breaks/0/latest_end'],
      },
      {
        title: 'a break window that ends before it starts',
        input: shift({ breaks: [{ latest_end: at(9) }] }),
        errors: ['#/breaks/0/latest_end'],
      },
      {
        title: 'a break longer than its window',
        input: shift({ breaks: [{}, { duration: 'PT2H1M' }] }),
        errors: ['#/breaks/1/duration'],
      },
      {
        title: 'several faults at once',
        input: shift({ end: 13, breaks: [{ latest_end: at(13.5), duration: 'PT4H' }] }),
        errors: ['#/breaks/0/latest_end', '#/breaks/0/duration'],
      },
    ])('refuses $title', ({ input, errors }) => {
      expect(pointers(shiftErrors(input))).toEqual(errors);
    });
  });
});
