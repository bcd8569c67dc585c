/**
 * An independent feasibility checker for the tests: it reads the raw VROOM input and output
 * documents and shares no code with the solver (no problem model, no route data), so a bug in the
 * solver's bookkeeping cannot hide itself.
 *
 * What it checks, from the order of the steps and the times the output reports:
 * - every job is either in exactly one route or unassigned; vehicles are used once; every break
 *   of a used vehicle is taken once;
 * - skills, max_tasks, and the load (deliveries loaded at the start, pickups brought back) at
 *   every step against every capacity dimension;
 * - times: each job and break starts (arrival + waiting_time) inside one of its windows; steps do
 *   not overlap; between two stops there is time for the travel plus the breaks taken between
 *   them (VROOM lets a vehicle drive while it waits for a break window); the start is not before
 *   and the end not after the vehicle's working hours;
 * - the summary's cost equals fixed costs plus travel costs recomputed from the matrices.
 * Only matrices-based inputs are supported (the tests build those).
 */

/** The checker reads raw JSON documents, loosely on purpose. */
type Json = any;

const big = 1e15;

function windowsOf(list: Json): Array<[number, number]> {
  if (!list || list.length === 0) return [[0, big]];
  return [...list].map((w: Json) => [w[0], w[1]] as [number, number]).sort((a, b) => a[0] - b[0]);
}

function inWindows(t: number, windows: Array<[number, number]>): boolean {
  return windows.some(([s, e]) => t >= s - 1e-6 && t <= e + 1e-6);
}

/** First start at or after t inside a window, or undefined. */
function firstStartFrom(t: number, windows: Array<[number, number]>): number | undefined {
  for (const [s, e] of windows) if (t <= e) return Math.max(t, s);
  return undefined;
}

function matrixOf(input: Json, vehicle: Json, key: 'durations' | 'costs'): number[][] {
  const profile = vehicle.profile ?? 'car';
  const matrices =
    input.matrices?.[profile] ?? (profile === 'car' && input.matrix ? { durations: input.matrix } : {});
  const matrix = matrices[key] ?? matrices.durations;
  if (!matrix) throw new Error(`checker: no matrix for profile ${profile}`);
  return matrix;
}

function travel(matrix: number[][], from: number | undefined, to: number | undefined): number {
  if (from === undefined || to === undefined) return 0;
  return matrix[from]![to]!;
}

export type Stop = { kind: 'job'; job: Json } | { kind: 'break'; brk: Json };

export interface Simulation {
  feasible: boolean;
  reason?: string;
  travelCost: number;
}

/**
 * The earliest schedule of `stops` for `vehicle`, leaving at the start of its working hours:
 * feasible or not, and the travel cost. Breaks are taken as early as their windows allow after
 * the previous stop, driving while waiting for them.
 */
export function simulate(input: Json, vehicle: Json, stops: Stop[]): Simulation {
  const durations = matrixOf(input, vehicle, 'durations');
  const costs = matrixOf(input, vehicle, 'costs');
  const dims = (vehicle.capacity ?? []).length;
  const capacity: number[] = vehicle.capacity ?? [];
  const vehicleSkills = new Set<number>(vehicle.skills ?? []);
  const jobs = stops.filter((s) => s.kind === 'job').map((s) => (s as { job: Json }).job);
  for (const job of jobs) {
    for (const skill of job.skills ?? []) {
      if (!vehicleSkills.has(skill))
        return { feasible: false, reason: `job ${job.id}: skill ${skill}`, travelCost: 0 };
    }
  }
  if (vehicle.max_tasks !== undefined && jobs.length > vehicle.max_tasks) {
    return { feasible: false, reason: 'max_tasks', travelCost: 0 };
  }
  const load = new Array<number>(dims).fill(0);
  for (const job of jobs)
    for (let k = 0; k < dims; k++) load[k]! += (job.delivery ?? job.amount ?? [])[k] ?? 0;
  for (let k = 0; k < dims; k++) {
    if (load[k]! > capacity[k]!) return { feasible: false, reason: 'load at start', travelCost: 0 };
  }
  for (const job of jobs) {
    for (let k = 0; k < dims; k++) {
      load[k] = load[k]! - ((job.delivery ?? job.amount ?? [])[k] ?? 0) + ((job.pickup ?? [])[k] ?? 0);
      if (load[k]! > capacity[k]!)
        return { feasible: false, reason: `load after job ${job.id}`, travelCost: 0 };
    }
  }
  const [twStart, twEnd] = vehicle.time_window ?? [0, big];
  let free = twStart;
  let place: number | undefined = vehicle.start_index;
  let cost = 0;
  let pendingBreaks: Json[] = [];
  const arrive = (to: number | undefined): number | undefined => {
    let remaining = travel(durations, place, to);
    let current = free;
    for (const brk of pendingBreaks) {
      const start = firstStartFrom(current, windowsOf(brk.time_windows));
      if (start === undefined) return undefined;
      const drive = Math.min(start - current, remaining);
      remaining -= drive;
      current = start + (brk.service ?? 0);
    }
    pendingBreaks = [];
    cost += travel(costs, place, to);
    return current + remaining;
  };
  for (const stop of stops) {
    if (stop.kind === 'break') {
      pendingBreaks.push(stop.brk);
      continue;
    }
    const arrival = arrive(stop.job.location_index);
    if (arrival === undefined)
      return { feasible: false, reason: `break before job ${stop.job.id}`, travelCost: cost };
    const start = firstStartFrom(arrival, windowsOf(stop.job.time_windows));
    if (start === undefined)
      return { feasible: false, reason: `late at job ${stop.job.id}`, travelCost: cost };
    free = start + (stop.job.service ?? 0);
    place = stop.job.location_index;
  }
  const end = arrive(vehicle.end_index);
  if (end === undefined) return { feasible: false, reason: 'break before end', travelCost: cost };
  if (end > twEnd + 1e-6) return { feasible: false, reason: 'late at end', travelCost: cost };
  return { feasible: true, travelCost: cost };
}

