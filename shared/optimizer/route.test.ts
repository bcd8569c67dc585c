import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generator, randomInstance } from '../../test/support/optimizer/random-instances.ts';
import { type Stop, simulate } from '../../test/support/optimizer/vroom-checker.ts';
import { buildProblem } from './problem.ts';
import type { Route } from './route.ts';
import { Solution } from './solution.ts';
import { parseVroomInput } from './vroom-input.ts';

/** Random feasible routes: each job tried at a random position of a random vehicle, kept if the route stays feasible. */
function randomRoutes(input: any, seed: number) {
  const problem = buildProblem(parseVroomInput(input));
  const solution = new Solution(problem);
  const g = generator(seed);
  for (let j = 0; j < problem.jobCount; j++) {
    const route = solution.routes[g.int(0, problem.vehicleCount - 1)]!;
    if (!route.feasible || problem.compatible[route.vehicle * problem.jobCount + j] === 0) continue;
    const p = g.int(0, route.len - 2);
    route.insertAfter(p, j);
    if (route.refresh()) {
      solution.markAssigned(j);
    } else {
      route.removeAt(p + 1);
      route.refresh();
    }
  }
  return { problem, solution };
}

function stopsOf(input: any, route: Route): Stop[] {
  const problem = route.problem;
  const stops: Stop[] = [];
  for (let p = 1; p < route.len - 1; p++) {
    const node = route.node[p]!;
    if (node < problem.jobCount) stops.push({ kind: 'job', job: input.jobs[node] });
    else {
      const index = node - problem.jobCount - problem.breakOffset[route.vehicle]!;
      stops.push({ kind: 'break', brk: input.vehicles[route.vehicle].breaks[index] });
    }
  }
  return stops;
}

const withoutAmounts = (input: any) => ({
  ...input,
  jobs: input.jobs.map(({ delivery: _d, pickup: _p, ...job }: any) => job),
  vehicles: input.vehicles.map(({ capacity: _c, ...vehicle }: any) => vehicle),
});

describe('Route', () => {
  describe('Method: insertionDelta', () => {
    it('accepts exactly the insertions a full schedule accepts, and prices them as the full schedule does', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          // Prepare
          const input: any = randomInstance(seed, { maxJobs: 10 });
          const { problem, solution } = randomRoutes(input, seed);

          for (const route of solution.routes) {
            if (!route.feasible) continue;
            const vehicle = input.vehicles[route.vehicle];
            const stops = stopsOf(input, route);
            const base = simulate(input, vehicle, stops);
            expect(base.feasible).toBe(true);
            for (let u = 0; u < problem.jobCount; u++) {
              if (!solution.isUnassigned(u) || problem.compatible[route.vehicle * problem.jobCount + u] === 0)
                continue;
              if (!route.fitsTotal(u) || route.jobs >= problem.maxTasks[route.vehicle]!) continue;
              for (let p = 0; p < route.len - 1; p++) {
                // Act
                const delta = route.insertionDelta(u, p);
                const trial = [
                  ...stops.slice(0, p),
                  { kind: 'job', job: input.jobs[u] } as Stop,
                  ...stops.slice(p),
                ];
                const full = simulate(input, vehicle, trial);

                // Assess
                expect(Number.isFinite(delta)).toBe(full.feasible);
                if (full.feasible) expect(delta).toBeCloseTo(full.travelCost - base.travelCost, 6);
                // With a bound: the same answer below it, none at or above it.
                if (full.feasible) {
                  expect(route.insertionDelta(u, p, delta + 1)).toBe(delta);
                  expect(route.insertionDelta(u, p, delta)).toBe(Number.POSITIVE_INFINITY);
                }
              }
            }
          }
        }),
        { numRuns: 150 },
      );
    });
  });

  describe('Method: removalDelta', () => {
    it('accepts exactly the removals a full schedule accepts', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          const input: any = randomInstance(seed, { maxJobs: 10 });
          const { problem, solution } = randomRoutes(input, seed);
          for (const route of solution.routes) {
            if (!route.feasible) continue;
            const vehicle = input.vehicles[route.vehicle];
            const stops = stopsOf(input, route);
            const base = simulate(input, vehicle, stops);
            for (let q = 1; q < route.len - 1; q++) {
              if (route.node[q]! >= problem.jobCount) continue;
              const delta = route.removalDelta(q);
              const full = simulate(input, vehicle, [...stops.slice(0, q - 1), ...stops.slice(q)]);
              expect(Number.isFinite(delta)).toBe(full.feasible);
              if (full.feasible) expect(delta).toBeCloseTo(full.travelCost - base.travelCost, 6);
            }
          }
        }),
        { numRuns: 150 },
      );
    });
  });

  describe('Method: replacementDelta', () => {
    it('accepts exactly the replacements a full schedule accepts (amounts aside)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          const input: any = withoutAmounts(randomInstance(seed, { maxJobs: 10 }));
          const { problem, solution } = randomRoutes(input, seed);
          for (const route of solution.routes) {
            if (!route.feasible) continue;
            const vehicle = input.vehicles[route.vehicle];
            const stops = stopsOf(input, route);
            const base = simulate(input, vehicle, stops);
            for (let q = 1; q < route.len - 1; q++) {
              if (route.node[q]! >= problem.jobCount) continue;
              for (let u = 0; u < problem.jobCount; u++) {
                if (
                  !solution.isUnassigned(u) ||
                  problem.compatible[route.vehicle * problem.jobCount + u] === 0
                )
                  continue;
                const delta = route.replacementDelta(q, u);
                const trial = [...stops];
                trial[q - 1] = { kind: 'job', job: input.jobs[u] };
                const full = simulate(input, vehicle, trial);
                expect(Number.isFinite(delta)).toBe(full.feasible);
                if (full.feasible) expect(delta).toBeCloseTo(full.travelCost - base.travelCost, 6);
              }
            }
          }
        }),
        { numRuns: 150 },
      );
    });
  });
});
