/**
 * Small random VROOM inputs for property tests, with every constraint kind the solver supports:
 * several capacity dimensions with deliveries and pickups, skills, several time windows per job,
 * service times, vehicle working hours, breaks, fixed costs, priorities, max_tasks, open routes
 * (no end), and travel matrices that need not obey the triangle inequality. Some jobs come out
 * impossible on purpose (a skill nobody has, a window nobody reaches, an amount over capacity).
 */

/** A tiny deterministic generator (mulberry32), independent of the solver's. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const chance = (p: number) => next() < p;
  return { next, int, chance };
}

export interface RandomInstanceOptions {
  maxJobs?: number;
  maxVehicles?: number;
}

export function randomInstance(seed: number, options: RandomInstanceOptions = {}) {
  const g = generator(seed);
  const horizon = 400;
  const places = g.int(2, 12);
  const points = Array.from({ length: places }, () => [g.int(0, 100), g.int(0, 100)]);
  const metric = g.chance(0.7);
  const durations = points.map((a, i) =>
    points.map((b, j) => {
      if (i === j) return 0;
      const euclid = Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) / 2);
      return metric ? euclid : g.int(0, 60);
    }),
  );
  const separateCosts = g.chance(0.3);
  const costs = separateCosts ? durations.map((row) => row.map((d) => d + g.int(0, 5))) : undefined;
  const dims = g.int(0, 2);
  const withPickups = dims > 0 && g.chance(0.4);
  const skillPool = [1, 2, 3];
  const subset = (p: number) => skillPool.filter(() => g.chance(p));
  const windows = (count: number, minWidth: number) => {
    const result: Array<[number, number]> = [];
    let cursor = g.int(0, horizon / 4);
    for (let w = 0; w < count && cursor < horizon; w++) {
      const end = Math.min(horizon, cursor + g.int(minWidth, minWidth + 120));
      result.push([cursor, end]);
      cursor = end + g.int(1, 80);
    }
    return result;
  };

  const vehicleCount = g.int(1, options.maxVehicles ?? 4);
  const vehicles = Array.from({ length: vehicleCount }, (_, i) => {
    const vehicle: Record<string, unknown> = {
      id: 100 + i,
      start_index: g.int(0, places - 1),
    };
    if (g.chance(0.8)) vehicle.end_index = g.chance(0.5) ? vehicle.start_index : g.int(0, places - 1);
    if (dims > 0) vehicle.capacity = Array.from({ length: dims }, () => g.int(5, 30));
    const skills = subset(0.6);
    if (skills.length > 0) vehicle.skills = skills;
    if (g.chance(0.7)) {
      const start = g.int(0, 60);
      vehicle.time_window = [start, g.int(start + 150, horizon)];
    }
    if (g.chance(0.4)) {
      vehicle.breaks = Array.from({ length: g.int(1, 2) }, (_, b) => {
        const start = g.int(60, 220);
        const brk: Record<string, unknown> = {
          id: b + 1,
          service: g.int(0, 15),
          time_windows: g.chance(0.3)
            ? [
                [start, start + 30],
                [start + 80, start + 140],
              ]
            : [[start, start + 60]],
        };
        return brk;
      });
    }
    if (g.chance(0.5)) vehicle.costs = { fixed: g.chance(0.5) ? 1000 : g.int(0, 50) };
    if (g.chance(0.15)) vehicle.max_tasks = g.int(1, 4);
    return vehicle;
  });

  const jobCount = g.int(0, options.maxJobs ?? 12);
  const jobs = Array.from({ length: jobCount }, (_, i) => {
    const job: Record<string, unknown> = {
      id: i + 1,
      location_index: g.int(0, places - 1),
    };
    if (g.chance(0.8)) job.service = g.int(0, 20);
    if (dims > 0) {
      job.delivery = Array.from({ length: dims }, () => g.int(0, g.chance(0.05) ? 60 : 10));
      if (withPickups) job.pickup = Array.from({ length: dims }, () => g.int(0, 8));
    }
    if (g.chance(0.25)) job.skills = subset(0.3);
    if (g.chance(0.05)) job.skills = [9];
    if (g.chance(0.3)) job.priority = g.int(0, 100);
    if (g.chance(0.7)) job.time_windows = windows(g.int(1, 3), 10);
    if (g.chance(0.04)) job.time_windows = [[horizon * 5, horizon * 5 + 10]];
    return job;
  });

  const matrices: Record<string, unknown> = { durations };
  if (costs) matrices.costs = costs;
  return { vehicles, jobs, matrices: { car: matrices } };
}
