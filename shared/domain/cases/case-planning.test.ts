/**
 * What planning reads of cases (case-planning.ts): the default duration, windows meeting a
 * horizon, and the check on the list entries that narrows the walk of the open cases.
 */
import { describe, expect, it } from 'vitest';
import { indexedItem } from '../../data/list-index.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { caseList } from './case.list.ts';
import type { Case } from './case.schema.ts';
import { durationSecondsOf, mayBeCandidate, windowsMeet, withPlanningDefaults } from './case-planning.ts';

const from = '2026-06-11T00:00:00.000Z';
const to = '2026-06-12T00:00:00.000Z';
const window = (start: string, end: string) => ({
  start: `2026-06-${start}:00:00.000Z`,
  end: `2026-06-${end}:00:00.000Z`,
});

const record: Case = {
  id: 'c1',
  title: 'Boiler service',
  status: 'NEW',
  priority: 'NORMAL',
  created_at: '2026-06-01T10:00:00.000Z',
  updated_at: '2026-06-01T10:00:00.000Z',
  lock_version: 0,
};

describe('Function: withPlanningDefaults', () => {
  it('answers PT1H for a case written before durations existed, and keeps a set one', () => {
    expect(withPlanningDefaults(record).duration).toBe('PT1H');
    expect(withPlanningDefaults({ ...record, duration: 'PT45M' }).duration).toBe('PT45M');
  });

  it('fills in schedule_lock NONE for a case written before locks, and keeps a set one', () => {
    expect(withPlanningDefaults(record).schedule_lock).toBe('NONE');
    expect(withPlanningDefaults({ ...record, schedule_lock: 'TIME' }).schedule_lock).toBe('TIME');
  });

  it('keeps the record as it is otherwise', () => {
    expect(withPlanningDefaults(record)).toEqual({ ...record, duration: 'PT1H', schedule_lock: 'NONE' });
  });
});

describe('Function: durationSecondsOf', () => {
  it.each([
    { duration: undefined, seconds: 3600 },
    { duration: 'PT1H30M', seconds: 5400 },
    { duration: 'P1D', seconds: 86_400 },
  ])('reads $duration as $seconds s', ({ duration, seconds }) => {
    expect(durationSecondsOf({ duration })).toBe(seconds);
  });
});

describe('Function: windowsMeet', () => {
  it.each([
    { title: 'no windows', windows: undefined, expected: true },
    { title: 'a window inside', windows: [window('11T08', '11T10')], expected: true },
    { title: 'a window ending at from', windows: [window('10T20', '11T00')], expected: true },
    { title: 'a window starting at to', windows: [window('12T00', '12T02')], expected: false },
    {
      title: 'windows only before',
      windows: [window('09T08', '09T10'), window('10T08', '10T10')],
      expected: false,
    },
    {
      title: 'one window of several',
      windows: [window('10T08', '10T10'), window('11T08', '11T10')],
      expected: true,
    },
  ])('says $expected for $title', ({ windows, expected }) => {
    expect(windowsMeet({ time_windows: windows }, from, to)).toBe(expected);
  });
});

describe('Function: mayBeCandidate', () => {
  /** A case's list entry as the index holds it (its listed values). */
  const entryOf = (overrides: Partial<Case>) =>
    indexedItem(caseList, workspaceScope('w1'), { ...record, ...overrides }).list_values as Record<
      string,
      unknown
    >;

  it.each([
    { title: 'no location', overrides: {}, expected: false },
    {
      title: 'a location, no windows',
      overrides: { location: { latitude: 1, longitude: 2 } },
      expected: true,
    },
    {
      title: 'windows around the horizon',
      overrides: {
        location: { latitude: 1, longitude: 2 },
        time_windows: [window('10T08', '10T10'), window('12T08', '12T10')],
      },
      expected: true,
    },
    {
      title: 'windows after the horizon',
      overrides: { location: { latitude: 1, longitude: 2 }, time_windows: [window('12T08', '12T10')] },
      expected: false,
    },
  ])('says $expected for an entry with $title', ({ overrides, expected }) => {
    expect(mayBeCandidate(entryOf(overrides), from, to)).toBe(expected);
  });

  it('keeps an entry written before the planning values: its item decides', () => {
    expect(mayBeCandidate({ id: 'c1', title: 'old' }, from, to)).toBe(true);
  });
});
