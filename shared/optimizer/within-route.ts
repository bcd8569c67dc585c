/**
 * The local search's moves within one route (local-search.ts): 2-opt (reverse a segment) and
 * or-opt (move a segment of 1 to 3 jobs, possibly reversed, next to a neighbour of its ends), on
 * routes without breaks. Each move is priced from the cumulative costs (cc, and cr for reversals)
 * in O(1); only an improving one is checked, by re-timing the stretch that changes and joining
 * the unchanged suffix through its latest start.
 */
import type { Problem } from './problem.ts';
import type { Route } from './route.ts';
import { earliestStart } from './time-windows.ts';

const improvement = 1e-7;

export class WithinRoute {
  private readonly problem: Problem;
  private readonly granularity: number;
  private readonly sequenceA: Int32Array;
  private readonly sequenceB: Int32Array;

  constructor(problem: Problem, granularity: number) {
    this.problem = problem;
    this.granularity = granularity;
    this.sequenceA = new Int32Array(problem.jobCount + 2);
    this.sequenceB = new Int32Array(problem.jobCount + 2);
  }

  /** Whether the route with positions from..to (real, in this order) replacing from..to stays feasible. */
  private reversedFeasible(route: Route, i: number, j: number): boolean {
    const problem = this.problem;
    const size = route.placeCount;
    const durations = route.durations;
    let t = route.D[i - 1]!;
    let place = route.place[i - 1]!;
    for (let p = j; p >= i; p--) {
      const node = route.node[p]!;
      const start = earliestStart(problem, node, t + durations[place * size + route.place[p]!]!);
      if (start === Number.POSITIVE_INFINITY) return false;
      t = start + problem.service[node]!;
      place = route.place[p]!;
    }
    if (t + durations[place * size + route.place[j + 1]!]! > route.L[j + 1]!) return false;
    if (!problem.hasPickups) return true;
    let count = 0;
    for (let p = j; p >= i; p--) this.sequenceA[count++] = p;
    return this.stretchLoadsFit(route, i - 1, count);
  }

  /**
   * With pickups, reordering a stretch changes the load inside it (not before or after it):
   * the load leaving `from`, then each position of sequenceA[0..count) in its new order.
   */
  private stretchLoadsFit(route: Route, from: number, count: number): boolean {
    const problem = this.problem;
    const dims = problem.dimensions;
    const base = route.vehicle * dims;
    for (let k = 0; k < dims; k++) {
      let load = route.load[from * dims + k]!;
      const cap = problem.capacity[base + k]!;
      for (let c = 0; c < count; c++) {
        const node = route.node[this.sequenceA[c]!]!;
        load += problem.pickup[node * dims + k]! - problem.delivery[node * dims + k]!;
        if (load > cap) return false;
      }
    }
    return true;
  }

  /** Reverses segments that lower the cost, in one pass; returns how many. */
  twoOpt(route: Route): number {
    const costs = route.costs;
    const size = route.placeCount;
    const place = route.place;
    const cc = route.cc;
    const cr = route.cr;
    const last = route.len - 2;
    let moved = 0;
    for (let i = 1; i < last; i++) {
      const a = place[i - 1]!;
      let first = place[i]!;
      let removedBefore = costs[a * size + first]!;
      for (let j = i + 1; j <= last; j++) {
        const b = place[j + 1]!;
        const delta =
          costs[a * size + place[j]!]! +
          costs[first * size + b]! -
          removedBefore -
          costs[place[j]! * size + b]! +
          (cr[j]! - cr[i]!) -
          (cc[j]! - cc[i]!);
        if (delta < -improvement && this.reversedFeasible(route, i, j)) {
          route.node.subarray(i, j + 1).reverse();
          route.refresh();
          moved++;
          first = place[i]!;
          removedBefore = costs[a * size + first]!;
        }
      }
    }
    return moved;
  }

  /**
   * Moves segments of 1 to 3 jobs next to a neighbour of their first or last job where that lowers
   * the cost, in one pass; returns how many.
   */
  orOpt(route: Route): number {
    const problem = this.problem;
    const neighbours = problem.neighbours;
    const count = problem.neighbourCount;
    const granularity = this.granularity;
    const lists = problem.neighbourGroup[route.vehicle]! * problem.jobCount;
    const vehicle = route.vehicle;
    const jobRoute = route.jobRoute;
    const jobPos = route.jobPos;
    const last = route.len - 2;
    let moved = 0;
    for (let length = 1; length <= 3; length++) {
      for (let s = 1; s + length - 1 <= last; s++) {
        const e = s + length - 1;
        // What taking the segment out saves, and its own cost driven backwards less forwards,
        // are the same for every place it may go: priced once per segment.
        let removal = this.segmentRemoval(route, s, e);
        let reversal = s === e ? 0 : route.cr[e]! - route.cr[s]! - (route.cc[e]! - route.cc[s]!);
        const firstNode = route.node[s]!;
        const lastNode = route.node[e]!;
        // Candidate places: after a neighbour of the first job, before a neighbour of the last, or at the ends.
        for (let k = -1; k < 2 * granularity; k++) {
          let p: number;
          if (k === -1) p = 0;
          else {
            const anchor = k < granularity ? firstNode : lastNode;
            const v = neighbours[(lists + anchor) * count + (k < granularity ? k : k - granularity)]!;
            if (jobRoute[v] !== vehicle) continue;
            p = k < granularity ? jobPos[v]! : jobPos[v]! - 1;
          }
          if (p >= s - 1 && p <= e) continue;
          if (this.tryMoveSegment(route, s, e, p, removal, reversal)) {
            moved++;
            // The route changed: what positions s..e hold now is priced afresh.
            removal = this.segmentRemoval(route, s, e);
            reversal = s === e ? 0 : route.cr[e]! - route.cr[s]! - (route.cc[e]! - route.cc[s]!);
            break;
          }
        }
        if (last > e && this.tryMoveSegment(route, s, e, last, removal, reversal)) moved++;
      }
    }
    return moved;
  }

