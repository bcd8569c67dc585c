/**
 * The solver's internal model: the checked VROOM input flattened into typed arrays, so that the
 * search reads numbers by index and never walks objects in its inner loops.
 *
 * Node ids: jobs are 0..n-1, breaks are n..n+breakCount-1 (each break belongs to one vehicle).
 * Places: every distinct location (matrix index and/or coordinates) gets a place id; one extra
 * "nowhere" place, at zero travel from everything, stands for a missing vehicle start or end
 * (VROOM's open routes). Every matrix is places × places, row-major.
 */
import { buildNeighbours, measureDepotDistance } from './neighbours.ts';
import { roadMetres, roadSeconds } from './travel.ts';
import type { Coordinates, InputVehicle, VroomProblemInput } from './vroom-input.ts';

/** "No limit" for time windows: finite, so that an infeasible time (Infinity) never passes a check. */
export const horizon = 1e15;

export interface Place {
  index?: number;
  coordinates?: Coordinates;
}

export interface Problem {
  input: VroomProblemInput;
  jobCount: number;
  vehicleCount: number;
  breakCount: number;
  dimensions: number;
  placeCount: number;
  places: Place[];
  /** Place of each job. */
  jobPlace: Int32Array;
  jobPriority: Float64Array;
  /** jobCount × dimensions. */
  delivery: Float64Array;
  pickup: Float64Array;
  hasPickups: boolean;
  /** Service duration of every node (jobs, then breaks). */
  service: Float64Array;
  /** Time windows of every node: windows of node i are twStart/twEnd[twOffset[i] .. twOffset[i+1]). */
  twOffset: Int32Array;
  twStart: Float64Array;
  twEnd: Float64Array;
  /** Latest possible service start of each node (end of its last window). */
  lastEnd: Float64Array;
  /** Earliest possible service start of each node (start of its first window). */
  firstStart: Float64Array;
  breakVehicle: Int32Array;
  /** Breaks of vehicle v are nodes jobCount + breakOffset[v] .. jobCount + breakOffset[v+1] - 1, in input order. */
  breakOffset: Int32Array;
  startPlace: Int32Array;
  endPlace: Int32Array;
  vehicleStart: Float64Array;
  vehicleEnd: Float64Array;
  fixedCost: Float64Array;
  /** vehicleCount × dimensions. */
  capacity: Float64Array;
  maxTasks: Int32Array;
  /** Matrix ids (into `matrices`) of each vehicle's durations, costs, and distances (-1: unknown). */
  durationMatrix: Int32Array;
  costMatrix: Int32Array;
  distanceMatrix: Int32Array;
  matrices: Float64Array[];
  /** compatible[v * jobCount + j] = 1 when vehicle v has every skill job j needs. */
  compatible: Uint8Array;
  /** Vehicles with the same class are interchangeable (same places, hours, capacity, skills, costs, breaks). */
  vehicleClass: Int32Array;
  /**
   * The other jobs nearest to each job, nearest first, one list per distinct cost matrix:
   * job j's list for vehicle v starts at (neighbourGroup[v] * jobCount + j) * neighbourCount.
   */
  neighbours: Int32Array;
  /**
   * The same layout, nearest by travel cost alone (both directions): the fleet phase's ruin
   * makes room around a job left out, which is a matter of place more than of time.
   */
  spatialNeighbours: Int32Array;
  neighbourCount: number;
  /** Per vehicle: which neighbour lists (by its cost matrix). */
  neighbourGroup: Int32Array;
  /** Per job: which neighbour lists when it has no route (those of the first vehicle that can serve it). */
  jobNeighbourGroup: Int32Array;
  /** Per job: the cheapest round trip to it from the start and back to the end of a vehicle that can serve it. */
  depotDistance: Float64Array;
}

const placeKey = (index: number | undefined, coords: Coordinates | undefined) =>
  `${index ?? ''}|${coords ? `${coords[0]},${coords[1]}` : ''}`;

