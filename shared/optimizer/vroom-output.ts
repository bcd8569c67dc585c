/**
 * The VROOM output document for a solution (VROOM-Project/vroom, docs/API.md, "Output"): code,
 * summary, unassigned and routes with their steps, in VROOM's shape and units.
 *
 * Costs are integers, computed as VROOM reports them (src/utils/helpers.cpp, `format_route` and
 * the plain `format_solution`; src/structures/vroom/cost_wrapper.cpp), not as the search prices
 * them (exact fractions, which is what it optimises):
 * - route cost = the vehicle's fixed cost + the route's travel cost, each an integer;
 * - with a `costs` matrix the travel cost is the sum of its entries along the route;
 * - otherwise it is computed once per route from its totals, D seconds of travel and M metres:
 *   D × per_hour / 3600 + M × per_km / 1000, rounded half up when the problem has any time
 *   constraint (a job window, a vehicle time_window, a break: VROOM's VRPTW path), truncated when
 *   it has none (VROOM's CVRP path scales every leg to 1/360000 of a unit and truncates the sum).
 *   It is neither the sum of rounded legs nor the exact sum;
 * - summary cost = the sum of the route costs (src/structures/vroom/solution/solution.cpp).
 * VROOM accepts only integers for fixed, per_hour, per_km and matrices; this solver accepts
 * fractions, and then rounds the fixed cost half up and the sum of a `costs` matrix likewise.
 *
 * The schedule is VROOM's (`format_route`): the route ends at its earliest possible time; the
 * vehicle leaves its start as late as it can without ending later, so the route waits no more
 * than that end requires; from that departure every stop is served as early as possible, a wait
 * that remains falling where the first window forces it. Breaks follow the rule of route.ts:
 * taken on the leg after the previous stop, as early as their windows allow, waiting for a break
 * window spent driving; a break step's arrival is when the vehicle stops for it. With
 * speed_factor ≠ 1 times can differ from VROOM's by rounding (problem.ts rounds each leg to a
 * second, VROOM works in 1/100 s). `distance` appears when the input gave distance matrices or
 * coordinates.
 */
import type { Problem } from './problem.ts';
import type { Route } from './route.ts';
import type { Solution } from './solution.ts';
import { earliestStart, latestStart } from './time-windows.ts';
import type { Coordinates, TimeWindow } from './vroom-input.ts';

export interface VroomStep {
  type: 'start' | 'job' | 'break' | 'end';
  id?: number;
  job?: number;
  description?: string;
  location?: Coordinates;
  location_index?: number;
  setup: number;
  service: number;
  waiting_time: number;
  load?: number[];
  arrival: number;
  duration: number;
  distance?: number;
  violations: never[];
}

export interface VroomRoute {
  vehicle: number;
  description?: string;
  cost: number;
  setup: number;
  service: number;
  duration: number;
  waiting_time: number;
  priority: number;
  delivery?: number[];
  pickup?: number[];
  amount?: number[];
  distance?: number;
  steps: VroomStep[];
  violations: never[];
}

export interface VroomUnassigned {
  id: number;
  type: 'job';
  description?: string;
  location?: Coordinates;
  location_index?: number;
}

export interface VroomSummary {
  cost: number;
  routes: number;
  unassigned: number;
  setup: number;
  service: number;
  duration: number;
  waiting_time: number;
  priority: number;
  delivery?: number[];
  pickup?: number[];
  amount?: number[];
  distance?: number;
  violations: never[];
  computing_times: { loading: number; solving: number; routing: number };
}

export interface VroomOutput {
  code: 0;
  summary: VroomSummary;
  unassigned: VroomUnassigned[];
  routes: VroomRoute[];
}

export interface ComputingTimes {
  loadingMs: number;
  solvingMs: number;
}

/** Times and amounts as integers when the input's were (VROOM's are); otherwise left exact. */
const tidy = (value: number) => (Math.abs(value - Math.round(value)) < 1e-6 ? Math.round(value) : value);

function placeFields(
  target: { location?: Coordinates; location_index?: number },
  index?: number,
  coords?: Coordinates,
) {
  if (coords) target.location = coords;
  if (index !== undefined) target.location_index = index;
}

/** VROOM's "no window" (time_window.cpp, `is_default`): a window as long as its whole time range. */
const isDefaultWindow = (window: TimeWindow) => window[1] - window[0] === 2 ** 32 - 1;

/**
 * Whether VROOM would solve this as a VRPTW rather than a CVRP (input.cpp sets `_has_TW` on any
 * non-default job or vehicle window, or any break): the two output paths round costs differently.
 */
function hasTimeConstraints(problem: Problem): boolean {
  const { jobs, vehicles } = problem.input;
  if (jobs.some((job) => job.timeWindows.some((window) => !isDefaultWindow(window)))) return true;
  return vehicles.some(
    (vehicle) =>
      vehicle.breaks.length > 0 || (vehicle.timeWindow !== undefined && !isDefaultWindow(vehicle.timeWindow)),
  );
}

