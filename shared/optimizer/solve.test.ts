import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomInstance } from '../../test/support/optimizer/random-instances.ts';
import {
  checkSolution,
  insertableUnassigned,
  replaceableUnassigned,
  simulate,
} from '../../test/support/optimizer/vroom-checker.ts';
import { type OptimizerInputError, solve } from './solve.ts';

const line = (count: number) =>
  Array.from({ length: count }, (_, i) => Array.from({ length: count }, (_, j) => Math.abs(i - j) * 10));

/** Depot at index 0, jobs at 1..n on a line, 10 time units apart. */
function lineInstance(jobs: Array<Record<string, unknown>>, vehicles: Array<Record<string, unknown>>) {
  return {
    jobs: jobs.map((job, i) => ({ id: i + 1, location_index: i + 1, ...job })),
    vehicles: vehicles.map((vehicle, i) => ({ id: i + 1, start_index: 0, end_index: 0, ...vehicle })),
    matrices: { car: { durations: line(jobs.length + 1) } },
  };
}

const quick = { iterations: 300, timeLimit: 5 };

const unassignedIds = (output: { unassigned: Array<{ id: number }> }) =>
  output.unassigned.map((u) => u.id).sort();

describe('Solver', () => {
  describe('feasibility', () => {
    it('returns only solutions an independent checker accepts, on random instances with every constraint kind', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          // Prepare
          const input = randomInstance(seed);

          // Act
          let output: ReturnType<typeof solve>;
          try {
            output = solve(input, { ...quick, seed });
          } catch (error) {
            // Only a vehicle whose breaks cannot be taken even without jobs may be refused.
            const field = (error as OptimizerInputError).field ?? '';
            const vehicle: any = input.vehicles[Number(/^vehicles\[(\d+)\]\.breaks$/.exec(field)?.[1] ?? -1)];
            expect(vehicle).toBeDefined();
            const breaks = [...vehicle.breaks].sort((a, b) => a.time_windows[0][0] - b.time_windows[0][0]);
            expect(
              simulate(
                input,
                vehicle,
                breaks.map((brk) => ({ kind: 'break', brk })),
              ).feasible,
            ).toBe(false);
            return;
          }

          // Assess
          expect(checkSolution(input, output)).toEqual([]);
          expect(insertableUnassigned(input, output)).toEqual([]);
          expect(replaceableUnassigned(input, output)).toEqual([]);
        }),
        { numRuns: 100 },
      );
    });
  });

  describe('unassigned jobs', () => {
    it('leaves a job unassigned when no vehicle has its skill', () => {
      // Prepare
      const input = lineInstance([{ skills: [7] }, { skills: [1] }, {}], [{ skills: [1, 2] }]);

      // Act
      const output = solve(input, quick);

      // Assess
      expect(unassignedIds(output)).toEqual([1]);
      expect(checkSolution(input, output)).toEqual([]);
    });

    it('leaves a job unassigned when its time window cannot be reached', () => {
      // Job 3 is 30 away from the depot and must start by 20.
      const input = lineInstance([{}, {}, { time_windows: [[0, 20]] }], [{ time_window: [0, 1000] }]);
      const output = solve(input, quick);
      expect(unassignedIds(output)).toEqual([3]);
    });

    it('leaves a job unassigned when it is heavier than any vehicle', () => {
      const input = lineInstance(
        [{ delivery: [5, 1] }, { delivery: [2, 40] }, { pickup: [11, 0] }],
        [{ capacity: [10, 20] }, { capacity: [20, 30] }],
      );
      const output = solve(input, quick);
      expect(unassignedIds(output)).toEqual([2]);
      expect(checkSolution(input, output)).toEqual([]);
    });

    it('leaves the least important job out when not all fit', () => {
      const input = lineInstance(
        [
          { delivery: [6], priority: 10 },
          { delivery: [6], priority: 90 },
          { delivery: [6], priority: 50 },
        ],
        [{ capacity: [12] }],
      );
      const output = solve(input, quick);
      expect(unassignedIds(output)).toEqual([1]);
    });

    it('leaves out the least important jobs when the time does not allow all of them', () => {
      // Prepare: one vehicle with 100 time units; each job takes 10 of service and the line's travel,
      // so three near jobs (1, 2, 3: priorities 85 in all) fit, or two that reach job 4 (2 and 4: 140).
      const input = lineInstance(
        [
          { service: 10, priority: 5 },
          { service: 10, priority: 80 },
          { service: 10, priority: 0 },
          { service: 10, priority: 60 },
        ],
        [{ time_window: [0, 100] }],
      );

      // Act
      const output = solve(input, quick);

      // Assess: the priority served comes before the number of jobs (80 travel + 20 service).
      expect(unassignedIds(output)).toEqual([1, 3]);
      expect(checkSolution(input, output)).toEqual([]);
    });

    it('reports unassigned jobs with their id, type and location', () => {
      const input = lineInstance([{ skills: [3] }], [{}]);
      const output = solve(input, quick);
      expect(output.unassigned).toEqual([{ id: 1, type: 'job', location_index: 1 }]);
    });
  });

  describe('constraints', () => {
    it('starts a job in its second window when the first cannot be reached', () => {
      const input = lineInstance(
        [
          {
            time_windows: [
              [0, 5],
              [100, 110],
            ],
          },
        ],
        [{}],
      );
      const output = solve(input, quick);
      const step = output.routes[0]!.steps[1]!;
      expect(step.arrival + step.waiting_time).toBe(100);
    });

    it('places a break inside its window and keeps the jobs in theirs', () => {
      const input = lineInstance(
        [
          { service: 30, time_windows: [[0, 40]] },
          { service: 30, time_windows: [[60, 100]] },
        ],
        [{ time_window: [0, 300], breaks: [{ id: 9, service: 20, time_windows: [[50, 70]] }] }],
      );
      const output = solve(input, quick);
      expect(output.unassigned).toEqual([]);
      const brk = output.routes[0]!.steps.find((s) => s.type === 'break')!;
      expect(brk.id).toBe(9);
      expect(brk.arrival + brk.waiting_time).toBeGreaterThanOrEqual(50);
      expect(brk.arrival + brk.waiting_time).toBeLessThanOrEqual(70);
      expect(checkSolution(input, output)).toEqual([]);
    });

    it('refuses a vehicle whose breaks cannot fit in its working hours', () => {
      const input = lineInstance(
        [{}],
        [{ time_window: [0, 100], breaks: [{ id: 1, time_windows: [[200, 300]] }] }],
      );
      expect(() => solve(input, quick)).toThrow(
        "vehicles[0].breaks: cannot all be taken within the vehicle's time_window",
      );
    });

    it('uses one vehicle instead of two when vehicles have a fixed cost', () => {
      const input = lineInstance([{}, {}, {}, {}], [{ costs: { fixed: 1000 } }, { costs: { fixed: 1000 } }]);
      const output = solve(input, quick);
      expect(output.routes).toHaveLength(1);
      expect(output.summary.cost).toBe(1000 + 80);
    });

    it('gives jobs to the vehicle that has the skills', () => {
      const input = lineInstance([{ skills: [2] }, { skills: [1] }], [{ skills: [1] }, { skills: [1, 2] }]);
      const output = solve(input, quick);
      const vehicleOf = (id: number) =>
        output.routes.find((r) => r.steps.some((s) => s.id === id && s.type === 'job'));
      expect(vehicleOf(1)?.vehicle).toBe(2);
      expect(checkSolution(input, output)).toEqual([]);
    });

    it('respects max_tasks', () => {
      const input = lineInstance([{}, {}, {}], [{ max_tasks: 2 }, { max_tasks: 2 }]);
      const output = solve(input, quick);
      expect(output.unassigned).toEqual([]);
      for (const route of output.routes)
        expect(route.steps.filter((s) => s.type === 'job').length).toBeLessThanOrEqual(2);
    });

    it('computes travel from coordinates when no matrix is given (great circle × 1.3 at 40 km/h)', () => {
      // One degree of longitude on the equator is about 111.2 km.
      const input = {
        vehicles: [{ id: 1, start: [0, 0], end: [0, 0] }],
        jobs: [{ id: 1, location: [1, 0] }],
      };
      const output = solve(input, quick);
      const job = output.routes[0]!.steps[1]!;
      expect(job.location).toEqual([1, 0]);
      expect(job.distance).toBeCloseTo(111_195 * 1.3, -1);
      expect(job.arrival).toBeCloseTo((111_195 * 1.3) / (40_000 / 3600), -1);
      expect(output.summary.distance).toBe(2 * job.distance!);
    });
  });

  describe('output', () => {
    it('answers in VROOM shape: code, summary, unassigned and routes of steps', () => {
      const input = lineInstance(
        [
          { service: 5, delivery: [2] },
          { service: 5, delivery: [3] },
        ],
        [{ capacity: [10] }],
      );
      const output = solve(input, quick);
      expect(output.code).toBe(0);
      expect(output.summary).toMatchObject({
        cost: 40,
        routes: 1,
        unassigned: 0,
        service: 10,
        duration: 40,
        waiting_time: 0,
        delivery: [5],
        pickup: [0],
      });
      expect(output.routes[0]!.steps.map((s) => s.type)).toEqual(['start', 'job', 'job', 'end']);
      expect(output.routes[0]!.steps[0]).toMatchObject({
        type: 'start',
        location_index: 0,
        arrival: 0,
        load: [5],
      });
      expect(output.routes[0]!.steps[3]).toMatchObject({ type: 'end', arrival: 50, duration: 40, load: [0] });
    });
  });

  describe('search', () => {
    it('gives the same answer for the same seed and iteration budget', () => {
      const input = randomInstance(424242, { maxJobs: 12 });
      const strip = (output: ReturnType<typeof solve>) => ({
        ...output,
        summary: { ...output.summary, computing_times: 0 },
      });
      const first = solve(input, { iterations: 500, seed: 7, timeLimit: 30 });
      const second = solve(input, { iterations: 500, seed: 7, timeLimit: 30 });
      expect(strip(second)).toEqual(strip(first));
    });

    it('stops by its time limit with a feasible answer', () => {
      // 150 jobs on a grid, one time window each: enough work to fill any time limit.
      const size = 151;
      const points = Array.from({ length: size }, (_, i) => [(i * 37) % 100, (i * 61) % 100]);
      const durations = points.map((a) =>
        points.map((b) => Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!))),
      );
      const input = {
        jobs: Array.from({ length: size - 1 }, (_, i) => ({
          id: i + 1,
          location_index: i + 1,
          service: 10,
          delivery: [1],
          time_windows: [[(i * 13) % 500, ((i * 13) % 500) + 200]],
        })),
        vehicles: Array.from({ length: 20 }, (_, i) => ({
          id: i + 1,
          start_index: 0,
          end_index: 0,
          capacity: [15],
          time_window: [0, 1000],
          costs: { fixed: 10_000 },
        })),
        matrices: { car: { durations } },
      };
      const began = performance.now();
      const output = solve(input, { timeLimit: 0.4 });
      const elapsed = performance.now() - began;
      expect(elapsed).toBeLessThan(600);
      expect(elapsed).toBeGreaterThan(300);
      expect(checkSolution(input, output)).toEqual([]);
    });
  });
});