function sameContent(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

class MatrixStore {
  readonly matrices: Float64Array[] = [];
  add(matrix: Float64Array): number {
    for (let i = 0; i < this.matrices.length; i++) {
      // The same array comes back for every vehicle of a profile: no need to compare its cells.
      if (this.matrices[i] === matrix || sameContent(this.matrices[i]!, matrix)) return i;
    }
    this.matrices.push(matrix);
    return this.matrices.length - 1;
  }
}

interface ProfileTravel {
  durations: Float64Array;
  costs?: Float64Array;
  distances?: Float64Array;
}

function profileTravel(
  input: VroomProblemInput,
  profile: string,
  places: Place[],
  nowhere: number,
): ProfileTravel {
  const size = places.length;
  const given = input.matrices.get(profile);
  const fill = (cell: (a: Place, b: Place) => number) => {
    const matrix = new Float64Array(size * size);
    for (let a = 0; a < size; a++) {
      if (a === nowhere) continue;
      for (let b = 0; b < size; b++) {
        if (b === nowhere) continue;
        matrix[a * size + b] = cell(places[a]!, places[b]!);
      }
    }
    return matrix;
  };
  if (given) {
    const from = (source: number[][]) => fill((a, b) => source[a.index!]![b.index!]!);
    const travel: ProfileTravel = { durations: from(given.durations!) };
    if (given.costs) travel.costs = from(given.costs);
    if (given.distances) travel.distances = from(given.distances);
    return travel;
  }
  return {
    durations: fill((a, b) => roadSeconds(a.coordinates!, b.coordinates!)),
    distances: fill((a, b) => roadMetres(a.coordinates!, b.coordinates!)),
  };
}

function vehicleSignature(
  vehicle: InputVehicle,
  v: number,
  problem: Partial<Problem>,
  jobCount: number,
): string {
  const skills = Array.from(problem.compatible!.subarray(v * jobCount, (v + 1) * jobCount)).join('');
  return JSON.stringify([
    problem.startPlace![v],
    problem.endPlace![v],
    problem.vehicleStart![v],
    problem.vehicleEnd![v],
    problem.fixedCost![v],
    vehicle.capacity,
    problem.maxTasks![v],
    problem.durationMatrix![v],
    problem.costMatrix![v],
    vehicle.breaks.map((b) => [b.timeWindows, b.service]),
    skills,
  ]);
}

interface Places {
  places: Place[];
  jobPlace: Int32Array;
  startPlace: Int32Array;
  endPlace: Int32Array;
  /** The "nowhere" place of open routes, -1 when no vehicle needs it. */
  nowhere: number;
}

/** A place per distinct location: jobs first, then the vehicles' starts and ends, then "nowhere". */
function buildPlaces(input: VroomProblemInput): Places {
  const n = input.jobs.length;
  const m = input.vehicles.length;
  const places: Place[] = [];
  const placeIds = new Map<string, number>();
  const placeOf = (index: number | undefined, coords: Coordinates | undefined) => {
    const key = placeKey(index, coords);
    let id = placeIds.get(key);
    if (id === undefined) {
      id = places.length;
      const place: Place = {};
      if (index !== undefined) place.index = index;
      if (coords !== undefined) place.coordinates = coords;
      places.push(place);
      placeIds.set(key, id);
    }
    return id;
  };
  const jobPlace = new Int32Array(n);
  input.jobs.forEach((job, j) => {
    jobPlace[j] = placeOf(job.locationIndex, job.location);
  });
  const startPlace = new Int32Array(m);
  const endPlace = new Int32Array(m);
  let nowhere = -1;
  const nowherePlace = () => {
    if (nowhere < 0) {
      nowhere = places.length;
      places.push({});
    }
    return nowhere;
  };
  input.vehicles.forEach((vehicle, v) => {
    startPlace[v] = vehicle.hasStart ? placeOf(vehicle.startIndex, vehicle.start) : -1;
    endPlace[v] = vehicle.hasEnd ? placeOf(vehicle.endIndex, vehicle.end) : -1;
  });
  for (let v = 0; v < m; v++) {
    if (startPlace[v] === -1) startPlace[v] = nowherePlace();
    if (endPlace[v] === -1) endPlace[v] = nowherePlace();
  }
  return { places, jobPlace, startPlace, endPlace, nowhere };
}

interface Travel {
  matrices: Float64Array[];
  durationMatrix: Int32Array;
  costMatrix: Int32Array;
  distanceMatrix: Int32Array;
}

/**
 * Each vehicle's durations, costs and distances as places × places matrices, shared and
 * deduplicated by content. Vehicles alike in profile, speed factor and hourly and distance
 * prices share their matrix ids without looking at a cell again: comparing a 1,001 × 1,001
 * matrix for each of 250 vehicles took most of a second.
 */
function buildTravel(input: VroomProblemInput, places: Place[], nowhere: number): Travel {
  const m = input.vehicles.length;
  const store = new MatrixStore();
  const travelByProfile = new Map<string, ProfileTravel>();
  const idsByKind = new Map<string, [number, number, number]>();
  const durationMatrix = new Int32Array(m);
  const costMatrix = new Int32Array(m);
  const distanceMatrix = new Int32Array(m);
  input.vehicles.forEach((vehicle, v) => {
    const kind = JSON.stringify([vehicle.profile, vehicle.speedFactor, vehicle.perHour, vehicle.perKm]);
    let ids = idsByKind.get(kind);
    if (!ids) {
      let travel = travelByProfile.get(vehicle.profile);
      if (!travel) {
        travel = profileTravel(input, vehicle.profile, places, nowhere);
        travelByProfile.set(vehicle.profile, travel);
      }
      ids = vehicleTravel(store, travel, vehicle);
      idsByKind.set(kind, ids);
    }
    [durationMatrix[v], costMatrix[v], distanceMatrix[v]] = ids;
  });
  return { matrices: store.matrices, durationMatrix, costMatrix, distanceMatrix };
}

/** Matrix ids of one kind of vehicle's durations, costs and distances (-1: no distances). */
function vehicleTravel(
  store: MatrixStore,
  travel: ProfileTravel,
  vehicle: InputVehicle,
): [number, number, number] {
  let durations = travel.durations;
  if (vehicle.speedFactor !== 1) {
    durations = durations.map((d) => Math.round(d / vehicle.speedFactor));
  }
  const duration = store.add(durations);
  const distance = travel.distances ? store.add(travel.distances) : -1;
  if (travel.costs) return [duration, store.add(travel.costs), distance];
  if (vehicle.perHour === 3600 && vehicle.perKm === 0) return [duration, duration, distance];
  const distances = travel.distances;
  const costs = new Float64Array(durations.length);
  for (let i = 0; i < costs.length; i++) {
    costs[i] =
      (durations[i]! * vehicle.perHour) / 3600 + (distances ? (distances[i]! * vehicle.perKm) / 1000 : 0);
  }
  return [duration, store.add(costs), distance];
}

type Nodes = Pick<
  Problem,
  | 'breakCount'
  | 'service'
  | 'twOffset'
  | 'twStart'
  | 'twEnd'
  | 'lastEnd'
  | 'firstStart'
  | 'breakVehicle'
  | 'breakOffset'
>;

/** Jobs then breaks: service durations and time windows (none given: any time up to the horizon). */
function buildNodes(input: VroomProblemInput): Nodes {
  const n = input.jobs.length;
  const m = input.vehicles.length;
  const breakOffset = new Int32Array(m + 1);
  input.vehicles.forEach((vehicle, v) => {
    breakOffset[v + 1] = breakOffset[v]! + vehicle.breaks.length;
  });
  const breakCount = breakOffset[m]!;
  const nodeCount = n + breakCount;
  const service = new Float64Array(nodeCount);
  const twOffset = new Int32Array(nodeCount + 1);
  const starts: number[] = [];
  const ends: number[] = [];
  const breakVehicle = new Int32Array(breakCount);
  const addWindows = (node: number, windows: Array<[number, number]>) => {
    if (windows.length === 0) {
      starts.push(0);
      ends.push(horizon);
    } else {
      for (const [s, e] of windows) {
        starts.push(s);
        ends.push(e);
      }
    }
    twOffset[node + 1] = starts.length;
  };
  input.jobs.forEach((job, j) => {
    service[j] = job.service;
    addWindows(j, job.timeWindows);
  });
  input.vehicles.forEach((vehicle, v) => {
    vehicle.breaks.forEach((b, i) => {
      const node = n + breakOffset[v]! + i;
      service[node] = b.service;
      breakVehicle[node - n] = v;
      addWindows(node, b.timeWindows);
    });
  });
  const twStart = Float64Array.from(starts);
  const twEnd = Float64Array.from(ends);
  const lastEnd = new Float64Array(nodeCount);
  const firstStart = new Float64Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) {
    firstStart[i] = twStart[twOffset[i]!]!;
    lastEnd[i] = twEnd[twOffset[i + 1]! - 1]!;
  }
  return { breakCount, service, twOffset, twStart, twEnd, lastEnd, firstStart, breakVehicle, breakOffset };
}