/**
 * The integer cost VROOM reports for a used route (see the header): `travelled` seconds and
 * `distance` metres are the route's totals as written in its steps.
 */
function routeCost(
  problem: Problem,
  route: Route,
  travelled: number,
  distance: number,
  timed: boolean,
): number {
  const vehicle = problem.input.vehicles[route.vehicle]!;
  const fixed = Math.round(vehicle.fixedCost);
  if (problem.input.matrices.get(vehicle.profile)?.costs) return fixed + Math.round(route.travelCost);
  if (timed) {
    // cost_wrapper.cpp `user_cost_from_user_metrics`: the same double expression, then +0.5 and
    // truncation, so a half rounds up exactly as there.
    return fixed + Math.floor((travelled * vehicle.perHour) / 3600 + (distance * vehicle.perKm) / 1000 + 0.5);
  }
  // CVRP path: legs priced in 1/360000 units (100 × per_hour per second, 360 × per_km per metre),
  // summed, then truncated. With integer inputs `scaled` is an exact integer, so one division is
  // exact; the epsilon only keeps fractional inputs (which VROOM refuses) from flooring a whole.
  const scaled = 100 * vehicle.perHour * travelled + 360 * vehicle.perKm * distance;
  return fixed + Math.floor(scaled / 360_000 + 1e-9);
}

/**
 * VROOM's departure (helpers.cpp `format_route`, "ETA logic"): the latest departure from which
 * the route still reaches its end at the earliest end the forward pass found, E[end]. It is the
 * backward pass of route-schedule.ts with that time as the deadline instead of the vehicle's.
 */
function latestDepartureForEarliestEnd(problem: Problem, route: Route): number {
  const node = route.node;
  const place = route.place;
  const durations = route.durations;
  const size = route.placeCount;
  const service = problem.service;
  let next = route.len - 1;
  let latest = route.E[next]!;
  for (let r = route.prevReal[next]!; r >= 0; r = route.prevReal[r]!) {
    const d = durations[place[r]! * size + place[next]!]!;
    // Breaks between r and next, latest first; travel is preemptible, so they only bound the departure.
    let lambda = latest;
    let breakService = 0;
    for (let b = next - 1; b > r; b--) {
      const s = service[node[b]!]!;
      lambda = latestStart(problem, node[b]!, lambda - s);
      breakService += s;
    }
    const departure = Math.min(latest - d - breakService, lambda);
    // Rounding in the two passes must never let the output leave before the start allows.
    if (r === 0) return Math.max(departure, route.D[0]!);
    latest = latestStart(problem, node[r]!, departure - service[node[r]!]!);
    next = r;
  }
  return route.D[0]!;
}

