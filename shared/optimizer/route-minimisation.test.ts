import { describe, expect, it } from 'vitest';
import { farApartJobs } from '../../test/support/optimizer/far-apart.ts';
import { buildProblem } from './problem.ts';
import { Random } from './random.ts';
import { type Effort, minimiseRoutes } from './route-minimisation.ts';
import { RuinRecreate } from './ruin-recreate.ts';
import { Solution } from './solution.ts';
import { parseVroomInput } from './vroom-input.ts';

/** Two jobs far apart, two vehicles (test/support/optimizer/far-apart.ts). */
const apart = (fixed: number) => buildProblem(parseVroomInput(farApartJobs(fixed)));

/** Runs the fleet phase alone from one job per vehicle, with 200 iterations. */
function minimiseFromTwoRoutes(fixed: number) {
  const problem = apart(fixed);
  const best = new Solution(problem);
  best.insert(0, 0, 0);
  best.insert(1, 1, 0);
  let iterations = 0;
  const effort: Effort = { spent: () => iterations, budget: 200, tick: () => iterations++ };
  const rr = new RuinRecreate(problem, new Random(1), new Uint8Array(problem.jobCount));
  minimiseRoutes(best, best.clone(), best.clone(), rr, 0, 1, effort);
  return best;
}

/**
 * Three vehicles of capacity 12, every place 10 from every other. Vehicle 0 alone has skill 1 and
 * holds job 0, which needs it: its route is the smallest (one job), and an attempt that takes it
 * out is stuck, since vehicle 0 cannot open again while the two others are in use and neither of
 * their routes of eleven jobs can be emptied (a ruin takes ten at most, and the other route has
 * room for one). Vehicle 0 has room for either route's eleven.
 */
function smallestRouteStuck(seed: number) {
  const places = 24;
  const durations = Array.from({ length: places }, (_, i) =>
    Array.from({ length: places }, (_, j) => (i === j ? 0 : 10)),
  );
  const problem = buildProblem(
    parseVroomInput({
      jobs: Array.from({ length: 23 }, (_, k) => ({
        id: k + 1,
        location_index: k + 1,
        delivery: [1],
        ...(k === 0 ? { skills: [1] } : {}),
      })),
      vehicles: [0, 1, 2].map((v) => ({
        id: v + 1,
        start_index: 0,
        end_index: 0,
        capacity: [12],
        costs: { fixed: 100_000 },
        ...(v === 0 ? { skills: [1] } : {}),
      })),
      matrices: { car: { durations } },
    }),
  );
  const best = new Solution(problem);
  best.insert(0, 0, 0);
  for (let k = 0; k < 11; k++) best.insert(1 + k, 1, k);
  for (let k = 0; k < 11; k++) best.insert(12 + k, 2, k);
  let iterations = 0;
  const effort: Effort = { spent: () => iterations, budget: 4000, tick: () => iterations++ };
  const rr = new RuinRecreate(problem, new Random(seed), new Uint8Array(problem.jobCount));
  minimiseRoutes(best, best.clone(), best.clone(), rr, 0, 2, effort);
  return best;
}

describe('Fleet minimisation', () => {
  it.each([1, 2, 3, 4, 5])(
    'takes another route out when the smallest cannot be emptied, early in its budget (seed %d)',
    (seed) => {
      const best = smallestRouteStuck(seed);
      expect(best.usedVehicles).toBe(2);
      expect(best.unassignedCount).toBe(0);
      expect(best.jobRoute[0]).toBe(0);
    },
  );

  it('keeps both vehicles when the fixed cost saved (5) is less than the detour added (1,000)', () => {
    const best = minimiseFromTwoRoutes(5);
    expect(best.usedVehicles).toBe(2);
    expect(best.cost).toBe(2 * 5 + 2 * 20);
  });

  it('gives up a vehicle when the fixed cost saved (100,000) outweighs the detour added', () => {
    const best = minimiseFromTwoRoutes(100_000);
    expect(best.usedVehicles).toBe(1);
    expect(best.unassignedCount).toBe(0);
    expect(best.cost).toBe(100_000 + 1020);
  });
});