type JobData = Pick<Problem, 'jobPriority' | 'delivery' | 'pickup' | 'hasPickups'>;

function buildJobs(input: VroomProblemInput): JobData {
  const n = input.jobs.length;
  const dims = input.dimensions;
  const delivery = new Float64Array(n * dims);
  const pickup = new Float64Array(n * dims);
  const jobPriority = new Float64Array(n);
  let hasPickups = false;
  input.jobs.forEach((job, j) => {
    jobPriority[j] = job.priority;
    for (let k = 0; k < dims; k++) {
      delivery[j * dims + k] = job.delivery[k]!;
      pickup[j * dims + k] = job.pickup[k]!;
      if (job.pickup[k]! > 0) hasPickups = true;
    }
  });
  return { jobPriority, delivery, pickup, hasPickups };
}

type VehicleData = Pick<
  Problem,
  'capacity' | 'vehicleStart' | 'vehicleEnd' | 'fixedCost' | 'maxTasks' | 'compatible'
>;

/** Capacities, working hours, fixed costs, max_tasks, and which jobs each vehicle has the skills for. */
function buildVehicles(input: VroomProblemInput): VehicleData {
  const n = input.jobs.length;
  const m = input.vehicles.length;
  const dims = input.dimensions;
  const capacity = new Float64Array(m * dims);
  const vehicleStart = new Float64Array(m);
  const vehicleEnd = new Float64Array(m);
  const fixedCost = new Float64Array(m);
  const maxTasks = new Int32Array(m);
  const compatible = new Uint8Array(m * n);
  input.vehicles.forEach((vehicle, v) => {
    for (let k = 0; k < dims; k++) capacity[v * dims + k] = vehicle.capacity[k]!;
    vehicleStart[v] = vehicle.timeWindow ? vehicle.timeWindow[0] : 0;
    vehicleEnd[v] = vehicle.timeWindow ? vehicle.timeWindow[1] : horizon;
    fixedCost[v] = vehicle.fixedCost;
    maxTasks[v] = vehicle.maxTasks ?? 0x7fffffff;
    const skills = new Set(vehicle.skills);
    input.jobs.forEach((job, j) => {
      compatible[v * n + j] = job.skills.every((skill) => skills.has(skill)) ? 1 : 0;
    });
  });
  return { capacity, vehicleStart, vehicleEnd, fixedCost, maxTasks, compatible };
}