function routeOutput(problem: Problem, solution: Solution, r: number, timed: boolean): VroomRoute {
  const route = solution.routes[r]!;
  const v = route.vehicle;
  const vehicle = problem.input.vehicles[v]!;
  const n = problem.jobCount;
  const dims = problem.dimensions;
  const size = problem.placeCount;
  const durations = route.durations;
  const distances =
    problem.distanceMatrix[v]! >= 0 ? problem.matrices[problem.distanceMatrix[v]!]! : undefined;
  const load = Array.from(route.deliveryTotal);
  const steps: VroomStep[] = [];
  let travelled = 0;
  let distance = 0;
  let service = 0;
  let waitingTotal = 0;
  let priority = 0;

  const departure = latestDepartureForEarliestEnd(problem, route);
  const step = (
    type: VroomStep['type'],
    arrival: number,
    waiting: number,
    stepService: number,
  ): VroomStep => {
    const result: VroomStep = {
      type,
      setup: 0,
      service: tidy(stepService),
      waiting_time: tidy(waiting),
      arrival: tidy(arrival),
      duration: tidy(travelled),
      violations: [],
    };
    if (dims > 0) result.load = load.map(tidy);
    if (distances) result.distance = tidy(distance);
    return result;
  };
  const start = step('start', departure, 0, 0);
  if (vehicle.hasStart) placeFields(start, vehicle.startIndex, vehicle.start);
  steps.push(orderStep(start));

  let t = departure;
  let last = 0;
  let p = 1;
  while (p < route.len) {
    let q = p;
    while (route.node[q]! >= n) q++;
    const fromPlace = route.place[last]!;
    const toPlace = route.place[q]!;
    let remaining = durations[fromPlace * size + toPlace]!;
    let current = t;
    for (let b = p; b < q; b++) {
      const node = route.node[b]!;
      const breakStart = earliestStart(problem, node, current);
      const gap = breakStart - current;
      const drive = Math.min(gap, remaining);
      remaining -= drive;
      travelled += drive;
      const waiting = gap - drive;
      const breakService = problem.service[node]!;
      const breakInput = vehicle.breaks[node - n - problem.breakOffset[v]!]!;
      const breakStep = step('break', breakStart - waiting, waiting, breakService);
      breakStep.id = breakInput.id;
      if (breakInput.description !== undefined) breakStep.description = breakInput.description;
      steps.push(orderStep(breakStep));
      service += breakService;
      waitingTotal += waiting;
      current = breakStart + breakService;
    }
    travelled += remaining;
    if (distances) distance += distances[fromPlace * size + toPlace]!;
    const arrival = current + remaining;
    const node = route.node[q]!;
    if (node < 0) {
      const endStep = step('end', arrival, 0, 0);
      if (vehicle.hasEnd) placeFields(endStep, vehicle.endIndex, vehicle.end);
      steps.push(orderStep(endStep));
      break;
    }
    const job = problem.input.jobs[node]!;
    const startService = earliestStart(problem, node, arrival);
    const waiting = startService - arrival;
    for (let k = 0; k < dims; k++) {
      load[k] = load[k]! - problem.delivery[node * dims + k]! + problem.pickup[node * dims + k]!;
    }
    const jobStep = step('job', arrival, waiting, problem.service[node]!);
    jobStep.id = job.id;
    jobStep.job = job.id;
    if (job.description !== undefined) jobStep.description = job.description;
    placeFields(jobStep, job.locationIndex, job.location);
    steps.push(orderStep(jobStep));
    service += problem.service[node]!;
    waitingTotal += waiting;
    priority += job.priority;
    t = startService + problem.service[node]!;
    last = q;
    p = q + 1;
  }

  const result: VroomRoute = {
    vehicle: vehicle.id,
    cost: routeCost(problem, route, travelled, distance, timed),
    setup: 0,
    service: tidy(service),
    duration: tidy(travelled),
    waiting_time: tidy(waitingTotal),
    priority,
    steps,
    violations: [],
  };
  if (vehicle.description !== undefined) result.description = vehicle.description;
  if (dims > 0) {
    result.delivery = Array.from(route.deliveryTotal, tidy);
    result.pickup = Array.from(route.pickupTotal, tidy);
    result.amount = result.delivery;
  }
  if (distances) result.distance = tidy(distance);
  return result;
}

/** VROOM's key order: type, location, id, then the times (readers do not care; people do). */
function orderStep(step: VroomStep): VroomStep {
  const { type, location, location_index, id, job, description, ...rest } = step;
  const ordered: Partial<VroomStep> = { type };
  if (location !== undefined) ordered.location = location;
  if (location_index !== undefined) ordered.location_index = location_index;
  if (id !== undefined) ordered.id = id;
  if (job !== undefined) ordered.job = job;
  if (description !== undefined) ordered.description = description;
  return { ...ordered, ...rest } as VroomStep;
}

export function vroomOutput(problem: Problem, solution: Solution, times: ComputingTimes): VroomOutput {
  const routes: VroomRoute[] = [];
  const timed = hasTimeConstraints(problem);
  for (let r = 0; r < solution.routes.length; r++) {
    if (solution.routes[r]!.jobs > 0) routes.push(routeOutput(problem, solution, r, timed));
  }
  const unassignedJobs: number[] = [];
  for (let j = 0; j < problem.jobCount; j++) if (solution.jobRoute[j]! < 0) unassignedJobs.push(j);
  const unassigned = unassignedJobs.map((j) => {
    const job = problem.input.jobs[j]!;
    const entry: VroomUnassigned = { id: job.id, type: 'job' };
    if (job.description !== undefined) entry.description = job.description;
    placeFields(entry, job.locationIndex, job.location);
    return entry;
  });
  const sum = (pick: (route: VroomRoute) => number) =>
    routes.reduce((total, route) => total + pick(route), 0);
  const dims = problem.dimensions;
  const summary: VroomSummary = {
    cost: sum((route) => route.cost),
    routes: routes.length,
    unassigned: unassigned.length,
    setup: 0,
    service: tidy(sum((route) => route.service)),
    duration: tidy(sum((route) => route.duration)),
    waiting_time: tidy(sum((route) => route.waiting_time)),
    priority: sum((route) => route.priority),
    violations: [],
    computing_times: {
      loading: Math.round(times.loadingMs),
      solving: Math.round(times.solvingMs),
      routing: 0,
    },
  };
  if (dims > 0) {
    const total = (key: 'delivery' | 'pickup') =>
      Array.from({ length: dims }, (_, k) => tidy(sum((route) => route[key]![k]!)));
    summary.delivery = total('delivery');
    summary.pickup = total('pickup');
    summary.amount = summary.delivery;
  }
  let distanceKnown = true;
  for (let v = 0; v < problem.vehicleCount; v++) if (problem.distanceMatrix[v]! < 0) distanceKnown = false;
  if (distanceKnown) {
    summary.distance = tidy(sum((route) => route.distance!));
  }
  return { code: 0, summary, unassigned, routes };
}
