/**
 * Penalised time warp (Vidal et al. 2013, as in HGS and PyVRP): a descent that may break time
 * windows and capacity at a price, so that it can pass through infeasible orders between two
 * feasible ones, then a repair that raises the price until the routes are feasible again.
 *
 * A route is priced as travel cost + ωt · time warp + ωq · excess load. Time warp is the time a
 * vehicle would have to travel back to start a service inside its window; with one window per
 * job it composes over segments in O(1) (duration, time warp, earliest and latest start of the
 * segment's first service), so every move between routes is priced from prefix and suffix data,
 * and a move within a route by walking the stretch it changes.
 *
 * It works on its own model (job sequences with prefix and suffix data) and only on problems the
 * composition is exact for: one window at most per job, no breaks, no pickups and one vehicle
 * class. `timeWarpApplies` says which; the others keep the feasible-only search.
 */
import type { Problem } from './problem.ts';
import type { Random } from './random.ts';
import type { Solution } from './solution.ts';

const improvement = 1e-7;

export function timeWarpApplies(problem: Problem): boolean {
  if (problem.breakCount > 0 || problem.hasPickups || problem.vehicleCount === 0) return false;
  for (let j = 0; j < problem.jobCount; j++) {
    if (problem.twOffset[j + 1]! - problem.twOffset[j]! > 1) return false;
  }
  for (let v = 1; v < problem.vehicleCount; v++) {
    if (problem.vehicleClass[v] !== problem.vehicleClass[0]) return false;
  }
  return true;
}

export interface TimeWarpResult {
  /** Whether the solution was replaced by a cheaper feasible one. */
  improved: boolean;
  moves: number;
}

export class TimeWarpSearch {
  readonly problem: Problem;
  readonly random: Random;
  readonly granularity: number;
  /** Price of one unit of time warp and of excess load, in cost units. */
  timePenalty: number;
  loadPenalty: number;
  private readonly n: number;
  private readonly places: number;
  private readonly dur: Float64Array;
  private readonly cost: Float64Array;
  private readonly capacity: number;
  private readonly maxTasks: number;
  /** Route r is vehicle r's: its jobs at 1..k (0 and k + 1 are its start and end). */
  private readonly seq: Int32Array[] = [];
  private readonly len: Int32Array;
  /** Per route, per position: the prefix start..p and the suffix p..end (duration, time warp, earliest, latest, cost, load). */
  private readonly fD: Float64Array[] = [];
  private readonly fTW: Float64Array[] = [];
  private readonly fE: Float64Array[] = [];
  private readonly fL: Float64Array[] = [];
  private readonly fC: Float64Array[] = [];
  private readonly fQ: Float64Array[] = [];
  private readonly bD: Float64Array[] = [];
  private readonly bTW: Float64Array[] = [];
  private readonly bE: Float64Array[] = [];
  private readonly bL: Float64Array[] = [];
  private readonly bC: Float64Array[] = [];
  /** The solution route version each route was read from, and the routes changed since. */
  private readonly versions: Float64Array;
  private readonly dirty: Uint8Array;
  private readonly routeOf: Int32Array;
  private readonly posOf: Int32Array;
  private readonly order: Int32Array;
  private readonly scratch: Int32Array;
  /** Jobs the last eject() took out. */
  readonly ejected: Int32Array;
  ejectedCount = 0;
  // The accumulator: a segment being composed.
  private aD = 0;
  private aTW = 0;
  private aE = 0;
  private aL = 0;
  private aC = 0;
  private aQ = 0;
  private aLast = 0;
  private aCount = 0;

