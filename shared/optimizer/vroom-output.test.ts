import { describe, expect, it } from 'vitest';
import { solve } from './solve.ts';

const options = { iterations: 200, seed: 1 };

type Json = Record<string, unknown>;

/** Jobs at location_index 1..n (in order), vehicles starting and ending at index 0, over `durations`. */
function instance(durations: number[][], jobs: Json[], vehicles: Json[]) {
  return {
    jobs: jobs.map((job, i) => ({ id: i + 1, location_index: i + 1, ...job })),
    vehicles: vehicles.map((vehicle, i) => ({ id: i + 1, start_index: 0, end_index: 0, ...vehicle })),
    matrices: { car: { durations } },
  };
}

/** Every leg 900 s: at per_hour 10 a leg costs 2.5 and a tour of three legs 7.5. */
const triangle = [
  [0, 900, 900],
  [900, 0, 900],
  [900, 900, 0],
];

/** Depot 0 and jobs 1, 2: 1 → 2 is cheap and 2 → 1 dear, so the route is 0, 1, 2, 0 (40 s of travel). */
const oneWay = [
  [0, 10, 20],
  [10, 0, 10],
  [20, 100, 0],
];

const times = (output: ReturnType<typeof solve>) =>
  output.routes[0]!.steps.map((s) => ({ type: s.type, arrival: s.arrival, waiting_time: s.waiting_time }));

describe('VROOM output', () => {
  describe('costs', () => {
    it('rounds the route travel cost once, from its total duration, when the problem has time windows', () => {
      // Prepare: 2,700 s at 10 per hour is 7.5; rounded legs would give 3 × 3 = 9, truncation 7.
      const input = instance(
        triangle,
        [{}, {}],
        [{ time_window: [0, 100_000], costs: { fixed: 100, per_hour: 10 } }],
      );

      // Act
      const output = solve(input, options);

      // Assess
      expect(output.routes[0]).toMatchObject({ cost: 108, duration: 2700 });
      expect(output.summary.cost).toBe(108);
    });

    it('truncates the travel cost when nothing is timed, as VROOM CVRP output does', () => {
      // Prepare: the same tour without any window or break.
      const input = instance(triangle, [{}, {}], [{ costs: { fixed: 100, per_hour: 10 } }]);

      // Act
      const output = solve(input, options);

      // Assess
      expect(output.routes[0]!.cost).toBe(107);
      expect(output.summary.cost).toBe(107);
    });

    it('reports the summary cost as the sum of the integer route costs', () => {
      // Prepare: skills force one job per vehicle; each tour is 2 × 1,350 s = 7.5 at 10 per hour.
      const durations = [
        [0, 1350, 1350],
        [1350, 0, 1350],
        [1350, 1350, 0],
      ];
      const vehicle = { time_window: [0, 100_000], costs: { per_hour: 10 } };
      const input = instance(
        durations,
        [{ skills: [1] }, { skills: [2] }],
        [
          { ...vehicle, skills: [1] },
          { ...vehicle, skills: [2] },
        ],
      );

      // Act
      const output = solve(input, options);

      // Assess: 8 + 8, not the rounded exact total 15.
      expect(output.routes.map((r) => r.cost)).toEqual([8, 8]);
      expect(output.summary.cost).toBe(16);
    });

    it('adds per_km costs to per_hour costs before rounding', () => {
      // Prepare: 2,700 s at 1 per hour (0.75) and 3 × 1,250 m at 0.2 per km (0.75): 1.5 rounds to 2,
      // whereas rounding each part would give 1 + 1 and truncating 1.
      const distances = triangle.map((row) => row.map((d) => (d === 0 ? 0 : 1250)));
      const input = {
        ...instance(triangle, [{}, {}], [{ time_window: [0, 100_000], costs: { per_hour: 1, per_km: 0.2 } }]),
        matrices: { car: { durations: triangle, distances } },
      };

      // Act
      const output = solve(input, options);

      // Assess
      expect(output.routes[0]).toMatchObject({ cost: 2, distance: 3750 });
    });
  });

  describe('schedule', () => {
    it('leaves the start just in time for a first job with a late window', () => {
      // Prepare
      const input = instance(
        oneWay,
        [{ time_windows: [[300, 400]], service: 5 }],
        [{ time_window: [0, 1000] }],
      );

      // Act
      const output = solve(input, options);

      // Assess
      expect(times(output)).toEqual([
        { type: 'start', arrival: 290, waiting_time: 0 },
        { type: 'job', arrival: 300, waiting_time: 0 },
        { type: 'end', arrival: 315, waiting_time: 0 },
      ]);
    });

    it('leaves as late as the earliest end allows, so a wait at a later job disappears', () => {
      // Prepare: job 1 can be served any time, job 2 not before 500. Served early, job 1 would
      // leave the vehicle waiting 475 s at job 2; VROOM delays the start instead.
      const input = instance(
        oneWay,
        [
          { service: 5, time_windows: [[0, 1000]] },
          { service: 5, time_windows: [[500, 600]] },
        ],
        [{ time_window: [0, 1000] }],
      );

      // Act
      const output = solve(input, options);

      // Assess
      expect(times(output)).toEqual([
        { type: 'start', arrival: 475, waiting_time: 0 },
        { type: 'job', arrival: 485, waiting_time: 0 },
        { type: 'job', arrival: 500, waiting_time: 0 },
        { type: 'end', arrival: 525, waiting_time: 0 },
      ]);
      expect(output.routes[0]).toMatchObject({ duration: 40, waiting_time: 0 });
    });

    it('keeps the wait that the earliest end cannot avoid, after the latest possible departure', () => {
      // Prepare: job 1 must start by 50 and job 2 not before 500, so the vehicle leaves at 40 and
      // waits 435 s at job 2 (not 475 s, as leaving at 0 would make it).
      const input = instance(
        oneWay,
        [
          { service: 5, time_windows: [[0, 50]] },
          { service: 5, time_windows: [[500, 600]] },
        ],
        [{ time_window: [0, 1000] }],
      );

      // Act
      const output = solve(input, options);

      // Assess
      expect(times(output)).toEqual([
        { type: 'start', arrival: 40, waiting_time: 0 },
        { type: 'job', arrival: 50, waiting_time: 0 },
        { type: 'job', arrival: 65, waiting_time: 435 },
        { type: 'end', arrival: 525, waiting_time: 0 },
      ]);
      expect(output.summary.waiting_time).toBe(435);
    });

    it('leaves at the latest start of a break on the first leg, and waits at the job after it', () => {
      // Prepare: a 10 s break in [100, 300], then job 1 (10 s away) not before 400; the earliest end
      // is 410. As in VROOM's format_route, the latest departure is the break's latest start (300):
      // the break is taken on leaving, the drive follows, and the vehicle waits 80 s at job 1.
      const input = instance(
        oneWay,
        [{ time_windows: [[400, 500]] }],
        [{ time_window: [0, 1000], breaks: [{ id: 7, service: 10, time_windows: [[100, 300]] }] }],
      );

      // Act
      const output = solve(input, options);

      // Assess
      expect(times(output)).toEqual([
        { type: 'start', arrival: 300, waiting_time: 0 },
        { type: 'break', arrival: 300, waiting_time: 0 },
        { type: 'job', arrival: 320, waiting_time: 80 },
        { type: 'end', arrival: 410, waiting_time: 0 },
      ]);
    });
  });
});
