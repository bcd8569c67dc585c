/**
 * Tests that fail when the search gets worse, not only when it breaks: the answer is never worse
 * than the solver's own first solution, it reaches a quality floor on three Solomon instances
 * within a fixed iteration budget (so that a search that does nothing cannot pass), and the
 * fleet shrinks only when the objective pays for it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { farApartJobs } from '../../test/support/optimizer/far-apart.ts';
import { randomInstance } from '../../test/support/optimizer/random-instances.ts';
import { checkSolution } from '../../test/support/optimizer/vroom-checker.ts';
import { construct, findImpossibleJobs } from './construction.ts';
import type { Solution } from './solution.ts';
import { OptimizerInputError, solve, solveWithStats } from './solve.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
const readFixture = (name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8'));

/** The objective's three levels, for readable failures. */
const objective = (solution: Solution) => ({
  unassignedPriority: solution.unassignedPriority,
  unassigned: solution.unassignedCount,
  cost: solution.cost,
});

describe('Solver: search quality', () => {
  describe('never worse than its first solution', () => {
    it('answers at least as well as its own construction (priority left out, then jobs left out, then cost), on random instances', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          fc.integer({ min: 0, max: 300 }),
          (seed, iterations) => {
            // Prepare
            const input = randomInstance(seed, { maxJobs: 10, maxVehicles: 3 });

            // Act
            let result: ReturnType<typeof solveWithStats>;
            try {
              result = solveWithStats(input, { iterations, seed, timeLimit: 60 });
            } catch (error) {
              // A vehicle whose breaks cannot fit in its hours is refused; solve.test.ts pins when.
              if (error instanceof OptimizerInputError && /^vehicles\[\d+\]\.breaks$/.test(error.field))
                return;
              throw error;
            }
            const constructed = construct(result.problem, findImpossibleJobs(result.problem));

            // Assess
            const answer = objective(result.solution);
            const first = objective(constructed);
            const worse =
              answer.unassignedPriority - first.unassignedPriority ||
              answer.unassigned - first.unassigned ||
              (answer.cost > first.cost + 1e-6 ? 1 : 0);
            expect(worse > 0 ? { answer, first } : 'not worse').toBe('not worse');
          },
        ),
        { numRuns: 25 },
      );
    });
  });

  describe('quality floor on Solomon instances, 5,000 iterations, seed 1', () => {
    const bks: Record<string, { vehicles: number; distance: number }> = readFixture('bks.json');

    /**
     * The allowed distance above the best-known one, per instance. Measured on 2026-11-29 with
     * seed 1 and 5,000 iterations (each with its descent, and room made for jobs left out at the
     * fleet found, issue 40): C101 10 vehicles, 828.94 (+0.00 %); R105 14, 1377.11 (+0.00 %);
     * RC201 4, 1413.52 (+0.47 %); 1.3 s for the three in one process (without the room-making:
     * R105 1391.66, +1.06 %; RC201 1418.36, +0.81 %; 0.8 s).
     * With the annealing made a no-op (fleet minimisation and the closing descent still on):
     * C101 10, 854.32 (+3.06 %); R105 14, 1446.43 (+5.03 %); RC201 4, 1682.06 (+19.6 %). With no
     * search at all (`iterations: 0`, the construction): C101 11 vehicles, 1049.94; R105 16,
     * 1792.74; RC201 5, 2306.73. (Before the descent ran inside the annealing, 20,000 iterations
     * gave +0.00 %, +1.18 % and +3.52 %.)
     */
    const floors: Array<[name: string, gapPercent: number]> = [
      ['C101', 1],
      ['R105', 2],
      ['RC201', 4],
    ];

    it.each(floors)(
      '%s: best-known vehicles, distance within %d per cent of the best known',
      (name, gapPercent) => {
        // Prepare
        const input = readFixture(`${name}.json`);
        const best = bks[name]!;
        const matrix: number[][] = input.matrices.car.durations;

        // Act
        const output = solve(input, { iterations: 5_000, seed: 1, timeLimit: 120 });

        // Assess: the matrix is Euclidean × 1000.
        let distance = 0;
        for (const route of output.routes) {
          const places = route.steps.map((step) => step.location_index!);
          for (let i = 1; i < places.length; i++) distance += matrix[places[i - 1]!]![places[i]!]!;
        }
        distance /= 1000;
        expect(checkSolution(input, output)).toEqual([]);
        expect(output.unassigned).toEqual([]);
        expect(output.routes).toHaveLength(best.vehicles);
        expect(distance).toBeLessThanOrEqual(best.distance * (1 + gapPercent / 100));
      },
      60_000,
    );
  });

  describe('fleet size follows the objective', () => {
    const apart = farApartJobs;

    it('uses two vehicles when a second one costs less than the detour (fixed 5: 2 × 20 + 2 × 5 < 1,020 + 5)', () => {
      const output = solve(apart(5), { iterations: 2000, seed: 1 });
      expect(output.unassigned).toEqual([]);
      expect(output.routes).toHaveLength(2);
      expect(output.summary.cost).toBe(50);
    });

    it('uses one vehicle when a second one costs more than the detour (fixed 100,000)', () => {
      const output = solve(apart(100_000), { iterations: 2000, seed: 1 });
      expect(output.unassigned).toEqual([]);
      expect(output.routes).toHaveLength(1);
      expect(output.summary.cost).toBe(100_000 + 1020);
    });

    /**
     * Depot 0; a west cluster (jobs at 1, 2) and an east one (3, 4): 10 from the depot, 1 within a
     * cluster, 1,000 across. One route over both clusters drives 1,022, two drive 42.
     */
    const clusters = (fixed: number, vehicle: Record<string, unknown>) => {
      const side = [0, -1, -1, 1, 1];
      const durations = side.map((a, i) =>
        side.map((b, j) => (i === j ? 0 : a === 0 || b === 0 ? 10 : a === b ? 1 : 1000)),
      );
      return {
        jobs: [1, 2, 3, 4].map((id) => ({
          id,
          location_index: id,
          delivery: [1],
          time_windows: [[0, 5000]],
        })),
        vehicles: [1, 2, 3].map((id) => ({
          id,
          start_index: 0,
          end_index: 0,
          capacity: [4],
          costs: { fixed },
          ...vehicle,
        })),
        matrices: { car: { durations } },
      };
    };

    it.each([
      {
        when: 'a second vehicle costs less than the detour',
        fixed: 5,
        vehicle: {},
        routes: 2,
        cost: 10 + 42,
      },
      {
        when: 'a second vehicle costs more than the detour',
        fixed: 100_000,
        vehicle: {},
        routes: 1,
        cost: 101_022,
      },
      {
        when: 'the working hours are too short for one route',
        fixed: 100_000,
        vehicle: { time_window: [0, 600] },
        routes: 2,
        cost: 200_042,
      },
      {
        when: 'the capacity is too small for one route',
        fixed: 100_000,
        vehicle: { capacity: [3] },
        routes: 2,
        cost: 200_042,
      },
    ])(
      'with time windows and capacities, $when (fixed $fixed): $routes route(s)',
      ({ fixed, vehicle, routes, cost }) => {
        const output = solve(clusters(fixed, vehicle), { iterations: 2000, seed: 1 });
        expect(output.unassigned).toEqual([]);
        expect(output.routes).toHaveLength(routes);
        expect(output.summary.cost).toBe(cost);
      },
    );
  });
});