  constructor(problem: Problem, random: Random, granularity = 20) {
    this.problem = problem;
    this.random = random;
    this.granularity = Math.min(granularity, problem.neighbourCount);
    this.n = problem.jobCount;
    this.places = problem.placeCount;
    this.dur = problem.matrices[problem.durationMatrix[0]!]!;
    this.cost = problem.matrices[problem.costMatrix[0]!]!;
    // One dimension is priced; several are summed (a plain excess, as HGS does for one).
    let capacity = 0;
    for (let d = 0; d < problem.dimensions; d++) capacity += problem.capacity[d]!;
    this.capacity = problem.dimensions === 0 ? Number.POSITIVE_INFINITY : capacity;
    this.maxTasks = problem.maxTasks[0]!;
    this.routeOf = new Int32Array(this.n);
    this.posOf = new Int32Array(this.n);
    this.order = new Int32Array(this.n);
    this.scratch = new Int32Array(this.n + 2);
    this.ejected = new Int32Array(this.n);
    this.timePenalty = 1;
    this.loadPenalty = 1;
    const m = problem.vehicleCount;
    this.len = new Int32Array(m);
    this.versions = new Float64Array(m).fill(-1);
    this.dirty = new Uint8Array(m);
    for (let r = 0; r < m; r++) {
      this.seq.push(new Int32Array(8));
      for (const list of [this.fD, this.fTW, this.fE, this.fL, this.fC, this.fQ, this.bD, this.bTW, this.bE, this.bL, this.bC]) {
        list.push(new Float64Array(8));
      }
    }
    this.routeOf.fill(-1);
  }

  private demand(j: number): number {
    const dims = this.problem.dimensions;
    let q = 0;
    for (let d = 0; d < dims; d++) q += this.problem.delivery[j * dims + d]!;
    return q;
  }

  private placeAt(r: number, p: number): number {
    const v = r;
    if (p === 0) return this.problem.startPlace[v]!;
    if (p === this.len[r]! + 1) return this.problem.endPlace[v]!;
    return this.problem.jobPlace[this.seq[r]![p]!]!;
  }

  /** Reads the routes of `solution` that changed since the last read (by version). */
  sync(solution: Solution) {
    const m = this.problem.vehicleCount;
    for (let r = 0; r < m; r++) {
      if (solution.routes[r]!.version === this.versions[r]) continue;
      const s = this.seq[r]!;
      for (let p = 1; p <= this.len[r]!; p++) if (this.routeOf[s[p]!] === r) this.routeOf[s[p]!] = -1;
    }
    for (let r = 0; r < m; r++) {
      const route = solution.routes[r]!;
      if (route.version === this.versions[r]) continue;
      this.versions[r] = route.version;
      this.dirty[r] = 0;
      this.reserve(r, route.jobs);
      const s = this.seq[r]!;
      let k = 0;
      for (let i = 1; i < route.len - 1; i++) s[++k] = route.node[i]!;
      this.len[r] = k;
      this.rebuild(r);
    }
    this.ejectedCount = 0;
  }

  /**
   * Writes the routes it changed back into `solution` (the one last synced) and marks the jobs
   * eject() took out unassigned there.
   */
  store(solution: Solution) {
    const m = this.problem.vehicleCount;
    for (let r = 0; r < m; r++) {
      if (this.dirty[r] === 0) continue;
      const k = this.len[r]!;
      for (let i = 0; i < k; i++) this.scratch[i] = this.seq[r]![i + 1]!;
      solution.routes[r]!.setNodes(this.scratch, k);
    }
    for (let r = 0; r < m; r++) {
      if (this.dirty[r] === 0) continue;
      const route = solution.routes[r]!;
      route.refresh();
      this.versions[r] = route.version;
      this.dirty[r] = 0;
    }
    for (let i = 0; i < this.ejectedCount; i++) solution.markUnassigned(this.ejected[i]!);
    this.ejectedCount = 0;
  }

  /** Room for k jobs in route r's arrays. */
  private reserve(r: number, k: number) {
    const size = k + 2;
    if (this.seq[r]!.length >= size) return;
    let capacity = this.seq[r]!.length;
    while (capacity < size) capacity *= 2;
    const grow = (a: Float64Array) => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    const seq = new Int32Array(capacity);
    seq.set(this.seq[r]!);
    this.seq[r] = seq;
    for (const list of [this.fD, this.fTW, this.fE, this.fL, this.fC, this.fQ, this.bD, this.bTW, this.bE, this.bL, this.bC]) {
      list[r] = grow(list[r]!);
    }
  }

