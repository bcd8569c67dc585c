/**
 * What applying a plan writes, and how a record is told apart as still to write, already
 * written by this apply (a crashed apply taken over), or changed by someone else.
 */
import { describe, expect, it } from 'vitest';
import type { Case } from '../cases/case.schema.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { type CaseWrite, newTourState, plannedWrites, stateOf, type TourCreate } from './apply-plan.ts';
import type { RunPlan } from './optimization-run.record.ts';

const stop = (caseId: string, hour: number) => ({
  case_id: caseId,
  arrival: `2030-01-01T0${hour}:00:00.000Z`,
  start: `2030-01-01T0${hour}:00:00.000Z`,
  end: `2030-01-01T0${hour}:45:00.000Z`,
});

const plan: RunPlan = {
  id: 'run',
  lock_version: 0,
  routes: [
    {
      shift_id: 's1',
      user_id: 'u1',
      vehicle_id: 'v1',
      stops: [stop('c1', 8), stop('c2', 9)],
      distance_m: 1,
      travel_duration: 'PT1M',
    },
    { shift_id: 's2', user_id: 'u2', stops: [stop('c3', 8)], distance_m: 1, travel_duration: 'PT1M' },
  ],
  unassigned: [{ case_id: 'c4', reason: 'NO_CAPACITY' }],
  basis: {
    cases: {
      c1: { v: 3, status: 'NEW' },
      c2: { v: 0, status: 'SCHEDULED', assignee_id: 'u9', scheduled_start: 'a', scheduled_end: 'b' },
      c3: { v: 1, status: 'NEW' },
      c4: { v: 0, status: 'NEW' },
    },
    shifts: { s1: { v: 2 }, s2: { v: 0 }, s3: { v: 0 } },
    tours: {
      t1: { v: 5, shift_id: 's1', stops: [{ case_id: 'c2' }], driver_id: 'u1' },
      t3: { v: 1, shift_id: 's3', stops: [{ case_id: 'c4' }], driver_id: 'u3' },
    },
  },
  places: { cases: {}, shifts: {} },
};

describe('Apply plan: the writes of a plan', () => {
  it('replaces a shift’s PLANNED tour, creates one for a shift without, empties one whose shift got nothing', () => {
    const writes = plannedWrites(plan);

    expect(writes.filter((w) => w.type !== 'case')).toEqual([
      {
        type: 'tour',
        id: 't1',
        expected: 5,
        target: {
          stops: [
            { case_id: 'c1', planned_arrival: '2030-01-01T08:00:00.000Z' },
            { case_id: 'c2', planned_arrival: '2030-01-01T09:00:00.000Z' },
          ],
          driver_id: 'u1',
          vehicle_id: 'v1',
          shift_id: 's1',
        },
        original: plan.basis.tours.t1,
      },
      {
        type: 'new-tour',
        shiftId: 's2',
        target: {
          stops: [{ case_id: 'c3', planned_arrival: '2030-01-01T08:00:00.000Z' }],
          driver_id: 'u2',
          vehicle_id: undefined,
          shift_id: 's2',
        },
      },
      {
        type: 'tour',
        id: 't3',
        expected: 1,
        target: { stops: [], driver_id: 'u3', vehicle_id: undefined, shift_id: 's3' },
        original: plan.basis.tours.t3,
      },
    ]);
  });

  it('schedules each planned case for the shift’s user on the version the run read; cases left out are not written', () => {
    const cases = plannedWrites(plan).filter((w): w is CaseWrite => w.type === 'case');

    expect(cases.map((w) => [w.id, w.expected, w.target.assignee_id, w.target.status])).toEqual([
      ['c1', 3, 'u1', 'SCHEDULED'],
      ['c2', 0, 'u1', 'SCHEDULED'],
      ['c3', 1, 'u2', 'SCHEDULED'],
    ]);
    expect(cases[1]?.original).toEqual(plan.basis.cases.c2);
  });
});

describe('Apply plan: where a record stands', () => {
  const write = plannedWrites(plan).find(
    (w): w is CaseWrite => w.type === 'case' && w.id === 'c1',
  ) as CaseWrite;
  const record = (fields: Partial<Case>) =>
    ({ id: 'c1', title: 'x', priority: 'NORMAL', status: 'NEW', ...fields }) as Case;

  it.each([
    { title: 'the version read: to write', current: record({ lock_version: 3 }), state: 'todo' },
    {
      title: 'one later and as planned: written by this apply',
      current: record({ lock_version: 4, ...write.target }),
      state: 'done',
    },
    {
      title: 'one later but otherwise: changed by someone',
      current: record({ lock_version: 4, status: 'DONE' }),
      state: 'conflict',
    },
    { title: 'gone', current: undefined, state: 'conflict' },
  ])('$title', ({ current, state }) => {
    expect(stateOf(write, current)).toBe(state);
  });

  it('takes a PLANNED tour in the target state as the one this apply created, any other as a conflict', () => {
    const create = plannedWrites(plan).find((w): w is TourCreate => w.type === 'new-tour') as TourCreate;
    const ours = {
      id: 'x',
      date: '2030-01-01',
      status: 'PLANNED',
      lock_version: 0,
      ...create.target,
    } as unknown as Tour;
    const theirs = { ...ours, stops: [] } as Tour;

    expect(newTourState(create, []).state).toBe('todo');
    expect(newTourState(create, [ours])).toEqual({ state: 'done', tour: ours });
    expect(newTourState(create, [theirs]).state).toBe('conflict');
  });
});
