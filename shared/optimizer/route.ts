/**
 * One vehicle's route and the data that makes move evaluation O(1).
 *
 * A route is a sequence of positions: 0 is the vehicle's start, len-1 its end, and between them
 * jobs and the vehicle's breaks. After every change `refresh()` recomputes, per position, in
 * three passes (route-schedule.ts):
 * - E: earliest service start (for the start: departure; for the end: arrival), D = E + service;
 * - L: latest service start that keeps the rest of the route feasible (for the start: latest
 *   departure). Both are monotone along the route, and a later start never helps, so "arriving
 *   at a real node no later than its L" is the whole feasibility test of a route's suffix;
 * - cc: travel cost accumulated up to the position, and the loads.
 * Inserting, removing or replacing a job then costs a look at its two real neighbours plus the
 * breaks between them, whatever the route's length.
 *
 * Breaks follow VROOM's rule: a break sits on the leg between two real stops, the vehicle takes
 * it as early as its windows allow after leaving the previous stop, and waiting for a break
 * window is spent driving. Arriving at the next stop from departure t over travel d with breaks
 * b1..bk is then max(t + d + Σ service(b), σk + service(bk)), where σ is the greedy earliest
 * schedule of the breaks from t; it is feasible while every σi falls in a window of bi. The
 * latest departure backwards is min(L(next) - d - Σ service(b), λ1), with λ the latest break
 * schedule ending by L(next). Both directions are exact, so forward and backward agree.
 */
import type { Problem } from './problem.ts';
import { backwardPass, endNode, forwardPass, loadPass, startNode } from './route-schedule.ts';
import { earliestStart } from './time-windows.ts';

let versionCounter = 0;

export class Route {
  readonly problem: Problem;
  readonly vehicle: number;
  /** Shared with the owning solution: route (vehicle) and position of every job. */
  readonly jobRoute: Int32Array;
  readonly jobPos: Int32Array;
  readonly durations: Float64Array;
  readonly costs: Float64Array;
  readonly placeCount: number;
  readonly breakTotal: number;

  len = 0;
  jobs = 0;
  /** Unique per content: equal versions in two solutions mean equal routes. */
  version = 0;
  feasible = true;

  node: Int32Array;
  place: Int32Array;
  E: Float64Array;
  D: Float64Array;
  L: Float64Array;
  cc: Float64Array;
  /** Travel cost of the route driven backwards up to each position (2-opt prices a reversal with it). */
  cr: Float64Array;
  prevReal: Int32Array;
  nextReal: Int32Array;
  /** Sum of the jobs' deliveries and pickups per dimension. */
  readonly deliveryTotal: Float64Array;
  readonly pickupTotal: Float64Array;
  /** With pickups only: load leaving each position, and its running maxima from the front and the back. */
  load: Float64Array;
  prefixMax: Float64Array;
  suffixMax: Float64Array;
  /** Deliveries and pickups of positions 0..p, per dimension. */
  deliveredBefore: Float64Array;
  pickedBefore: Float64Array;

  constructor(problem: Problem, vehicle: number, jobRoute: Int32Array, jobPos: Int32Array) {
    this.problem = problem;
    this.vehicle = vehicle;
    this.jobRoute = jobRoute;
    this.jobPos = jobPos;
    this.durations = problem.matrices[problem.durationMatrix[vehicle]!]!;
    this.costs = problem.matrices[problem.costMatrix[vehicle]!]!;
    this.placeCount = problem.placeCount;
    this.breakTotal = problem.breakOffset[vehicle + 1]! - problem.breakOffset[vehicle]!;
    const size = 8 + this.breakTotal;
    const dims = problem.dimensions;
    this.node = new Int32Array(size);
    this.place = new Int32Array(size);
    this.E = new Float64Array(size);
    this.D = new Float64Array(size);
    this.L = new Float64Array(size);
    this.cc = new Float64Array(size);
    this.cr = new Float64Array(size);
    this.prevReal = new Int32Array(size);
    this.nextReal = new Int32Array(size);
    this.deliveryTotal = new Float64Array(dims);
    this.pickupTotal = new Float64Array(dims);
    const loadSize = problem.hasPickups ? size * dims : 0;
    this.load = new Float64Array(loadSize);
    this.prefixMax = new Float64Array(loadSize);
    this.suffixMax = new Float64Array(loadSize);
    this.deliveredBefore = new Float64Array(size * dims);
    this.pickedBefore = new Float64Array(size * dims);
    this.clear();
  }

