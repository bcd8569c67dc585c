/**
 * Ruin and recreate, after SISR (Christiaens & Vanden Berghe 2020, "Slack induction by string
 * removals"): ruin removes a few strings (consecutive jobs) from routes that are close to a seed
 * job, so that the removed jobs and the freed time all sit in one neighbourhood and can be
 * rearranged together; recreate puts every unassigned job back at its cheapest position, in a
 * randomly chosen order, skipping positions now and then ("blinks") so that the recreate is not
 * the same greedy every time.
 *
 * Sizes follow the paper's scheme: on average `averageRemoved` jobs, strings of at most
 * `maxStringLength` jobs and never longer than the average route; a string is cut whole, or, half
 * of the time, with a few jobs in its middle kept in place ("split string").
 */
import { InsertionSearch, insertAll } from './insertion.ts';
import type { Problem } from './problem.ts';
import type { Random } from './random.ts';
import type { Solution } from './solution.ts';

export interface RuinSettings {
  averageRemoved: number;
  maxStringLength: number;
  blinkRate: number;
}

export function defaultRuinSettings(problem: Problem): RuinSettings {
  return {
    averageRemoved: Math.max(2, Math.min(10, Math.round(problem.jobCount / 10))),
    maxStringLength: 10,
    blinkRate: 0.01,
  };
}

const Order = { Random: 0, Demand: 1, Far: 2, Close: 3, TightWindow: 4, Absence: 5 } as const;
type Order = (typeof Order)[keyof typeof Order];

/** Weights of the recreate orders (random, demand, far, close, tight window). */
const orderWeights = [4, 4, 2, 1, 2];
const orderWeightTotal = orderWeights.reduce((a, b) => a + b, 0);

export class RuinRecreate {
  readonly problem: Problem;
  readonly random: Random;
  readonly settings: RuinSettings;
  readonly insertion: InsertionSearch;
  /** Jobs that no vehicle can serve alone: never part of a recreate. */
  readonly impossible: Uint8Array;
  /** Per-job absence counters while minimising the fleet (higher first in that order). */
  absence: Float64Array;
  /** Whether the ruin walks the neighbours by travel cost alone (the fleet phase) rather than in time too. */
  spatial = false;
  private readonly buffer: Int32Array;
  private readonly keys: Float64Array;
  private readonly ranks: Float64Array;
  private readonly demandKey: Float64Array;
  private readonly farKey: Float64Array;
  private readonly windowKey: Float64Array;
  private readonly routeMark: Int32Array;
  private readonly touched: Int32Array;
  private readonly stringJobs: Int32Array;
  private markStamp = 0;

  constructor(
    problem: Problem,
    random: Random,
    impossible: Uint8Array,
    settings = defaultRuinSettings(problem),
  ) {
    this.problem = problem;
    this.random = random;
    this.settings = settings;
    this.impossible = impossible;
    let classes = 0;
    for (let v = 0; v < problem.vehicleCount; v++) classes = Math.max(classes, problem.vehicleClass[v]! + 1);
    this.insertion = new InsertionSearch(classes);
    this.insertion.setBlinks(settings.blinkRate, random);
    const n = problem.jobCount;
    this.buffer = new Int32Array(n);
    this.keys = new Float64Array(n);
    this.ranks = new Float64Array(n);
    this.absence = new Float64Array(n);
    this.routeMark = new Int32Array(problem.vehicleCount);
    this.touched = new Int32Array(problem.vehicleCount);
    this.stringJobs = new Int32Array(n + 2);
    this.demandKey = new Float64Array(n);
    this.farKey = new Float64Array(n);
    this.windowKey = new Float64Array(n);
    const dims = problem.dimensions;
    const maxCapacity = new Float64Array(dims);
    for (let v = 0; v < problem.vehicleCount; v++) {
      for (let k = 0; k < dims; k++)
        maxCapacity[k] = Math.max(maxCapacity[k]!, problem.capacity[v * dims + k]!);
    }
    for (let j = 0; j < n; j++) {
      let demand = 0;
      for (let k = 0; k < dims; k++) {
        if (maxCapacity[k]! > 0) {
          demand += (problem.delivery[j * dims + k]! + problem.pickup[j * dims + k]!) / maxCapacity[k]!;
        }
      }
      this.demandKey[j] = demand;
      this.farKey[j] = problem.depotDistance[j]!;
      this.windowKey[j] = problem.lastEnd[j]! - problem.firstStart[j]!;
    }
  }

