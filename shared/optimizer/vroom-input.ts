/**
 * The VROOM input document (VROOM-Project/vroom, docs/API.md), read and checked field by field.
 *
 * Every refusal is an `OptimizerInputError` whose message starts with the JSON path of the field
 * at fault (`jobs[3].time_windows[0]: start after end`), so the CLI and the API can hand it to a
 * user as is. Keys VROOM ignores are ignored here too; keys VROOM understands but this solver does
 * not (shipments, setup times, per-type durations, travel or distance limits, break max_load) are
 * refused by name rather than silently dropped, because dropping a constraint would return plans
 * that break it.
 */

export class OptimizerInputError extends Error {
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'OptimizerInputError';
    this.field = field;
  }
}

export type Coordinates = [number, number];
export type TimeWindow = [number, number];

export interface InputJob {
  id: number;
  description?: string;
  location?: Coordinates;
  locationIndex?: number;
  service: number;
  delivery: number[];
  pickup: number[];
  skills: number[];
  priority: number;
  /** Sorted by start, overlapping windows merged; empty means any time. */
  timeWindows: TimeWindow[];
}

export interface InputBreak {
  id: number;
  description?: string;
  /** Sorted and merged like a job's; empty means any time. */
  timeWindows: TimeWindow[];
  service: number;
}

export interface InputVehicle {
  id: number;
  profile: string;
  description?: string;
  start?: Coordinates;
  startIndex?: number;
  end?: Coordinates;
  endIndex?: number;
  capacity: number[];
  skills: number[];
  timeWindow?: TimeWindow;
  breaks: InputBreak[];
  fixedCost: number;
  perHour: number;
  perKm: number;
  speedFactor: number;
  maxTasks?: number;
  hasStart: boolean;
  hasEnd: boolean;
}

export interface InputMatrices {
  durations?: number[][];
  costs?: number[][];
  distances?: number[][];
}

export interface VroomProblemInput {
  jobs: InputJob[];
  vehicles: InputVehicle[];
  matrices: Map<string, InputMatrices>;
  /** Number of amount dimensions (capacity, delivery, pickup all have this length). */
  dimensions: number;
}

type Json = Record<string, unknown>;

const defaultPerHour = 3600;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(field: string, problem: string): never {
  throw new OptimizerInputError(field, problem);
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function nonNegativeInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(field, `expected a non-negative integer, got ${describeValue(value)}`);
  }
  return value;
}

function nonNegativeNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(field, `expected a non-negative number, got ${describeValue(value)}`);
  }
  return value;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(field, `expected a string, got ${describeValue(value)}`);
  return value;
}

function coordinates(value: unknown, field: string): Coordinates {
  if (!Array.isArray(value) || value.length !== 2) {
    fail(field, `expected [longitude, latitude], got ${describeValue(value)}`);
  }
  const [lon, lat] = value;
  if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180) {
    fail(`${field}[0]`, `longitude must be a number in [-180, 180], got ${describeValue(lon)}`);
  }
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    fail(`${field}[1]`, `latitude must be a number in [-90, 90], got ${describeValue(lat)}`);
  }
  return [lon, lat];
}

function integerList(value: unknown, field: string): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(field, `expected an array of integers, got ${describeValue(value)}`);
  return value.map((item, index) => nonNegativeInteger(item, `${field}[${index}]`));
}

function timeWindow(value: unknown, field: string): TimeWindow {
  if (!Array.isArray(value) || value.length !== 2) {
    fail(field, `expected [start, end], got ${describeValue(value)}`);
  }
  const start = nonNegativeNumber(value[0], `${field}[0]`);
  const end = nonNegativeNumber(value[1], `${field}[1]`);
  if (start > end) fail(field, `start after end (${start} > ${end})`);
  return [start, end];
}