  /** Start, the vehicle's breaks in order of their first window, end. */
  clear() {
    const problem = this.problem;
    const first = problem.jobCount + problem.breakOffset[this.vehicle]!;
    const breaks: number[] = [];
    for (let b = 0; b < this.breakTotal; b++) breaks.push(first + b);
    breaks.sort((a, b) => problem.firstStart[a]! - problem.firstStart[b]! || a - b);
    for (let i = 0; i < this.len; i++) {
      const node = this.node[i]!;
      if (node >= 0 && node < problem.jobCount && this.jobRoute[node] === this.vehicle)
        this.jobRoute[node] = -1;
    }
    this.node[0] = startNode;
    for (let b = 0; b < breaks.length; b++) this.node[1 + b] = breaks[b]!;
    this.node[breaks.length + 1] = endNode;
    this.len = breaks.length + 2;
    this.refresh();
  }

  get fixedCost(): number {
    return this.problem.fixedCost[this.vehicle]!;
  }

  /** Travel cost of the route (its start-to-end cost even when empty). */
  get travelCost(): number {
    return this.cc[this.len - 1]!;
  }

  /** What the route adds to the objective: nothing when unused. */
  get cost(): number {
    return this.jobs === 0 ? 0 : this.cc[this.len - 1]! + this.problem.fixedCost[this.vehicle]!;
  }

  /** Added to an insertion delta into this route when it is empty: opening the vehicle. */
  get openingCost(): number {
    return this.jobs === 0 ? this.cc[this.len - 1]! + this.problem.fixedCost[this.vehicle]! : 0;
  }

  isBreak(position: number): boolean {
    return this.node[position]! >= this.problem.jobCount;
  }

  private grow(min: number) {
    let size = this.node.length;
    while (size < min) size *= 2;
    const dims = this.problem.dimensions;
    const growI = (a: Int32Array, factor = 1) => {
      const b = new Int32Array(size * factor);
      b.set(a);
      return b;
    };
    const growF = (a: Float64Array, factor = 1) => {
      const b = new Float64Array(a.length === 0 ? 0 : size * factor);
      b.set(a);
      return b;
    };
    this.node = growI(this.node);
    this.place = growI(this.place);
    this.prevReal = growI(this.prevReal);
    this.nextReal = growI(this.nextReal);
    this.E = growF(this.E);
    this.D = growF(this.D);
    this.L = growF(this.L);
    this.cc = growF(this.cc);
    this.cr = growF(this.cr);
    this.load = growF(this.load, dims);
    this.prefixMax = growF(this.prefixMax, dims);
    this.suffixMax = growF(this.suffixMax, dims);
    this.deliveredBefore = growF(this.deliveredBefore, dims);
    this.pickedBefore = growF(this.pickedBefore, dims);
  }

  /** Inserts a node after `position`; call refresh() once the edits are done. */
  insertAfter(position: number, node: number) {
    if (this.len + 1 > this.node.length) this.grow(this.len + 1);
    this.node.copyWithin(position + 2, position + 1, this.len);
    this.node[position + 1] = node;
    this.len++;
  }

  /** Removes the node at `position`; call refresh() once the edits are done. */
  removeAt(position: number) {
    const node = this.node[position]!;
    if (node < this.problem.jobCount && this.jobRoute[node] === this.vehicle) this.jobRoute[node] = -1;
    this.node.copyWithin(position, position + 1, this.len);
    this.len--;
  }

  /** Replaces the route's nodes (without start and end) by `nodes[0..count)`. */
  setNodes(nodes: Int32Array, count: number) {
    for (let i = 1; i < this.len - 1; i++) {
      const node = this.node[i]!;
      if (node < this.problem.jobCount && this.jobRoute[node] === this.vehicle) this.jobRoute[node] = -1;
    }
    if (count + 2 > this.node.length) this.grow(count + 2);
    this.node[0] = startNode;
    for (let i = 0; i < count; i++) this.node[i + 1] = nodes[i]!;
    this.node[count + 1] = endNode;
    this.len = count + 2;
  }

