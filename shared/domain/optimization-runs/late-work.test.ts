/**
 * Due dates in a plan (service levels): work ends by its due_by where it can; work that cannot is
 * planned as early as it can be and reported late; when not everything fits, due work is planned
 * first. Through the real optimizer, as a run plans.
 */
import { describe, expect, it } from 'vitest';
import { solve } from '../../optimizer/solve.ts';
import {
  type PlanCase,
  type PlanningProblem,
  type PlanShift,
  placesOf,
  toVroomInput,
} from '../scheduling/planning-problem.ts';
import { toPlanResult } from '../scheduling/planning-result.ts';
import { greatCircleTravel } from '../scheduling/travel.ts';
import { planLate } from './late-work.ts';

const depot = { latitude: 52.52, longitude: 13.405 };
const day = (time: string) => `2026-12-01T${time}:00Z`;

const shift = (id: string, overrides: Partial<PlanShift> = {}): PlanShift => ({
  id,
  userId: `user-${id}`,
  start: day('08:00'),
  end: day('16:00'),
  startLocation: depot,
  endLocation: depot,
  breaks: [],
  skillIds: [],
  ...overrides,
});

const work = (id: number, overrides: Partial<PlanCase> = {}): PlanCase => ({
  id: `case-${id}`,
  location: { latitude: depot.latitude + 0.01 * id, longitude: depot.longitude + 0.01 },
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
  const output = planLate(translation.input, translation.late, answer, matrix);
  return toPlanResult(problem, translation, matrix, output, 5);
}

const stopOf = (result: Awaited<ReturnType<typeof plan>>, caseId: string) =>
  result.routes.flatMap((route) => route.stops).find((stop) => stop.case_id === caseId);

describe('Due dates in a plan', () => {
  it('ends due work by its due date where it can, and does not call it late', async () => {
    const cases = [1, 2, 3, 4, 5, 6].map((id) => work(id, id === 6 ? { dueBy: day('10:00') } : {}));

    const result = await plan({ from: day('00:00'), to: day('23:59'), cases, shifts: [shift('a')] });

    const due = stopOf(result, 'case-6');
    expect(due).toBeDefined();
    expect(Date.parse(due?.end ?? '')).toBeLessThanOrEqual(Date.parse(day('10:00')));
    expect(due?.late).toBeUndefined();
  });

  it('plans work it cannot finish by its due date as early as it can, and reports it late by how much', async () => {
    // An hour of work due half an hour into the shift: it cannot be met.
    const cases = [work(1), work(2), work(3, { dueBy: day('08:30') })];

    const result = await plan({ from: day('00:00'), to: day('23:59'), cases, shifts: [shift('a')] });

    const late = stopOf(result, 'case-3');
    expect(result.routes[0]?.stops[0]?.case_id).toBe('case-3');
    expect(late).toMatchObject({ late: true, late_by: expect.stringMatching(/^PT/) });
    // It starts as soon as the technician can get there.
    expect(Date.parse(late?.start ?? '')).toBeLessThan(Date.parse(day('08:30')));
    expect(result.unassigned).toEqual([]);
  });

  it('plans due work first when not everything fits', async () => {
    // Three hours of shift, five hours of work; two cases are due by the evening.
    const cases = [1, 2, 3, 4, 5].map((id) => work(id, id >= 4 ? { dueBy: day('18:00') } : {}));

    const result = await plan({
      from: day('00:00'),
      to: day('23:59'),
      cases,
      shifts: [shift('a', { end: day('11:00') })],
    });

    const planned = result.routes.flatMap((route) => route.stops.map((stop) => stop.case_id));
    expect(planned).toEqual(expect.arrayContaining(['case-4', 'case-5']));
    expect(result.unassigned.map((entry) => entry.case_id)).not.toContain('case-4');
  });
});