  /** Recomputes the prefix and suffix data of route r. */
  private rebuild(r: number) {
    const k = this.len[r]!;
    const s = this.seq[r]!;
    const v = r;
    const problem = this.problem;
    for (let p = 1; p <= k; p++) {
      const j = s[p]!;
      this.routeOf[j] = r;
      this.posOf[j] = p;
    }
    const fD = this.fD[r]!;
    const fTW = this.fTW[r]!;
    const fE = this.fE[r]!;
    const fL = this.fL[r]!;
    const fC = this.fC[r]!;
    const fQ = this.fQ[r]!;
    this.startAtDepot(v);
    fD[0] = this.aD;
    fTW[0] = this.aTW;
    fE[0] = this.aE;
    fL[0] = this.aL;
    fC[0] = 0;
    fQ[0] = 0;
    for (let p = 1; p <= k; p++) {
      this.appendJob(s[p]!);
      fD[p] = this.aD;
      fTW[p] = this.aTW;
      fE[p] = this.aE;
      fL[p] = this.aL;
      fC[p] = this.aC;
      fQ[p] = this.aQ;
    }
    // The whole route, at k + 1.
    this.concat(problem.endPlace[v]!, 0, 0, problem.vehicleStart[v]!, problem.vehicleEnd[v]!);
    fD[k + 1] = this.aD;
    fTW[k + 1] = this.aTW;
    fE[k + 1] = this.aE;
    fL[k + 1] = this.aL;
    fC[k + 1] = this.aC;
    fQ[k + 1] = this.aQ;
    // Suffixes p..end, end included.
    const bD = this.bD[r]!;
    const bTW = this.bTW[r]!;
    const bE = this.bE[r]!;
    const bL = this.bL[r]!;
    const bC = this.bC[r]!;
    bD[k + 1] = 0;
    bTW[k + 1] = 0;
    bE[k + 1] = problem.vehicleStart[v]!;
    bL[k + 1] = problem.vehicleEnd[v]!;
    bC[k + 1] = 0;
    let next = problem.endPlace[v]!;
    for (let p = k; p >= 1; p--) {
      const j = s[p]!;
      const place = problem.jobPlace[j]!;
      const t = this.dur[place * this.places + next]!;
      // Vertex j before the segment p+1..end.
      const d1 = problem.service[j]!;
      const e1 = problem.firstStart[j]!;
      const l1 = problem.lastEnd[j]!;
      const delta = d1 + t;
      const wait = Math.max(bE[p + 1]! - delta - l1, 0);
      const warp = Math.max(e1 + delta - bL[p + 1]!, 0);
      bD[p] = d1 + bD[p + 1]! + t + wait;
      bTW[p] = bTW[p + 1]! + warp;
      bE[p] = Math.max(bE[p + 1]! - delta, e1) - wait;
      bL[p] = Math.min(bL[p + 1]! - delta, l1) + warp;
      bC[p] = bC[p + 1]! + this.cost[place * this.places + next]!;
      next = place;
    }
  }

  private startAtDepot(v: number) {
    this.aD = 0;
    this.aTW = 0;
    this.aE = this.problem.vehicleStart[v]!;
    this.aL = this.problem.vehicleEnd[v]!;
    this.aC = 0;
    this.aQ = 0;
    this.aLast = this.problem.startPlace[v]!;
    this.aCount = 0;
  }

  /** The accumulator := route r's start up to position p. */
  private startPrefix(r: number, p: number) {
    this.aD = this.fD[r]![p]!;
    this.aTW = this.fTW[r]![p]!;
    this.aE = this.fE[r]![p]!;
    this.aL = this.fL[r]![p]!;
    this.aC = this.fC[r]![p]!;
    this.aQ = this.fQ[r]![p]!;
    this.aLast = this.placeAt(r, p);
    this.aCount = p;
  }

