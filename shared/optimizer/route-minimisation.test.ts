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

describe('Fleet minimisation', () => {
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
