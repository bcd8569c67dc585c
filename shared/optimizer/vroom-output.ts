/**
 * The VROOM output document for a solution (VROOM-Project/vroom, docs/API.md, "Output"): code,
 * summary, unassigned and routes with their steps, in VROOM's shape and units.
 *
 * The schedule written is the earliest one, except that a vehicle leaves its start as late as it
 * can without arriving later anywhere (no waiting at the first job). Breaks follow the rule of
 * route.ts: taken on the leg after the previous stop, as early as their windows allow, waiting
 * for a break window spent driving; a break step's arrival is when the vehicle stops for it.
 * `distance` appears when the input gave distance matrices or coordinates.
 */
import type { Problem } from './problem.ts';
import type { Solution } from './solution.ts';
import { earliestStart } from './time-windows.ts';
import type { Coordinates } from './vroom-input.ts';

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

function routeOutput(problem: Problem, solution: Solution, r: number): VroomRoute {
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

  // Leave as late as the first stop allows without waiting there.
  let departure = route.D[0]!;
  const first = route.nextReal[0]!;
  if (first === 1 && route.node[1]! >= 0) {
    const arrival = departure + durations[route.place[0]! * size + route.place[1]!]!;
    const wait = route.E[1]! - arrival;
    if (wait > 0) departure += Math.min(wait, route.L[0]! - route.D[0]!);
  }
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
    cost: tidy(route.cost),
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
  for (let r = 0; r < solution.routes.length; r++) {
    if (solution.routes[r]!.jobs > 0) routes.push(routeOutput(problem, solution, r));
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
    cost: tidy(sum((route) => route.cost)),
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