  private concat(place: number, d2: number, tw2: number, e2: number, l2: number) {
    const t = this.dur[this.aLast * this.places + place]!;
    const delta = this.aD - this.aTW + t;
    const wait = Math.max(e2 - delta - this.aL, 0);
    const warp = Math.max(this.aE + delta - l2, 0);
    this.aD = this.aD + d2 + t + wait;
    this.aTW = this.aTW + tw2 + warp;
    this.aE = Math.max(e2 - delta, this.aE) - wait;
    this.aL = Math.min(l2 - delta, this.aL) + warp;
    this.aC += this.cost[this.aLast * this.places + place]!;
  }

  private appendJob(j: number) {
    const problem = this.problem;
    const place = problem.jobPlace[j]!;
    this.concat(place, problem.service[j]!, 0, problem.firstStart[j]!, problem.lastEnd[j]!);
    this.aLast = place;
    this.aQ += this.demand(j);
    this.aCount++;
  }

  /** Appends route r from position p (a job, or k + 1 for the end alone) to its end. */
  private appendSuffix(r: number, p: number) {
    const k = this.len[r]!;
    const place = this.placeAt(r, p);
    this.concat(place, this.bD[r]![p]!, this.bTW[r]![p]!, this.bE[r]![p]!, this.bL[r]![p]!);
    this.aC += this.bC[r]![p]!;
    this.aQ += this.fQ[r]![k]! - this.fQ[r]![p - 1]!;
    this.aCount += k + 1 - p;
  }

  /** Penalised cost of the accumulator (a whole route); Infinity past max_tasks. */
  private priced(): number {
    if (this.aCount > this.maxTasks) return Number.POSITIVE_INFINITY;
    const excess = Math.max(0, this.aQ - this.capacity);
    return this.aC + this.timePenalty * this.aTW + this.loadPenalty * excess;
  }

  private routePrice(r: number): number {
    const k = this.len[r]!;
    const excess = Math.max(0, this.fQ[r]![k]! - this.capacity);
    return this.fC[r]![k + 1]! + this.timePenalty * this.fTW[r]![k + 1]! + this.loadPenalty * excess;
  }

  private timeWarpOf(r: number): number {
    return this.fTW[r]![this.len[r]! + 1]!;
  }

  /** Total time warp and excess load of the loaded routes. */
  violation(): { timeWarp: number; excessLoad: number } {
    let timeWarp = 0;
    let excessLoad = 0;
    for (let r = 0; r < this.problem.vehicleCount; r++) {
      if (this.len[r] === 0) continue;
      timeWarp += this.timeWarpOf(r);
      excessLoad += Math.max(0, this.fQ[r]![this.len[r]!]! - this.capacity);
    }
    return { timeWarp, excessLoad };
  }

  travelCost(): number {
    let total = 0;
    for (let r = 0; r < this.problem.vehicleCount; r++) if (this.len[r]! > 0) total += this.fC[r]![this.len[r]! + 1]!;
    return total;
  }

  /**
   * Makes every route feasible by taking jobs out: from each route with time warp or excess load,
   * the job whose removal lowers its penalised price most, until none is left. Returns how many
   * jobs came out (listed in `ejected`); the caller puts them back with a feasible recreate.
   */
  eject(): number {
    let count = 0;
    for (let r = 0; r < this.problem.vehicleCount; r++) {
      for (;;) {
        const k = this.len[r]!;
        if (k === 0) break;
        if (this.fTW[r]![k + 1]! <= 0 && this.fQ[r]![k]! <= this.capacity) break;
        let bestPos = 1;
        let bestPrice = Number.POSITIVE_INFINITY;
        for (let p = 1; p <= k; p++) {
          this.startPrefix(r, p - 1);
          this.appendSuffix(r, p + 1);
          const price = this.aC + 1e6 * this.aTW + 1e6 * Math.max(0, this.aQ - this.capacity);
          if (price < bestPrice) {
            bestPrice = price;
            bestPos = p;
          }
        }
        this.ejected[this.ejectedCount++] = this.seq[r]![bestPos]!;
        count++;
        this.routeOf[this.seq[r]![bestPos]!] = -1;
        let c = this.copyRange(r, 1, bestPos - 1, 0);
        c = this.copyRange(r, bestPos + 1, k, c);
        this.setRoute(r, c);
      }
    }
    return count;
  }