  /** What taking positions s..e out of the route changes in its cost. */
  private segmentRemoval(route: Route, s: number, e: number): number {
    const costs = route.costs;
    const size = route.placeCount;
    const place = route.place;
    const before = place[s - 1]!;
    const after = place[e + 1]!;
    return (
      costs[before * size + after]! - costs[before * size + place[s]!]! - costs[place[e]! * size + after]!
    );
  }

  /**
   * Moves positions s..e after p, as they are or reversed, when that lowers the cost: `removal`
   * is what taking them out changes, `reversal` what driving them backwards adds (0 for one job,
   * whose reversal is itself).
   */
  private tryMoveSegment(
    route: Route,
    s: number,
    e: number,
    p: number,
    removal: number,
    reversal: number,
  ): boolean {
    const costs = route.costs;
    const size = route.placeCount;
    const place = route.place;
    const first = place[s]!;
    const lastPlace = place[e]!;
    const x = place[p]!;
    const y = place[p + 1]!;
    const opened = removal - costs[x * size + y]!;
    const forward = opened + costs[x * size + first]! + costs[lastPlace * size + y]!;
    if (forward < -improvement && this.segmentMoveFeasible(route, s, e, p, false)) {
      this.applySegmentMove(route, s, e, p, false);
      return true;
    }
    if (s === e) return false;
    const reversed = opened + costs[x * size + lastPlace]! + costs[first * size + y]! + reversal;
    if (reversed < -improvement && this.segmentMoveFeasible(route, s, e, p, true)) {
      this.applySegmentMove(route, s, e, p, true);
      return true;
    }
    return false;
  }

  /** Writes the new order of the changed stretch into sequenceA and re-times it. */
  private segmentMoveFeasible(route: Route, s: number, e: number, p: number, reversed: boolean): boolean {
    const sequence = this.sequenceA;
    let count = 0;
    let from: number;
    let to: number;
    if (p < s) {
      // [..p] segment [p+1..s-1] [e+1..]
      from = p;
      count = this.pushSegment(count, s, e, reversed);
      for (let q = p + 1; q < s; q++) sequence[count++] = q;
      to = e + 1;
    } else {
      // [..s-1] [e+1..p] segment [p+1..]
      from = s - 1;
      for (let q = e + 1; q <= p; q++) sequence[count++] = q;
      count = this.pushSegment(count, s, e, reversed);
      to = p + 1;
    }
    const problem = this.problem;
    const size = route.placeCount;
    const durations = route.durations;
    let t = route.D[from]!;
    let place = route.place[from]!;
    for (let c = 0; c < count; c++) {
      const q = sequence[c]!;
      const node = route.node[q]!;
      const start = earliestStart(problem, node, t + durations[place * size + route.place[q]!]!);
      if (start === Number.POSITIVE_INFINITY) return false;
      t = start + problem.service[node]!;
      place = route.place[q]!;
    }
    if (t + durations[place * size + route.place[to]!]! > route.L[to]!) return false;
    return !problem.hasPickups || this.stretchLoadsFit(route, from, count);
  }

  /** Writes positions s..e (or e..s) into sequenceA from `count` on; returns the new count. */
  private pushSegment(count: number, s: number, e: number, reversed: boolean): number {
    const sequence = this.sequenceA;
    let c = count;
    if (reversed) for (let q = e; q >= s; q--) sequence[c++] = q;
    else for (let q = s; q <= e; q++) sequence[c++] = q;
    return c;
  }

  private applySegmentMove(route: Route, s: number, e: number, p: number, reversed: boolean) {
    const sequence = this.sequenceB;
    let count = 0;
    const last = route.len - 1;
    for (let q = 1; q < last; q++) {
      if (q >= s && q <= e) continue;
      sequence[count++] = route.node[q]!;
      if (q === p) {
        if (reversed) for (let r = e; r >= s; r--) sequence[count++] = route.node[r]!;
        else for (let r = s; r <= e; r++) sequence[count++] = route.node[r]!;
      }
    }
    if (p === 0) {
      // Segment goes first.
      count = 0;
      if (reversed) for (let r = e; r >= s; r--) sequence[count++] = route.node[r]!;
      else for (let r = s; r <= e; r++) sequence[count++] = route.node[r]!;
      for (let q = 1; q < last; q++) if (q < s || q > e) sequence[count++] = route.node[q]!;
    }
    route.setNodes(sequence, count);
    route.refresh();
  }
}