  /**
   * Removes strings around `seed` (a job; when unassigned its neighbours lead the way) and
   * returns the number of jobs removed. Touched routes are refreshed.
   */
  ruin(solution: Solution, seed: number): number {
    const problem = this.problem;
    const random = this.random;
    const settings = this.settings;
    const n = problem.jobCount;
    let assigned = 0;
    let used = 0;
    for (const route of solution.routes) {
      if (route.jobs > 0) {
        used++;
        assigned += route.jobs;
      }
    }
    if (used === 0) return 0;
    const averageLength = assigned / used;
    const maxString = Math.min(settings.maxStringLength, averageLength);
    const maxStrings = (4 * settings.averageRemoved) / (1 + maxString) - 1;
    const strings = Math.floor(random.float() * Math.max(1, maxStrings)) + 1;
    const stamp = ++this.markStamp;
    let ruinedRoutes = 0;
    let removed = 0;
    const neighbours = this.spatial ? problem.spatialNeighbours : problem.neighbours;
    const count = problem.neighbourCount;
    // The seed's neighbours as its own vehicle sees them (or the first that can serve it).
    const seedRoute = solution.jobRoute[seed]!;
    const group =
      seedRoute >= 0
        ? problem.neighbourGroup[solution.routes[seedRoute]!.vehicle]!
        : problem.jobNeighbourGroup[seed]!;
    const base = (group * n + seed) * count;
    for (let i = -1; i < count && ruinedRoutes < strings; i++) {
      const c = i < 0 ? seed : neighbours[base + i]!;
      const r = solution.jobRoute[c]!;
      if (r < 0 || this.routeMark[r] === stamp) continue;
      this.routeMark[r] = stamp;
      this.touched[ruinedRoutes++] = r;
      const route = solution.routes[r]!;
      // Jobs of the route in order (breaks skipped).
      let t = 0;
      let at = 0;
      for (let p = 1; p < route.len - 1; p++) {
        const j = route.node[p]!;
        if (j < n) {
          if (j === c) at = t;
          this.stringJobs[t++] = j;
        }
      }
      const length = Math.floor(random.float() * Math.min(t, maxString)) + 1;
      let from: number;
      let to: number;
      let keepFrom = 0;
      let keepTo = 0;
      if (length >= t || random.float() < 0.5) {
        // A whole string of `length` jobs containing c.
        const low = Math.max(0, at - length + 1);
        const high = Math.min(at, t - length);
        from = low + Math.floor(random.float() * (high - low + 1));
        to = from + length;
      } else {
        // A string of length + kept jobs, the kept ones left in place in its middle.
        let kept = 1;
        while (length + kept < t && random.float() < 0.5) kept++;
        const span = length + kept;
        const low = Math.max(0, at - span + 1);
        const high = Math.min(at, t - span);
        from = low + Math.floor(random.float() * (high - low + 1));
        to = from + span;
        keepFrom = from + Math.floor(random.float() * (length + 1));
        keepTo = keepFrom + kept;
      }
      for (let k = from; k < to; k++) {
        if (k >= keepFrom && k < keepTo) continue;
        solution.detach(this.stringJobs[k]!);
        removed++;
      }
    }
    for (let k = 0; k < ruinedRoutes; k++) solution.routes[this.touched[k]!]!.refresh();
    return removed;
  }

  /** Inserts every unassigned (and possible) job back; returns how many stay unassigned. */
  recreate(solution: Solution, useAbsence = false): number {
    const buffer = this.buffer;
    let count = 0;
    for (let i = 0; i < solution.unassignedCount; i++) {
      const j = solution.unassigned[i]!;
      if (this.impossible[j] === 0) buffer[count++] = j;
    }
    if (count === 0) return 0;
    this.order(buffer, count, useAbsence);
    return insertAll(solution, this.insertion, buffer, count);
  }

  /**
   * Makes room for the jobs a recreate left out, as the fleet phase does: while more than `allowed`
   * jobs are out, ruins strings around one of them (chosen at random; its neighbours' routes are
   * where room must be made) and recreates, `attempts` times at most. Returns the attempts made.
   */
  makeRoom(solution: Solution, allowed: number, attempts: number): number {
    let made = 0;
    while (made < attempts && solution.unassignedCount > allowed) {
      const job = this.leftOut(solution);
      if (job < 0) break;
      made++;
      this.ruin(solution, job);
      this.recreate(solution);
    }
    return made;
  }

  /** A random unassigned job that some vehicle can serve, or -1. */
  private leftOut(solution: Solution): number {
    const count = solution.unassignedCount;
    const from = this.random.int(count);
    for (let k = 0; k < count; k++) {
      const job = solution.unassigned[(from + k) % count]!;
      if (this.impossible[job] === 0) return job;
    }
    return -1;
  }

  /** Shuffles, then sorts stably by priority and one of the orders. */
  private order(jobs: Int32Array, count: number, useAbsence: boolean) {
    const random = this.random;
    for (let i = count - 1; i > 0; i--) {
      const k = random.int(i + 1);
      const tmp = jobs[i]!;
      jobs[i] = jobs[k]!;
      jobs[k] = tmp;
    }
    let order: Order = Order.Random;
    if (useAbsence && random.float() < 0.5) {
      order = Order.Absence;
    } else {
      let pick = random.float() * orderWeightTotal;
      for (let o = 0; o < orderWeights.length; o++) {
        pick -= orderWeights[o]!;
        if (pick < 0) {
          order = o as Order;
          break;
        }
      }
    }
    const keys = this.keys;
    const ranks = this.ranks;
    const priority = this.problem.jobPriority;
    // Sort by priority (higher first), then ascending by the order's key.
    for (let i = 0; i < count; i++) {
      const j = jobs[i]!;
      let key = 0;
      switch (order) {
        case Order.Demand:
          key = -this.demandKey[j]!;
          break;
        case Order.Far:
          key = -this.farKey[j]!;
          break;
        case Order.Close:
          key = this.farKey[j]!;
          break;
        case Order.TightWindow:
          key = this.windowKey[j]!;
          break;
        case Order.Absence:
          key = -this.absence[j]!;
          break;
        default:
          key = 0;
      }
      keys[i] = key;
      ranks[i] = -priority[j]!;
    }
    // Insertion sort: lists are short and the sort must be stable.
    for (let i = 1; i < count; i++) {
      const j = jobs[i]!;
      const key = keys[i]!;
      const rank = ranks[i]!;
      let k = i - 1;
      while (k >= 0 && (ranks[k]! > rank || (ranks[k] === rank && keys[k]! > key))) {
        jobs[k + 1] = jobs[k]!;
        keys[k + 1] = keys[k]!;
        ranks[k + 1] = ranks[k]!;
        k--;
      }
      jobs[k + 1] = j;
      keys[k + 1] = key;
      ranks[k + 1] = rank;
    }
  }
}
