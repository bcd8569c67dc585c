/**
 * The REPAIR run's planner: a day that still works is kept as it is; one that drifted gets the
 * fewest changes, every route it answers works (windows, shift end, skills), and every remaining
 * stop is planned once or left out, never lost or doubled. Random days from a seeded generator.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../optimizer/random.ts';
import { repairPlan } from './repair-plan.ts';

/** Places on a line, one minute apart per unit: place i is at i. */
function lineMatrix(size: number) {
  const durations = Array.from({ length: size }, (_, a) =>
    Array.from({ length: size }, (_, b) => Math.abs(a - b) * 60),
  );
  return { durations, distances: durations.map((row) => row.map((seconds) => seconds * 10)) };
}

interface Day {
  jobs: Array<Record<string, unknown>>;
  vehicles: Array<Record<string, unknown>>;
  current: number[][];
}

/** A random day: `routes` technicians, a few stops each in a random order, windows some of them miss. */
function randomDay(random: Random, routes: number, places: number): Day {
  const jobs: Day['jobs'] = [];
  const vehicles: Day['vehicles'] = [];
  const current: number[][] = [];
  for (let v = 0; v < routes; v++) {
    const skills = [100 + v, ...(random.float() < 0.5 ? [1] : [])];
    vehicles.push({
      id: v + 1,
      start_index: 0,
      end_index: 0,
      time_window: [0, 3600 * (3 + random.int(4))],
      skills,
      breaks: random.float() < 0.3 ? [{ id: 1, time_windows: [[3600, 5400]], service: 900 }] : [],
    });
    const stops: number[] = [];
    for (let s = 0, count = 2 + random.int(5); s < count; s++) {
      const id = jobs.length + 1;
      const open = random.int(4) * 1800;
      jobs.push({
        id,
        location_index: 1 + random.int(places - 1),
        service: 600 + random.int(4) * 300,
        skills: random.float() < 0.2 ? [100 + v] : random.float() < 0.2 ? [1] : [],
        priority: [0, 25, 60, 100][random.int(4)],
        time_windows: random.float() < 0.6 ? [[open, open + 1800 + random.int(4) * 1800]] : [[0, 86_400]],
      });
      stops.push(id);
    }
    current.push(stops);
  }
  return { jobs, vehicles, current };
}

/** Replays a route as the answer states it: every start inside a window, the end reached in time. */
function assertRouteWorks(
  day: Day,
  route: { vehicle: number; steps: Array<Record<string, unknown>> },
  matrix: ReturnType<typeof lineMatrix>,
) {
  const vehicle = day.vehicles[route.vehicle - 1] as {
    time_window: [number, number];
    skills: number[];
    end_index: number;
  };
  let place = 0;
  let time = vehicle.time_window[0];
  for (const step of route.steps) {
    const job = day.jobs[(step.id as number) - 1] as {
      location_index: number;
      service: number;
      skills: number[];
      time_windows: Array<[number, number]>;
    };
    expect(job.skills.every((skill) => vehicle.skills.includes(skill))).toBe(true);
    const arrival = step.arrival as number;
    expect(arrival).toBeGreaterThanOrEqual(time + (matrix.durations[place]?.[job.location_index] ?? 0));
    const start = arrival + (step.waiting_time as number);
    expect(job.time_windows.some(([open, close]) => start >= open && start <= close)).toBe(true);
    time = start + job.service;
    place = job.location_index;
  }
  expect(time + (matrix.durations[place]?.[vehicle.end_index] ?? 0)).toBeLessThanOrEqual(
    vehicle.time_window[1],
  );
}