/** Sorted by start with overlapping or touching windows merged: the search relies on both. */
function timeWindows(value: unknown, field: string): TimeWindow[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(field, `expected an array of [start, end], got ${describeValue(value)}`);
  if (value.length === 0) fail(field, 'expected at least one time window (omit the key for any time)');
  const windows = value.map((item, index) => timeWindow(item, `${field}[${index}]`));
  windows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: TimeWindow[] = [];
  for (const window of windows) {
    const last = merged[merged.length - 1];
    if (last && window[0] <= last[1]) last[1] = Math.max(last[1], window[1]);
    else merged.push([window[0], window[1]]);
  }
  return merged;
}

function refuse(
  object: Json,
  key: string,
  field: string,
  why: string,
  allowed?: (value: unknown) => boolean,
) {
  const value = object[key];
  if (value === undefined || value === null) return;
  if (allowed?.(value)) return;
  fail(`${field}.${key}`, why);
}

const isZero = (value: unknown) => value === 0;
const isEmptyObject = (value: unknown) => isObject(value) && Object.keys(value).length === 0;

class AmountShape {
  dimensions: number | undefined;
  firstField = '';
  check(amount: number[], field: string) {
    if (this.dimensions === undefined) {
      this.dimensions = amount.length;
      this.firstField = field;
    } else if (amount.length !== this.dimensions) {
      fail(
        field,
        `has ${amount.length} dimension(s) but ${this.firstField} has ${this.dimensions}; every amount and capacity needs the same number`,
      );
    }
  }
}

function parseJob(raw: unknown, field: string, shape: AmountShape): InputJob {
  if (!isObject(raw)) fail(field, `expected a job object, got ${describeValue(raw)}`);
  refuse(
    raw,
    'setup',
    field,
    'setup times are not supported by this solver (use 0 or fold it into service)',
    isZero,
  );
  refuse(
    raw,
    'setup_per_type',
    field,
    'per-type setup times are not supported by this solver',
    isEmptyObject,
  );
  refuse(
    raw,
    'service_per_type',
    field,
    'per-type service times are not supported by this solver',
    isEmptyObject,
  );
  const job: InputJob = {
    id: nonNegativeInteger(raw.id, `${field}.id`),
    service: raw.service === undefined ? 0 : nonNegativeNumber(raw.service, `${field}.service`),
    delivery: [],
    pickup: [],
    skills: integerList(raw.skills, `${field}.skills`),
    priority: 0,
    timeWindows: timeWindows(raw.time_windows, `${field}.time_windows`),
  };
  const description = optionalString(raw.description, `${field}.description`);
  if (description !== undefined) job.description = description;
  if (raw.location !== undefined) job.location = coordinates(raw.location, `${field}.location`);
  if (raw.location_index !== undefined) {
    job.locationIndex = nonNegativeInteger(raw.location_index, `${field}.location_index`);
  }
  if (raw.priority !== undefined) {
    const priority = nonNegativeInteger(raw.priority, `${field}.priority`);
    if (priority > 100) fail(`${field}.priority`, `must be in [0, 100], got ${priority}`);
    job.priority = priority;
  }
  // `amount` is VROOM's deprecated name for delivery.
  if (raw.amount !== undefined && raw.delivery !== undefined) {
    fail(`${field}.amount`, 'give either delivery or the deprecated amount, not both');
  }
  const deliveryKey = raw.delivery !== undefined ? 'delivery' : 'amount';
  if (raw[deliveryKey] !== undefined) {
    job.delivery = integerList(raw[deliveryKey], `${field}.${deliveryKey}`);
    shape.check(job.delivery, `${field}.${deliveryKey}`);
  }
  if (raw.pickup !== undefined) {
    job.pickup = integerList(raw.pickup, `${field}.pickup`);
    shape.check(job.pickup, `${field}.pickup`);
  }
  return job;
}