/** Every violation found in `output` for `input`; empty when the solution is feasible. */
export function checkSolution(input: Json, output: Json): string[] {
  const problems: string[] = [];
  const jobsById = new Map<number, Json>((input.jobs ?? []).map((job: Json) => [job.id, job]));
  const vehiclesById = new Map<number, Json>(input.vehicles.map((v: Json) => [v.id, v]));
  const seen = new Map<number, string>();
  const usedVehicles = new Set<number>();
  let totalCost = 0;
  if (output.code !== 0) problems.push(`code ${output.code}`);
  for (const route of output.routes) {
    const vehicle = vehiclesById.get(route.vehicle);
    if (!vehicle) {
      problems.push(`route of unknown vehicle ${route.vehicle}`);
      continue;
    }
    if (usedVehicles.has(route.vehicle)) problems.push(`vehicle ${route.vehicle} used twice`);
    usedVehicles.add(route.vehicle);
    const steps: Json[] = route.steps;
    if (steps[0]?.type !== 'start' || steps[steps.length - 1]?.type !== 'end') {
      problems.push(`vehicle ${route.vehicle}: steps must go from start to end`);
      continue;
    }
    const stops: Stop[] = [];
    const breaksTaken = new Set<number>();
    for (const step of steps.slice(1, -1)) {
      if (step.type === 'job') {
        const job = jobsById.get(step.id);
        if (!job) {
          problems.push(`unknown job ${step.id}`);
          continue;
        }
        if (seen.has(step.id)) problems.push(`job ${step.id} served twice`);
        seen.set(step.id, `vehicle ${route.vehicle}`);
        stops.push({ kind: 'job', job });
      } else if (step.type === 'break') {
        const brk = (vehicle.breaks ?? []).find((b: Json) => b.id === step.id);
        if (!brk) problems.push(`vehicle ${route.vehicle}: unknown break ${step.id}`);
        else if (breaksTaken.has(step.id)) problems.push(`vehicle ${route.vehicle}: break ${step.id} twice`);
        else {
          breaksTaken.add(step.id);
          stops.push({ kind: 'break', brk });
        }
      } else {
        problems.push(`vehicle ${route.vehicle}: unexpected step type ${step.type}`);
      }
    }
    if (stops.every((s) => s.kind === 'break')) continue;
    for (const brk of vehicle.breaks ?? []) {
      if (!breaksTaken.has(brk.id)) problems.push(`vehicle ${route.vehicle}: break ${brk.id} not taken`);
    }
    const simulation = simulate(input, vehicle, stops);
    if (!simulation.feasible) problems.push(`vehicle ${route.vehicle}: ${simulation.reason}`);
    totalCost += simulation.travelCost + (vehicle.costs?.fixed ?? 0);
    problems.push(...checkReportedTimes(input, vehicle, steps));
  }
  for (const entry of output.unassigned) {
    if (seen.has(entry.id)) problems.push(`job ${entry.id} both served and unassigned`);
    seen.set(entry.id, 'unassigned');
  }
  for (const id of jobsById.keys()) if (!seen.has(id)) problems.push(`job ${id} missing from the output`);
  if (Math.abs(output.summary.cost - totalCost) > 1e-6 * Math.max(1, totalCost)) {
    problems.push(`summary cost ${output.summary.cost}, recomputed ${totalCost}`);
  }
  return problems;
}

