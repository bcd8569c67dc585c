/**
 * How a shift is indexed for its list (shift.list.ts): by start, in its user's facet, with the end
 * on its entries, and the key range and check that serve "overlaps [from, to)".
 */
import { describe, expect, it } from 'vitest';
import { counterNames, indexedItem } from '../../data/list-index.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { overlapFilter, shiftList } from './shift.list.ts';
import type { Shift } from './shift.schema.ts';

const place = { latitude: 52.5, longitude: 13.4 };
const shift: Shift = {
  id: 's1',
  user_id: 'u1',
  start: '2026-06-11T06:00:00.000Z',
  end: '2026-06-11T14:00:00.000Z',
  start_location: place,
  end_location: place,
  breaks: [],
  created_at: '2026-06-01T10:00:00.000Z',
  updated_at: '2026-06-02T10:00:00.000Z',
  lock_version: 1,
};

describe('List: shifts', () => {
  it('puts a shift in the start order, its user’s facet, creation and change, with its times as listed values', () => {
    // Act
    const item = indexedItem(shiftList, workspaceScope('w1'), shift);

    // Assess
    expect(item).toMatchObject({
      gsi1pk: 'T#w1#L#SHIFT',
      gsi1sk: '2026-06-11T06:00:00.000Z\u0001s1',
      gsi2pk: 'T#w1#L#SHIFT#user_id=u1',
      gsi2sk: '2026-06-11T06:00:00.000Z\u0001s1',
      gsi4sk: '2026-06-01T10:00:00.000Z\u0001s1',
      gsi5sk: '2026-06-02T10:00:00.000Z\u0001s1',
      list_values: { start: shift.start, end: shift.end, user_id: 'u1' },
    });
  });

  it('counts a shift in all and in its user', () => {
    expect(counterNames(shiftList, shift)).toEqual(['all', 'user_id=u1']);
  });
});

describe('Function: overlapFilter', () => {
  it('walks the starts from 24 hours before `from` up to `to`', () => {
    // Act
    const filter = overlapFilter('2026-06-11T00:00:00.000Z', '2026-06-12T00:00:00.000Z');

    // Assess
    expect(filter.range).toEqual({ from: '2026-06-10T00:00:00.000Z', to: '2026-06-12T00:00:00.000Z' });
    expect(filter.walk).toBe('start');
  });

  it.each([
    { title: 'inside', from: '2026-06-11T07:00:00.000Z', to: '2026-06-11T08:00:00.000Z', expected: true },
    {
      title: 'ending at from',
      from: '2026-06-11T14:00:00.000Z',
      to: '2026-06-11T16:00:00.000Z',
      expected: false,
    },
    {
      title: 'starting at to',
      from: '2026-06-11T04:00:00.000Z',
      to: '2026-06-11T06:00:00.000Z',
      expected: false,
    },
    {
      title: 'from a second before the end',
      from: '2026-06-11T13:59:59.000Z',
      to: '2026-06-11T15:00:00.000Z',
      expected: true,
    },
    {
      title: 'to a second after the start',
      from: '2026-06-11T05:00:00.000Z',
      to: '2026-06-11T06:00:01.000Z',
      expected: true,
    },
    { title: 'from alone, before the end', from: '2026-06-11T13:00:00.000Z', to: undefined, expected: true },
    { title: 'to alone, after the start', from: undefined, to: '2026-06-11T06:00:01.000Z', expected: true },
  ])('says $expected for a window $title', ({ from, to, expected }) => {
    expect(overlapFilter(from, to).where(shift)).toBe(expected);
  });

  it('leaves out the range bound that is not given', () => {
    expect(overlapFilter(undefined, '2026-06-12T00:00:00.000Z').range).toEqual({
      to: '2026-06-12T00:00:00.000Z',
    });
  });
});