function parseBreak(raw: unknown, field: string): InputBreak {
  if (!isObject(raw)) fail(field, `expected a break object, got ${describeValue(raw)}`);
  refuse(raw, 'max_load', field, 'break max_load is not supported by this solver');
  const result: InputBreak = {
    id: nonNegativeInteger(raw.id, `${field}.id`),
    timeWindows: timeWindows(raw.time_windows, `${field}.time_windows`),
    service: raw.service === undefined ? 0 : nonNegativeNumber(raw.service, `${field}.service`),
  };
  const description = optionalString(raw.description, `${field}.description`);
  if (description !== undefined) result.description = description;
  return result;
}

function parseVehicle(raw: unknown, field: string, shape: AmountShape): InputVehicle {
  if (!isObject(raw)) fail(field, `expected a vehicle object, got ${describeValue(raw)}`);
  refuse(raw, 'max_travel_time', field, 'max_travel_time is not supported by this solver');
  refuse(raw, 'max_distance', field, 'max_distance is not supported by this solver');
  const profile = raw.profile === undefined ? 'car' : optionalString(raw.profile, `${field}.profile`)!;
  const vehicle: InputVehicle = {
    id: nonNegativeInteger(raw.id, `${field}.id`),
    profile,
    capacity: [],
    skills: integerList(raw.skills, `${field}.skills`),
    breaks: [],
    fixedCost: 0,
    perHour: defaultPerHour,
    perKm: 0,
    speedFactor: 1,
    hasStart: raw.start !== undefined || raw.start_index !== undefined,
    hasEnd: raw.end !== undefined || raw.end_index !== undefined,
  };
  const description = optionalString(raw.description, `${field}.description`);
  if (description !== undefined) vehicle.description = description;
  if (raw.start !== undefined) vehicle.start = coordinates(raw.start, `${field}.start`);
  if (raw.start_index !== undefined)
    vehicle.startIndex = nonNegativeInteger(raw.start_index, `${field}.start_index`);
  if (raw.end !== undefined) vehicle.end = coordinates(raw.end, `${field}.end`);
  if (raw.end_index !== undefined) vehicle.endIndex = nonNegativeInteger(raw.end_index, `${field}.end_index`);
  if (!vehicle.hasStart && !vehicle.hasEnd) {
    fail(field, 'needs a start or an end (start, start_index, end or end_index)');
  }
  if (raw.capacity !== undefined) {
    vehicle.capacity = integerList(raw.capacity, `${field}.capacity`);
    shape.check(vehicle.capacity, `${field}.capacity`);
  }
  if (raw.time_window !== undefined) vehicle.timeWindow = timeWindow(raw.time_window, `${field}.time_window`);
  if (raw.breaks !== undefined) {
    if (!Array.isArray(raw.breaks))
      fail(`${field}.breaks`, `expected an array, got ${describeValue(raw.breaks)}`);
    const seen = new Map<number, number>();
    vehicle.breaks = raw.breaks.map((item, index) => {
      const parsed = parseBreak(item, `${field}.breaks[${index}]`);
      const other = seen.get(parsed.id);
      if (other !== undefined) {
        fail(
          `${field}.breaks[${index}].id`,
          `duplicate break id ${parsed.id} (also ${field}.breaks[${other}])`,
        );
      }
      seen.set(parsed.id, index);
      return parsed;
    });
  }
  if (raw.costs !== undefined) {
    const costs = raw.costs;
    if (!isObject(costs)) fail(`${field}.costs`, `expected an object, got ${describeValue(costs)}`);
    if (costs.fixed !== undefined) vehicle.fixedCost = nonNegativeNumber(costs.fixed, `${field}.costs.fixed`);
    if (costs.per_hour !== undefined)
      vehicle.perHour = nonNegativeNumber(costs.per_hour, `${field}.costs.per_hour`);
    if (costs.per_km !== undefined) vehicle.perKm = nonNegativeNumber(costs.per_km, `${field}.costs.per_km`);
    refuse(costs, 'per_task_hour', `${field}.costs`, 'per_task_hour is not supported by this solver', isZero);
  }
  if (raw.speed_factor !== undefined) {
    const factor = raw.speed_factor;
    if (typeof factor !== 'number' || !(factor > 0 && factor <= 5)) {
      fail(`${field}.speed_factor`, `must be a number in (0, 5], got ${describeValue(factor)}`);
    }
    vehicle.speedFactor = factor;
  }
  if (raw.max_tasks !== undefined) vehicle.maxTasks = nonNegativeInteger(raw.max_tasks, `${field}.max_tasks`);
  return vehicle;
}