/** The times the output reports must themselves be a feasible schedule. */
function checkReportedTimes(input: Json, vehicle: Json, steps: Json[]): string[] {
  const problems: string[] = [];
  const durations = matrixOf(input, vehicle, 'durations');
  const jobsById = new Map<number, Json>((input.jobs ?? []).map((job: Json) => [job.id, job]));
  const [twStart, twEnd] = vehicle.time_window ?? [0, big];
  const label = `vehicle ${vehicle.id}`;
  const first = steps[0];
  if (first.arrival < twStart - 1e-6) problems.push(`${label}: leaves before its time window`);
  let previousEnd = first.arrival;
  let lastStopEnd = first.arrival;
  let lastPlace: number | undefined = vehicle.start_index;
  let breakService = 0;
  for (const step of steps.slice(1)) {
    const start = step.arrival + (step.waiting_time ?? 0);
    if (step.arrival < previousEnd - 1e-6) problems.push(`${label}: ${step.type} ${step.id ?? ''} overlaps`);
    if (step.type === 'break') {
      const brk = (vehicle.breaks ?? []).find((b: Json) => b.id === step.id);
      if (brk && !inWindows(start, windowsOf(brk.time_windows))) {
        problems.push(`${label}: break ${step.id} starts at ${start} outside its windows`);
      }
      breakService += brk?.service ?? 0;
      previousEnd = start + (brk?.service ?? 0);
      continue;
    }
    const place = step.type === 'end' ? vehicle.end_index : jobsById.get(step.id)?.location_index;
    const needed = travel(durations, lastPlace, place) + breakService;
    if (start - lastStopEnd < needed - 1e-6) {
      problems.push(`${label}: ${step.type} ${step.id ?? ''} reached too early (no time to travel)`);
    }
    if (step.type === 'job') {
      const job = jobsById.get(step.id);
      if (job && !inWindows(start, windowsOf(job.time_windows))) {
        problems.push(`${label}: job ${step.id} starts at ${start} outside its windows`);
      }
      previousEnd = start + (job?.service ?? 0);
    } else {
      if (step.arrival > twEnd + 1e-6) problems.push(`${label}: ends after its time window`);
      previousEnd = start;
    }
    lastStopEnd = previousEnd;
    lastPlace = place;
    breakService = 0;
  }
  return problems;
}

/**
 * Ids of the unassigned jobs that would fit somewhere in the solution as it stands (any route,
 * any position, or alone in an unused vehicle): a solver should have placed them.
 */
export function insertableUnassigned(input: Json, output: Json): number[] {
  const jobsById = new Map<number, Json>((input.jobs ?? []).map((job: Json) => [job.id, job]));
  const routes = new Map<number, Stop[]>();
  for (const route of output.routes) {
    const vehicle = input.vehicles.find((v: Json) => v.id === route.vehicle);
    routes.set(
      route.vehicle,
      route.steps
        .filter((s: Json) => s.type === 'job' || s.type === 'break')
        .map((s: Json) =>
          s.type === 'job'
            ? { kind: 'job', job: jobsById.get(s.id) }
            : { kind: 'break', brk: (vehicle.breaks ?? []).find((b: Json) => b.id === s.id) },
        ),
    );
  }
  const found: number[] = [];
  for (const entry of output.unassigned) {
    const job = jobsById.get(entry.id);
    const fits = input.vehicles.some((vehicle: Json) => {
      const stops: Stop[] =
        routes.get(vehicle.id) ??
        [...(vehicle.breaks ?? [])]
          .sort((a: Json, b: Json) => windowsOf(a.time_windows)[0]![0] - windowsOf(b.time_windows)[0]![0])
          .map((brk: Json) => ({ kind: 'break', brk }) as Stop);
      for (let p = 0; p <= stops.length; p++) {
        const trial = [...stops.slice(0, p), { kind: 'job', job } as Stop, ...stops.slice(p)];
        if (simulate(input, vehicle, trial).feasible) return true;
      }
      return false;
    });
    if (fits) found.push(entry.id);
  }
  return found;
}

/**
 * Ids of the unassigned jobs that could take the place of a served job of lower priority (same
 * route, same position) with the route still feasible: VROOM's objective puts the priority left
 * out first, so a solver should have made that exchange.
 */
export function replaceableUnassigned(input: Json, output: Json): number[] {
  const jobsById = new Map<number, Json>((input.jobs ?? []).map((job: Json) => [job.id, job]));
  const found: number[] = [];
  for (const entry of output.unassigned) {
    const job = jobsById.get(entry.id);
    const priority = job.priority ?? 0;
    const fits = output.routes.some((route: Json) => {
      const vehicle = input.vehicles.find((v: Json) => v.id === route.vehicle);
      const stops: Stop[] = route.steps
        .filter((s: Json) => s.type === 'job' || s.type === 'break')
        .map((s: Json) =>
          s.type === 'job'
            ? { kind: 'job', job: jobsById.get(s.id) }
            : { kind: 'break', brk: (vehicle.breaks ?? []).find((b: Json) => b.id === s.id) },
        );
      return stops.some((stop, p) => {
        if (stop.kind !== 'job' || (stop.job.priority ?? 0) >= priority) return false;
        const trial = [...stops.slice(0, p), { kind: 'job', job } as Stop, ...stops.slice(p + 1)];
        return simulate(input, vehicle, trial).feasible;
      });
    });
    if (fits) found.push(entry.id);
  }
  return found;
}
