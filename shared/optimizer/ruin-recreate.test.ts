import { describe, expect, it } from 'vitest';
import { buildProblem } from './problem.ts';
import { Random } from './random.ts';
import { RuinRecreate } from './ruin-recreate.ts';
import { Solution } from './solution.ts';
import { parseVroomInput } from './vroom-input.ts';

/**
 * Two vehicles, every place 10 from every other. Vehicle 0 (skill 1) holds jobs 0 and 1 and is
 * full (capacity 2); vehicle 1 holds job 2 and has room for one more. Job 3 needs skill 1: it fits
 * only once job 0 or 1 has moved to vehicle 1.
 */
function fullRouteAndJobLeftOut(seed: number) {
  const durations = Array.from({ length: 5 }, (_, i) =>
    Array.from({ length: 5 }, (_, j) => (i === j ? 0 : 10)),
  );
  const problem = buildProblem(
    parseVroomInput({
      jobs: [1, 2, 3, 4].map((id) => ({
        id,
        location_index: id,
        delivery: [1],
        ...(id === 4 ? { skills: [1] } : {}),
      })),
      vehicles: [
        { id: 1, start_index: 0, end_index: 0, capacity: [2], skills: [1], costs: { fixed: 1000 } },
        { id: 2, start_index: 0, end_index: 0, capacity: [2], costs: { fixed: 1000 } },
      ],
      matrices: { car: { durations } },
    }),
  );
  const solution = new Solution(problem);
  solution.insert(0, 0, 0);
  solution.insert(1, 0, 1);
  solution.insert(2, 1, 0);
  const rr = new RuinRecreate(problem, new Random(seed), new Uint8Array(problem.jobCount));
  return { solution, rr };
}

describe('Ruin and recreate: making room for a job left out', () => {
  it('the recreate alone leaves out a job whose only vehicle is full', () => {
    const { solution, rr } = fullRouteAndJobLeftOut(1);

    rr.recreate(solution);

    expect(solution.unassignedCount).toBe(1);
  });

  it.each([1, 2, 3, 4, 5])(
    'places it by moving a job of the full route to the other vehicle (seed %d)',
    (seed) => {
      const { solution, rr } = fullRouteAndJobLeftOut(seed);

      const attempts = rr.makeRoom(solution, 0, 10);

      expect(solution.unassignedCount).toBe(0);
      expect(attempts).toBeGreaterThan(0);
      expect(solution.jobRoute[3]).toBe(0);
      expect(solution.routes.map((route) => route.jobs)).toEqual([2, 2]);
    },
  );

  it('makes no attempt when no more jobs are out than allowed', () => {
    const { solution, rr } = fullRouteAndJobLeftOut(1);

    expect(rr.makeRoom(solution, 1, 10)).toBe(0);
    expect(solution.unassignedCount).toBe(1);
  });
});