function parseMatrix(value: unknown, field: string): number[][] {
  if (!Array.isArray(value) || value.length === 0) fail(field, 'expected a non-empty square array of arrays');
  const size = value.length;
  return value.map((row, i) => {
    if (!Array.isArray(row) || row.length !== size) {
      fail(`${field}[${i}]`, `expected a row of ${size} numbers (the matrix must be square)`);
    }
    for (let j = 0; j < size; j++) {
      const cell = row[j];
      if (typeof cell !== 'number' || !Number.isFinite(cell) || cell < 0) {
        fail(`${field}[${i}][${j}]`, `expected a non-negative number, got ${describeValue(cell)}`);
      }
    }
    return row as number[];
  });
}

function parseMatrices(raw: Json): Map<string, InputMatrices> {
  const result = new Map<string, InputMatrices>();
  if (raw.matrix !== undefined) {
    // VROOM's deprecated single matrix: the durations of profile car.
    result.set('car', { durations: parseMatrix(raw.matrix, 'matrix') });
  }
  if (raw.matrices === undefined) return result;
  if (!isObject(raw.matrices))
    fail('matrices', `expected an object keyed by profile, got ${describeValue(raw.matrices)}`);
  for (const [profile, entry] of Object.entries(raw.matrices)) {
    const field = `matrices.${profile}`;
    if (!isObject(entry)) fail(field, `expected {durations, costs, distances}, got ${describeValue(entry)}`);
    const matrices: InputMatrices = {};
    for (const key of ['durations', 'costs', 'distances'] as const) {
      if (entry[key] !== undefined) matrices[key] = parseMatrix(entry[key], `${field}.${key}`);
    }
    if (!matrices.durations) fail(`${field}.durations`, 'missing: a profile with matrices needs durations');
    const size = matrices.durations.length;
    for (const key of ['costs', 'distances'] as const) {
      const matrix = matrices[key];
      if (matrix && matrix.length !== size) {
        fail(`${field}.${key}`, `has size ${matrix.length} but ${field}.durations has ${size}`);
      }
    }
    result.set(profile, matrices);
  }
  return result;
}

/** Checks that every location the problem uses can be found in its profile's matrix or has coordinates. */
function checkLocations(input: VroomProblemInput) {
  const profiles = new Set(input.vehicles.map((vehicle) => vehicle.profile));
  const withMatrix = [...profiles].filter((profile) => input.matrices.has(profile));
  const withoutMatrix = [...profiles].filter((profile) => !input.matrices.has(profile));
  const checkPlace = (
    field: string,
    index: number | undefined,
    coords: Coordinates | undefined,
    indexKey: string,
  ) => {
    for (const profile of withMatrix) {
      const size = input.matrices.get(profile)!.durations!.length;
      if (index === undefined)
        fail(`${field}.${indexKey}`, `missing: profile ${profile} travels by matrices.${profile}`);
      if (index >= size) {
        fail(`${field}.${indexKey}`, `${index} is outside matrices.${profile} (size ${size})`);
      }
    }
    if (withoutMatrix.length > 0 && coords === undefined) {
      const key = indexKey === 'location_index' ? 'location' : indexKey.replace('_index', '');
      fail(
        `${field}.${key}`,
        `missing: profile ${withoutMatrix[0]} has no matrices, so travel comes from coordinates [lon, lat]`,
      );
    }
  };
  input.jobs.forEach((job, i) => {
    checkPlace(`jobs[${i}]`, job.locationIndex, job.location, 'location_index');
  });
  input.vehicles.forEach((vehicle, i) => {
    if (vehicle.hasStart) checkPlace(`vehicles[${i}]`, vehicle.startIndex, vehicle.start, 'start_index');
    if (vehicle.hasEnd) checkPlace(`vehicles[${i}]`, vehicle.endIndex, vehicle.end, 'end_index');
    const matrices = input.matrices.get(vehicle.profile);
    if (matrices?.costs && (vehicle.perHour !== defaultPerHour || vehicle.perKm !== 0)) {
      fail(
        `vehicles[${i}].costs`,
        `per_hour or per_km cannot be combined with matrices.${vehicle.profile}.costs (VROOM refuses it too)`,
      );
    }
    if (matrices && !matrices.costs && !matrices.distances && vehicle.perKm !== 0) {
      fail(`vehicles[${i}].costs.per_km`, `needs matrices.${vehicle.profile}.distances`);
    }
  });
}

