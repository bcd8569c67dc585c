/**
 * What applying a plan writes, derived from the plan alone: which tours are replaced, created or
 * only lose a stop, in which steps (releases before claims, at most 80 stops a step), which cases
 * are scheduled or return to NEW, and what stays where it is (locked, pinned, on hold).
 */
import { describe, expect, it } from 'vitest';
import { applyPlanOf, maxStopsPerStep, tourSteps } from './apply-plan.ts';
import type { RunPlan } from './optimization-run.record.ts';

const stop = (caseId: string, hour: number) => ({
  case_id: caseId,
  arrival: `2030-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`,
  start: `2030-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`,
  end: `2030-01-01T${String(hour).padStart(2, '0')}:45:00.000Z`,
});

const arrival = (hour: number) => `2030-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`;

/** s1 replaces t1 (c2 stays planned, c5 left out, c6 locked and left out, c7 on hold); s2 gets a new tour; t9 (no shift) loses c3. */
const plan: RunPlan = {
  id: 'run',
  lock_version: 0,
  routes: [
    {
      shift_id: 's1',
      user_id: 'u1',
      vehicle_id: 'v1',
      stops: [stop('c1', 8), stop('c2', 10)],
      distance_m: 1,
      travel_duration: 'PT1M',
    },
    { shift_id: 's2', user_id: 'u2', stops: [stop('c3', 8)], distance_m: 1, travel_duration: 'PT1M' },
  ],
  unassigned: [
    { case_id: 'c5', reason: 'NO_CAPACITY' },
    { case_id: 'c6', reason: 'LOCK_NOT_KEPT' },
  ],
  basis: {
    cases: {
      c1: { v: 3, status: 'NEW' },
      c2: { v: 0, status: 'SCHEDULED', assignee_id: 'u9', scheduled_start: 'a', scheduled_end: 'b' },
      c3: { v: 1, status: 'SCHEDULED', assignee_id: 'u8', scheduled_start: 'x', scheduled_end: 'y' },
      c5: { v: 2, status: 'SCHEDULED', assignee_id: 'u1', scheduled_start: 'p', scheduled_end: 'q' },
      c6: {
        v: 4,
        status: 'SCHEDULED',
        assignee_id: 'u1',
        scheduled_start: arrival(9),
        scheduled_end: 'r',
        lock: 'TIME',
      },
      c7: { v: 0, status: 'ON_HOLD' },
    },
    shifts: { s1: { v: 2 }, s2: { v: 0 } },
    tours: {
      t1: {
        v: 5,
        shift_id: 's1',
        driver_id: 'u1',
        stops: [
          { case_id: 'c5' },
          { case_id: 'c6', planned_arrival: arrival(9) },
          { case_id: 'c2', status: 'EN_ROUTE', eta: '2030-01-01T09:55:00.000Z' },
          { case_id: 'c7' },
        ],
      },
      t9: { v: 7, shift_id: '', stops: [{ case_id: 'c3' }, { case_id: 'c8' }] },
    },
  },
  places: { cases: {}, shifts: {} },
};

describe('Function: applyPlanOf', () => {
  const { tours, cases } = applyPlanOf(plan);

  it('replaces a planned shift’s tour: the route in order, a locked stop it left out kept in time order, the rest gone', () => {
    const t1 = tours.find((tour) => tour.id === 't1');

    expect(t1?.claims.at(-1)).toEqual({
      stops: [
        { case_id: 'c1', planned_arrival: arrival(8), status: 'PENDING' },
        { case_id: 'c6', planned_arrival: arrival(9), status: 'PENDING' },
        { case_id: 'c2', planned_arrival: arrival(10), status: 'EN_ROUTE', eta: '2030-01-01T09:55:00.000Z' },
      ],
      driver_id: 'u1',
      vehicle_id: 'v1',
      shift_id: 's1',
    });
    // Releases first: the stops it loses (left out, on hold) go before any stop joins.
    expect(t1?.releases.map((state) => state.stops.map((s) => s.case_id))).toEqual([['c6', 'c2']]);
  });

  it('keeps the status and what the live day recorded of a stop that stays on its tour', () => {
    const t1 = tours.find((tour) => tour.id === 't1');
    const kept = t1?.claims.at(-1)?.stops.find((stop) => stop.case_id === 'c2');
    // c2 was on t1 (EN_ROUTE, with an eta) and the plan keeps it there at a new time.
    expect(kept).toEqual({
      case_id: 'c2',
      planned_arrival: arrival(10),
      status: 'EN_ROUTE',
      eta: '2030-01-01T09:55:00.000Z',
    });
  });

  it('creates a tour for a planned shift without one, and takes a moved case off its other tour', () => {
    expect(tours.find((tour) => tour.key === 'shift:s2')).toMatchObject({
      shiftId: 's2',
      releases: [],
      claims: [
        {
          stops: [{ case_id: 'c3', planned_arrival: arrival(8), status: 'PENDING' }],
          driver_id: 'u2',
          shift_id: 's2',
        },
      ],
    });
    const t9 = tours.find((tour) => tour.id === 't9');
    expect(t9?.releases.map((state) => state.stops)).toEqual([[{ case_id: 'c8', status: 'PENDING' }]]);
    expect(t9?.claims).toEqual([]);
  });

  it('schedules the planned cases, returns the one left out to NEW, and writes neither the locked nor the held one', () => {
    expect(cases.map((entry) => [entry.id, entry.phase, entry.target])).toEqual([
      [
        'c1',
        'schedule',
        {
          status: 'SCHEDULED',
          assignee_id: 'u1',
          scheduled_start: arrival(8),
          scheduled_end: '2030-01-01T08:45:00.000Z',
        },
      ],
      [
        'c2',
        'schedule',
        {
          status: 'SCHEDULED',
          assignee_id: 'u1',
          scheduled_start: arrival(10),
          scheduled_end: '2030-01-01T10:45:00.000Z',
        },
      ],
      [
        'c3',
        'schedule',
        {
          status: 'SCHEDULED',
          assignee_id: 'u2',
          scheduled_start: arrival(8),
          scheduled_end: '2030-01-01T08:45:00.000Z',
        },
      ],
      ['c5', 'reset', { status: 'NEW' }],
    ]);
    expect(cases.find((entry) => entry.id === 'c2')?.original).toEqual(plan.basis.cases.c2);
  });
});

describe('Function: tourSteps', () => {
  const stops = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => ({ case_id: `c${from + i}` }));

  it('moves at most 80 stops a step: leaving ones first, then joining ones, the last step the target', () => {
    const from = { stops: stops(0, 100) };
    const to = { stops: stops(50, 250), driver_id: 'u1' };

    const { releases, claims } = tourSteps(from, to);

    expect(releases.map((state) => state.stops.length)).toEqual([50]);
    expect(claims.map((state) => state.stops.length)).toEqual([130, 200]);
    expect(claims.at(-1)).toEqual(to);
    for (const [a, b] of [...releases, ...claims].map((state, i, all) => [
      i === 0 ? from : all[i - 1],
      state,
    ])) {
      const before = new Set(a?.stops.map((s) => s.case_id));
      const after = new Set(b?.stops.map((s) => s.case_id));
      const moved =
        [...before].filter((id) => !after.has(id)).length + [...after].filter((id) => !before.has(id)).length;
      expect(moved).toBeLessThanOrEqual(maxStopsPerStep);
    }
  });

  it('has no step for a tour that stays as it is', () => {
    const state = { stops: stops(0, 3), driver_id: 'u1' };

    expect(tourSteps(state, { ...state })).toEqual({ releases: [], claims: [] });
  });
});