  /** Recomputes every per-position value (route-schedule.ts); returns whether the route is feasible. */
  refresh(): boolean {
    this.version = ++versionCounter;
    let feasible = forwardPass(this);
    if (!backwardPass(this)) feasible = false;
    if (!loadPass(this)) feasible = false;
    if (this.jobs > this.problem.maxTasks[this.vehicle]!) feasible = false;
    this.feasible = feasible;
    return feasible;
  }

  /**
   * Arrival at the real node after breaks from..to-1 (skipping position `skip`), leaving at `t`
   * with `d` of travel to do: Infinity when a break window is missed.
   */
  legArrival(t: number, d: number, from: number, to: number, skip: number): number {
    const problem = this.problem;
    let current = t;
    let breakService = 0;
    for (let b = from; b < to; b++) {
      if (b === skip) continue;
      const node = this.node[b]!;
      const start = earliestStart(problem, node, current);
      if (start === Number.POSITIVE_INFINITY) return start;
      const s = problem.service[node]!;
      current = start + s;
      breakService += s;
    }
    const byTravel = t + d + breakService;
    return byTravel > current ? byTravel : current;
  }

  /** Whether every capacity dimension still holds with job u added (deliveries and pickups in total). */
  fitsTotal(u: number): boolean {
    const problem = this.problem;
    const dims = problem.dimensions;
    const base = this.vehicle * dims;
    for (let k = 0; k < dims; k++) {
      const cap = problem.capacity[base + k]!;
      if (this.deliveryTotal[k]! + problem.delivery[u * dims + k]! > cap) return false;
      if (this.pickupTotal[k]! + problem.pickup[u * dims + k]! > cap) return false;
    }
    return true;
  }

  /** With pickups: whether the load stays within capacity everywhere when u is inserted after p. */
  fitsLoadAt(u: number, p: number): boolean {
    const problem = this.problem;
    const dims = problem.dimensions;
    const base = this.vehicle * dims;
    for (let k = 0; k < dims; k++) {
      const cap = problem.capacity[base + k]!;
      const del = problem.delivery[u * dims + k]!;
      const pick = problem.pickup[u * dims + k]!;
      if (this.prefixMax[p * dims + k]! + del > cap) return false;
      if (this.load[p * dims + k]! + pick > cap) return false;
      if (this.suffixMax[(p + 1) * dims + k]! + pick > cap) return false;
    }
    return true;
  }

  /**
   * Change of travel cost when job u goes between positions p and p+1, or Infinity when the
   * route's time windows, breaks or (with pickups) loads forbid it. Total capacity, skills and
   * max_tasks are the caller's checks, made once per route. A change of `bound` or more is
   * reported as Infinity without checking the times (the price is three look-ups, the times more).
   */
  insertionDelta(u: number, p: number, bound = Number.POSITIVE_INFINITY): number {
    const problem = this.problem;
    const n = problem.jobCount;
    const size = this.placeCount;
    const node = this.node;
    const a = node[p]! >= n ? this.prevReal[p]! : p;
    const b = node[p + 1]! >= n ? this.nextReal[p + 1]! : p + 1;
    const pa = this.place[a]!;
    const pb = this.place[b]!;
    const pu = problem.jobPlace[u]!;
    const costs = this.costs;
    const delta = costs[pa * size + pu]! + costs[pu * size + pb]! - costs[pa * size + pb]!;
    if (delta >= bound) return Number.POSITIVE_INFINITY;
    let arrival = this.D[a]! + this.durations[pa * size + pu]!;
    if (a !== p) arrival = this.legArrival(this.D[a]!, this.durations[pa * size + pu]!, a + 1, p + 1, -1);
    if (arrival > problem.lastEnd[u]!) return Number.POSITIVE_INFINITY;
    const start = earliestStart(problem, u, arrival);
    if (start === Number.POSITIVE_INFINITY) return start;
    const departure = start + problem.service[u]!;
    const d = this.durations[pu * size + pb]!;
    const arrivalNext = b === p + 1 ? departure + d : this.legArrival(departure, d, p + 1, b, -1);
    if (arrivalNext > this.L[b]!) return Number.POSITIVE_INFINITY;
    if (problem.hasPickups && !this.fitsLoadAt(u, p)) return Number.POSITIVE_INFINITY;
    return delta;
  }