/** Reads a parsed JSON document as a VROOM input, or throws an OptimizerInputError naming the field. */
export function parseVroomInput(raw: unknown): VroomProblemInput {
  if (!isObject(raw)) fail('input', `expected a JSON object, got ${describeValue(raw)}`);
  if (Array.isArray(raw.shipments) && raw.shipments.length > 0) {
    fail(
      'shipments',
      'not supported by this solver: give each stop as a job with delivery or pickup amounts',
    );
  } else if (raw.shipments !== undefined && !Array.isArray(raw.shipments)) {
    fail('shipments', `expected an array, got ${describeValue(raw.shipments)}`);
  }
  if (raw.jobs !== undefined && !Array.isArray(raw.jobs))
    fail('jobs', `expected an array, got ${describeValue(raw.jobs)}`);
  if (!Array.isArray(raw.vehicles))
    fail('vehicles', `expected an array of vehicles, got ${describeValue(raw.vehicles)}`);
  if (raw.vehicles.length === 0) fail('vehicles', 'expected at least one vehicle');
  const shape = new AmountShape();
  const jobs = ((raw.jobs as unknown[] | undefined) ?? []).map((job, i) =>
    parseJob(job, `jobs[${i}]`, shape),
  );
  const vehicles = raw.vehicles.map((vehicle, i) => parseVehicle(vehicle, `vehicles[${i}]`, shape));
  const jobIds = new Map<number, number>();
  jobs.forEach((job, i) => {
    const other = jobIds.get(job.id);
    if (other !== undefined) fail(`jobs[${i}].id`, `duplicate job id ${job.id} (also jobs[${other}])`);
    jobIds.set(job.id, i);
  });
  const vehicleIds = new Map<number, number>();
  vehicles.forEach((vehicle, i) => {
    const other = vehicleIds.get(vehicle.id);
    if (other !== undefined)
      fail(`vehicles[${i}].id`, `duplicate vehicle id ${vehicle.id} (also vehicles[${other}])`);
    vehicleIds.set(vehicle.id, i);
  });
  const dimensions = shape.dimensions ?? 0;
  // A missing amount is zero in every dimension; a missing capacity cannot be guessed.
  jobs.forEach((job) => {
    if (job.delivery.length === 0) job.delivery = new Array<number>(dimensions).fill(0);
    if (job.pickup.length === 0) job.pickup = new Array<number>(dimensions).fill(0);
  });
  vehicles.forEach((vehicle, i) => {
    if (vehicle.capacity.length === 0 && dimensions > 0) {
      fail(
        `vehicles[${i}].capacity`,
        `missing: jobs carry ${dimensions}-dimensional amounts (${shape.firstField})`,
      );
    }
  });
  const input: VroomProblemInput = { jobs, vehicles, matrices: parseMatrices(raw), dimensions };
  checkLocations(input);
  return input;
}