describe('A REPAIR run’s plan', () => {
  it('keeps a day that still works exactly as it is: no change', () => {
    const matrix = lineMatrix(10);
    const vehicle = {
      id: 1,
      start_index: 0,
      end_index: 0,
      time_window: [0, 8 * 3600],
      skills: [],
      breaks: [],
    };
    const job = (id: number, place: number) => ({
      id,
      location_index: place,
      service: 600,
      skills: [],
      priority: 25,
      time_windows: [[0, 8 * 3600]],
    });
    // Driving order 9, 1, 8 is not the shortest, but it works: a repair leaves it alone.
    const { answer, reordered, reassigned } = repairPlan(
      { jobs: [job(1, 9), job(2, 1), job(3, 8)], vehicles: [vehicle] },
      [[1, 2, 3]],
      matrix,
    );
    expect(answer.routes[0]?.steps.map((step) => step.id)).toEqual([1, 2, 3]);
    expect(answer.unassigned).toEqual([]);
    expect({ reordered, reassigned }).toEqual({ reordered: 0, reassigned: 0 });
  });

  it('moves the one stop whose window would be missed, and leaves the rest in their order', () => {
    const matrix = lineMatrix(10);
    const vehicle = {
      id: 1,
      start_index: 0,
      end_index: 0,
      time_window: [0, 8 * 3600],
      skills: [],
      breaks: [],
    };
    const job = (id: number, place: number, windows: number[][]) => ({
      id,
      location_index: place,
      service: 1800,
      skills: [],
      priority: 25,
      time_windows: windows,
    });
    // Stop 4 must start within the first 40 minutes; as fourth it would start after two hours.
    const { answer, reordered } = repairPlan(
      {
        jobs: [
          job(1, 1, [[0, 86_400]]),
          job(2, 2, [[0, 86_400]]),
          job(3, 3, [[0, 86_400]]),
          job(4, 4, [[0, 2400]]),
        ],
        vehicles: [vehicle],
      },
      [[1, 2, 3, 4]],
      matrix,
    );
    const order = answer.routes[0]?.steps.map((step) => step.id) ?? [];
    expect(order.filter((id) => id !== 4)).toEqual([1, 2, 3]);
    expect(order).toContain(4);
    expect(reordered).toBe(1);
  });

  it('gives a stop to another technician rather than leaving it out, and leaves out the least urgent when nothing else works', () => {
    const matrix = lineMatrix(10);
    const short = { id: 1, start_index: 0, end_index: 0, time_window: [0, 3600], skills: [], breaks: [] };
    const free = { id: 2, start_index: 0, end_index: 0, time_window: [0, 8 * 3600], skills: [], breaks: [] };
    const job = (id: number, priority: number) => ({
      id,
      location_index: 1,
      service: 1500,
      skills: [],
      priority,
      time_windows: [[0, 86_400]],
    });
    const given = repairPlan(
      { jobs: [job(1, 25), job(2, 25), job(3, 25)], vehicles: [short, free] },
      [[1, 2, 3], []],
      matrix,
    );
    expect(given.answer.unassigned).toEqual([]);
    expect(given.reassigned).toBe(1);

    const alone = repairPlan(
      { jobs: [job(1, 100), job(2, 0), job(3, 60)], vehicles: [short] },
      [[1, 2, 3]],
      matrix,
    );
    expect(alone.answer.unassigned).toEqual([{ id: 2 }]);
    expect(alone.answer.routes[0]?.steps.map((step) => step.id)).toEqual([1, 3]);
  });

  it('answers, for any drifted day, routes that work and every stop once', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = new Random(seed);
      const day = randomDay(random, 1 + random.int(3), 12);
      const matrix = lineMatrix(12);

      const { answer } = repairPlan({ jobs: day.jobs, vehicles: day.vehicles }, day.current, matrix);

      const planned = answer.routes.flatMap((route) => route.steps.map((step) => step.id));
      const left = answer.unassigned.map((entry) => entry.id);
      expect(
        [...planned, ...left].sort((a, b) => (a ?? 0) - (b ?? 0)),
        `seed ${seed}`,
      ).toEqual(day.jobs.map((job) => job.id));
      for (const route of answer.routes) assertRouteWorks(day, route, matrix);
    }
  });
});