  /** Change of travel cost when the job at position q leaves, or Infinity when that breaks the route. */
  removalDelta(q: number): number {
    const size = this.placeCount;
    const a = this.prevReal[q]!;
    const b = this.nextReal[q]!;
    const pa = this.place[a]!;
    const pb = this.place[b]!;
    const pq = this.place[q]!;
    const d = this.durations[pa * size + pb]!;
    const arrival = a === q - 1 && b === q + 1 ? this.D[a]! + d : this.legArrival(this.D[a]!, d, a + 1, b, q);
    if (arrival > this.L[b]!) return Number.POSITIVE_INFINITY;
    const costs = this.costs;
    return costs[pa * size + pb]! - costs[pa * size + pq]! - costs[pq * size + pb]!;
  }

  /** Change of travel cost when job u takes the place of the job at position q (loads unchecked). */
  replacementDelta(q: number, u: number): number {
    const problem = this.problem;
    const size = this.placeCount;
    const a = this.prevReal[q]!;
    const b = this.nextReal[q]!;
    const pa = this.place[a]!;
    const pb = this.place[b]!;
    const pq = this.place[q]!;
    const pu = problem.jobPlace[u]!;
    const d1 = this.durations[pa * size + pu]!;
    const arrival = a === q - 1 ? this.D[a]! + d1 : this.legArrival(this.D[a]!, d1, a + 1, q, -1);
    if (arrival > problem.lastEnd[u]!) return Number.POSITIVE_INFINITY;
    const start = earliestStart(problem, u, arrival);
    if (start === Number.POSITIVE_INFINITY) return start;
    const departure = start + problem.service[u]!;
    const d2 = this.durations[pu * size + pb]!;
    const arrivalNext = b === q + 1 ? departure + d2 : this.legArrival(departure, d2, q + 1, b, -1);
    if (arrivalNext > this.L[b]!) return Number.POSITIVE_INFINITY;
    const costs = this.costs;
    return costs[pa * size + pu]! + costs[pu * size + pb]! - costs[pa * size + pq]! - costs[pq * size + pb]!;
  }

  /** Copies another route of the same vehicle (of another solution) into this one. */
  copyFrom(other: Route) {
    if (other.len > this.node.length) this.grow(other.len);
    const len = other.len;
    this.len = len;
    this.jobs = other.jobs;
    this.version = other.version;
    this.feasible = other.feasible;
    this.node.set(other.node.subarray(0, len));
    this.place.set(other.place.subarray(0, len));
    this.E.set(other.E.subarray(0, len));
    this.D.set(other.D.subarray(0, len));
    this.L.set(other.L.subarray(0, len));
    this.cc.set(other.cc.subarray(0, len));
    this.cr.set(other.cr.subarray(0, len));
    this.prevReal.set(other.prevReal.subarray(0, len));
    this.nextReal.set(other.nextReal.subarray(0, len));
    this.deliveryTotal.set(other.deliveryTotal);
    this.pickupTotal.set(other.pickupTotal);
    const dims = this.problem.dimensions;
    this.deliveredBefore.set(other.deliveredBefore.subarray(0, len * dims));
    this.pickedBefore.set(other.pickedBefore.subarray(0, len * dims));
    if (this.problem.hasPickups) {
      this.load.set(other.load.subarray(0, len * dims));
      this.prefixMax.set(other.prefixMax.subarray(0, len * dims));
      this.suffixMax.set(other.suffixMax.subarray(0, len * dims));
    }
    const n = this.problem.jobCount;
    for (let i = 1; i < len - 1; i++) {
      const j = this.node[i]!;
      if (j < n) {
        this.jobRoute[j] = this.vehicle;
        this.jobPos[j] = i;
      }
    }
  }

  /** Job ids in route order (no breaks). */
  jobList(): number[] {
    const list: number[] = [];
    const n = this.problem.jobCount;
    for (let i = 1; i < this.len - 1; i++) if (this.node[i]! < n) list.push(this.node[i]!);
    return list;
  }
}
