/**
 * From cases and shifts to a plan, through the real optimizer: the translation keeps every rule
 * of a case (skills, windows, on-site duration) and of a shift (hours, places, breaks), and each
 * case left out carries the reason a dispatcher can act on.
 */
import { describe, expect, it } from 'vitest';
import { solve } from '../../optimizer/solve.ts';
import {
  type PlanCase,
  type PlanningProblem,
  type PlanShift,
  placesOf,
  toVroomInput,
} from './planning-problem.ts';
import { toPlanResult } from './planning-result.ts';
import { greatCircleTravel } from './travel.ts';

const depot = { latitude: 52.52, longitude: 13.405 };
const near = (dLat: number, dLon: number) => ({
  latitude: depot.latitude + dLat,
  longitude: depot.longitude + dLon,
});
const day = (time: string) => `2026-12-01T${time}:00Z`;

const electrician = 'skill-electric';
const plumber = 'skill-plumbing';

const shift = (id: string, skills: string[], overrides: Partial<PlanShift> = {}): PlanShift => ({
  id,
  userId: `user-${id}`,
  start: day('08:00'),
  end: day('16:00'),
  startLocation: depot,
  endLocation: depot,
  breaks: [{ earliestStart: day('11:30'), latestEnd: day('13:30'), durationSeconds: 1800 }],
  skillIds: skills,
  ...overrides,
});

const work = (id: string, overrides: Partial<PlanCase> = {}): PlanCase => ({
  id,
  location: near(0.01 * Number(id.replace(/\D/g, '') || 1), 0.01),
  durationSeconds: 3600,
  requiredSkillIds: [],
  timeWindows: [],
  priority: 'NORMAL',
  ...overrides,
});

async function plan(problem: PlanningProblem) {
  const matrix = await greatCircleTravel.matrix(placesOf(problem));
  const translation = toVroomInput(problem, matrix);
  const answer = solve(translation.input, { timeLimit: 0.3, seed: 7 });
  return toPlanResult(problem, translation, matrix, answer, 5);
}

describe('Planning: cases and shifts through the optimizer', () => {
  it('plans every case that fits, each within its window and its shift, by a technician with its skills', async () => {
    // Arrange
    const problem: PlanningProblem = {
      from: day('00:00'),
      to: '2026-12-02T00:00:00Z',
      shifts: [shift('a', [electrician]), shift('b', [plumber])],
      cases: [
        work('c1', { requiredSkillIds: [electrician] }),
        work('c2', {
          requiredSkillIds: [plumber],
          timeWindows: [{ start: day('13:00'), end: day('14:00') }],
        }),
        work('c3'),
        work('c4', { durationSeconds: 1800, timeWindows: [{ start: day('08:00'), end: day('09:30') }] }),
      ],
    };

    // Act
    const result = await plan(problem);

    // Assess
    expect(result.summary).toMatchObject({ assigned: 4, unassigned: 0 });
    const stops = result.routes.flatMap((route) =>
      route.stops.map((stop) => ({ ...stop, shift: route.shift_id })),
    );
    const stopOf = (id: string) => stops.find((stop) => stop.case_id === id);
    expect(stopOf('c1')?.shift).toBe('a');
    expect(stopOf('c2')?.shift).toBe('b');
    expect(Date.parse(stopOf('c2')?.start ?? '')).toBeGreaterThanOrEqual(Date.parse(day('13:00')));
    expect(Date.parse(stopOf('c2')?.start ?? '')).toBeLessThanOrEqual(Date.parse(day('14:00')));
    expect(Date.parse(stopOf('c4')?.start ?? '')).toBeLessThanOrEqual(Date.parse(day('09:30')));
    for (const stop of stops) {
      expect(Date.parse(stop.start)).toBeGreaterThanOrEqual(Date.parse(day('08:00')));
      expect(Date.parse(stop.end)).toBeLessThanOrEqual(Date.parse(day('16:00')));
      expect(Date.parse(stop.start)).toBeGreaterThanOrEqual(Date.parse(stop.arrival));
    }
    for (const route of result.routes) {
      expect(route.distance_m).toBeGreaterThan(0);
      expect(route.travel_duration).toMatch(/^PT/);
    }
  });

  it('says why each case stayed out', async () => {
    // Arrange: one shift of an electrician, 08:00-12:45
    const problem: PlanningProblem = {
      from: day('00:00'),
      to: '2026-12-02T00:00:00Z',
      shifts: [shift('a', [electrician], { end: day('12:45'), breaks: [] })],
      cases: [
        work('c1', { location: undefined }),
        work('c2', { requiredSkillIds: [plumber] }),
        work('c3', { timeWindows: [{ start: day('13:00'), end: day('15:00') }] }),
        // 200 km away: no way there and back within the shift
        work('c4', { location: near(1.8, 0) }),
        // Three cases of 2 h each (and a few minutes' drive): only two fit
        work('c5', { location: near(0.01, 0), durationSeconds: 7200, priority: 'URGENT' }),
        work('c6', { location: near(0.01, 0.005), durationSeconds: 7200, priority: 'URGENT' }),
        work('c7', { location: near(0.005, 0), durationSeconds: 7200, priority: 'LOW' }),
      ],
    };

    // Act
    const result = await plan(problem);

    // Assess
    const reasons = Object.fromEntries(result.unassigned.map((entry) => [entry.case_id, entry.reason]));
    expect(reasons).toEqual({
      c1: 'NO_LOCATION',
      c2: 'NO_SKILLED_TECHNICIAN',
      c3: 'NO_SHIFT_IN_WINDOW',
      c4: 'NOT_REACHABLE_IN_TIME',
      c7: 'NO_CAPACITY',
    });
    expect(result.summary).toMatchObject({ assigned: 2, unassigned: 5 });
  });

  it('keeps a technician’s break inside the window the shift allows', async () => {
    // Arrange
    const problem: PlanningProblem = {
      from: day('00:00'),
      to: '2026-12-02T00:00:00Z',
      shifts: [shift('a', [])],
      cases: Array.from({ length: 6 }, (_, i) => work(`c${i + 1}`, { durationSeconds: 3000 })),
    };

    // Act
    const matrix = await greatCircleTravel.matrix(placesOf(problem));
    const translation = toVroomInput(problem, matrix);
    const answer = solve(translation.input, { timeLimit: 0.3, seed: 3 });

    // Assess
    const pause = answer.routes[0]?.steps.find((step) => step.type === 'break');
    expect(pause).toBeDefined();
    const start = (pause?.arrival ?? 0) + (pause?.waiting_time ?? 0);
    expect(start).toBeGreaterThanOrEqual(11.5 * 3600);
    expect(start + 1800).toBeLessThanOrEqual(13.5 * 3600);
  });
});