  /** Replaces route r's jobs by scratch[0..count). */
  private setRoute(r: number, count: number) {
    this.reserve(r, count);
    const s = this.seq[r]!;
    for (let i = 0; i < count; i++) s[i + 1] = this.scratch[i]!;
    this.len[r] = count;
    this.dirty[r] = 1;
    this.rebuild(r);
  }

  /** Copies route r's positions from..to (inclusive; none when from > to) into scratch at `at`. */
  private copyRange(r: number, from: number, to: number, at: number): number {
    const s = this.seq[r]!;
    for (let p = from; p <= to; p++) this.scratch[at++] = s[p]!;
    return at;
  }

  /** First-improvement descent until no move improves, or the deadline. */
  descend(deadline: number, only?: Uint8Array): number {
    const n = this.n;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const r = this.routeOf[i]!;
      if (r >= 0 && (only === undefined || only[r] === 1)) this.order[count++] = i;
    }
    let moves = 0;
    let improved = true;
    let loops = 0;
    while (improved) {
      improved = false;
      if (++loops > 1 && performance.now() > deadline) break;
      for (let i = count - 1; i > 0; i--) {
        const k = this.random.int(i + 1);
        const t = this.order[i]!;
        this.order[i] = this.order[k]!;
        this.order[k] = t;
      }
      for (let i = 0; i < count; i++) {
        const u = this.order[i]!;
        if (this.routeOf[u]! < 0) continue;
        if (this.moveJob(u)) {
          moves++;
          improved = true;
        }
      }
    }
    return moves;
  }

  /** Tries u's moves with each of its neighbours; applies the first that improves. */
  private moveJob(u: number): boolean {
    const problem = this.problem;
    const base = (problem.neighbourGroup[0]! * this.n + u) * problem.neighbourCount;
    for (let g = 0; g < this.granularity; g++) {
      const v = problem.neighbours[base + g]!;
      if (v < 0) break;
      const rv = this.routeOf[v]!;
      if (rv < 0) continue;
      const ru = this.routeOf[u]!;
      if (ru !== rv) {
        if (this.relocate(u, v, true) || this.relocate(u, v, false) || this.swap(u, v) || this.twoOptStar(u, v)) {
          return true;
        }
      } else if (this.withinRelocate(u, v) || this.twoOpt(u, v)) {
        return true;
      }
    }
    return false;
  }

  /** u moved next to v (after it, or before it), in v's route. */
  private relocate(u: number, v: number, after: boolean): boolean {
    const ru = this.routeOf[u]!;
    const pu = this.posOf[u]!;
    const rv = this.routeOf[v]!;
    const pv = this.posOf[v]!;
    const old = this.routePrice(ru) + this.routePrice(rv);
    const at = after ? pv : pv - 1;
    this.startPrefix(ru, pu - 1);
    this.appendSuffix(ru, pu + 1);
    const priceU = this.len[ru] === 1 ? 0 : this.priced();
    if (priceU >= old) return false;
    this.startPrefix(rv, at);
    this.appendJob(u);
    this.appendSuffix(rv, at + 1);
    const priceV = this.priced();
    if (priceU + priceV >= old - improvement) return false;
    let c = this.copyRange(rv, 1, at, 0);
    this.scratch[c++] = u;
    c = this.copyRange(rv, at + 1, this.len[rv]!, c);
    const removedCount = this.len[ru]! - 1;
    this.setRoute(rv, c);
    c = this.copyRange(ru, 1, pu - 1, 0);
    c = this.copyRange(ru, pu + 1, this.len[ru]!, c);
    this.setRoute(ru, removedCount);
    return true;
  }

  private swap(u: number, v: number): boolean {
    const ru = this.routeOf[u]!;
    const pu = this.posOf[u]!;
    const rv = this.routeOf[v]!;
    const pv = this.posOf[v]!;
    const old = this.routePrice(ru) + this.routePrice(rv);
    this.startPrefix(ru, pu - 1);
    this.appendJob(v);
    this.appendSuffix(ru, pu + 1);
    const priceU = this.priced();
    if (priceU >= old) return false;
    this.startPrefix(rv, pv - 1);
    this.appendJob(u);
    this.appendSuffix(rv, pv + 1);
    if (priceU + this.priced() >= old - improvement) return false;
    this.seq[ru]![pu] = v;
    this.seq[rv]![pv] = u;
    this.dirty[ru] = 1;
    this.dirty[rv] = 1;
    this.rebuild(ru);
    this.rebuild(rv);
    return true;
  }

  /** u's route continues with v and what follows it; v's route takes what followed u. */
  private twoOptStar(u: number, v: number): boolean {
    const ru = this.routeOf[u]!;
    const pu = this.posOf[u]!;
    const rv = this.routeOf[v]!;
    const pv = this.posOf[v]!;
    const old = this.routePrice(ru) + this.routePrice(rv);
    this.startPrefix(ru, pu);
    this.appendSuffix(rv, pv);
    const priceU = this.priced();
    if (priceU >= old) return false;
    this.startPrefix(rv, pv - 1);
    this.appendSuffix(ru, pu + 1);
    const priceV = pv === 1 && pu === this.len[ru] ? 0 : this.priced();
    if (priceU + priceV >= old - improvement) return false;
    const lenU = this.len[ru]!;
    const lenV = this.len[rv]!;
    let c = this.copyRange(ru, 1, pu, 0);
    c = this.copyRange(rv, pv, lenV, c);
    const tail = new Int32Array(lenU - pu);
    for (let p = pu + 1; p <= lenU; p++) tail[p - pu - 1] = this.seq[ru]![p]!;
    this.setRoute(ru, c);
    c = this.copyRange(rv, 1, pv - 1, 0);
    for (let i = 0; i < tail.length; i++) this.scratch[c++] = tail[i]!;
    this.setRoute(rv, c);
    return true;
  }

  /** Within one route: u moved right after v. */
  private withinRelocate(u: number, v: number): boolean {
    const r = this.routeOf[u]!;
    const pu = this.posOf[u]!;
    const pv = this.posOf[v]!;
    if (pv === pu - 1) return false;
    const old = this.routePrice(r);
    const s = this.seq[r]!;
    if (pu < pv) {
      this.startPrefix(r, pu - 1);
      for (let p = pu + 1; p <= pv; p++) this.appendJob(s[p]!);
      this.appendJob(u);
      this.appendSuffix(r, pv + 1);
    } else {
      this.startPrefix(r, pv);
      this.appendJob(u);
      for (let p = pv + 1; p < pu; p++) this.appendJob(s[p]!);
      this.appendSuffix(r, pu + 1);
    }
    if (this.priced() >= old - improvement) return false;
    let c = 0;
    if (pu < pv) {
      c = this.copyRange(r, 1, pu - 1, c);
      c = this.copyRange(r, pu + 1, pv, c);
      this.scratch[c++] = u;
      c = this.copyRange(r, pv + 1, this.len[r]!, c);
    } else {
      c = this.copyRange(r, 1, pv, c);
      this.scratch[c++] = u;
      c = this.copyRange(r, pv + 1, pu - 1, c);
      c = this.copyRange(r, pu + 1, this.len[r]!, c);
    }
    this.setRoute(r, c);
    return true;
  }

  /** Within one route: u followed by v, the stretch between reversed (2-opt). */
  private twoOpt(u: number, v: number): boolean {
    const r = this.routeOf[u]!;
    const pu = this.posOf[u]!;
    const pv = this.posOf[v]!;
    if (pv <= pu + 1) return false;
    const old = this.routePrice(r);
    const s = this.seq[r]!;
    this.startPrefix(r, pu);
    for (let p = pv; p > pu; p--) this.appendJob(s[p]!);
    this.appendSuffix(r, pv + 1);
    if (this.priced() >= old - improvement) return false;
    let c = this.copyRange(r, 1, pu, 0);
    for (let p = pv; p > pu; p--) this.scratch[c++] = s[p]!;
    c = this.copyRange(r, pv + 1, this.len[r]!, c);
    this.setRoute(r, c);
    return true;
  }
}