export function buildProblem(input: VroomProblemInput): Problem {
  const { places, jobPlace, startPlace, endPlace, nowhere } = buildPlaces(input);
  const travel = buildTravel(input, places, nowhere);
  const nodes = buildNodes(input);
  const jobs = buildJobs(input);
  const vehicles = buildVehicles(input);
  // Written out rather than spread, in the order of the fields: one plain object shape for the hot loops.
  const problem: Problem = {
    input,
    jobCount: input.jobs.length,
    vehicleCount: input.vehicles.length,
    breakCount: nodes.breakCount,
    dimensions: input.dimensions,
    placeCount: places.length,
    places,
    jobPlace,
    jobPriority: jobs.jobPriority,
    delivery: jobs.delivery,
    pickup: jobs.pickup,
    hasPickups: jobs.hasPickups,
    service: nodes.service,
    twOffset: nodes.twOffset,
    twStart: nodes.twStart,
    twEnd: nodes.twEnd,
    lastEnd: nodes.lastEnd,
    firstStart: nodes.firstStart,
    breakVehicle: nodes.breakVehicle,
    breakOffset: nodes.breakOffset,
    startPlace,
    endPlace,
    vehicleStart: vehicles.vehicleStart,
    vehicleEnd: vehicles.vehicleEnd,
    fixedCost: vehicles.fixedCost,
    capacity: vehicles.capacity,
    maxTasks: vehicles.maxTasks,
    durationMatrix: travel.durationMatrix,
    costMatrix: travel.costMatrix,
    distanceMatrix: travel.distanceMatrix,
    matrices: travel.matrices,
    compatible: vehicles.compatible,
    vehicleClass: new Int32Array(input.vehicles.length),
    neighbours: new Int32Array(0),
    spatialNeighbours: new Int32Array(0),
    neighbourCount: 0,
    neighbourGroup: new Int32Array(input.vehicles.length),
    jobNeighbourGroup: new Int32Array(input.jobs.length),
    depotDistance: new Float64Array(input.jobs.length),
  };
  assignVehicleClasses(problem);
  buildNeighbours(problem);
  measureDepotDistance(problem);
  return problem;
}

/** Vehicles alike in every respect the search looks at share a class (insertion tries one empty vehicle per class). */
function assignVehicleClasses(problem: Problem) {
  const classes = new Map<string, number>();
  problem.input.vehicles.forEach((vehicle, v) => {
    const signature = vehicleSignature(vehicle, v, problem, problem.jobCount);
    let id = classes.get(signature);
    if (id === undefined) {
      id = classes.size;
      classes.set(signature, id);
    }
    problem.vehicleClass[v] = id;
  });
}
