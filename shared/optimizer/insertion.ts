/**
 * Cheapest insertion of one job over every route and position, the building block of the
 * construction and of every recreate step.
 *
 * Per route, the checks that do not depend on the position (skills, max_tasks, total capacity)
 * come first; positions are then narrowed by the monotone time data of the route: L never
 * decreases along a route, so a binary search finds the first position whose successor could
 * still be reached after the job's earliest possible departure, and the scan stops at the first
 * position whose departure is already after the job's last window. Empty vehicles are tried once
 * per vehicle class (identical vehicles would only repeat the same answer).
 *
 * Blinks (SISR): each evaluated position is skipped with a small probability, drawn as a
 * geometric gap so that skipping costs one random number per skip, not one per position.
 */
import type { Random } from './random.ts';
import type { Solution } from './solution.ts';

export class InsertionSearch {
  bestRoute = -1;
  bestPosition = -1;
  bestDelta = Number.POSITIVE_INFINITY;
  /** Empty vehicles may be opened while fewer routes than this are in use (the fleet target while minimising it). */
  maxRoutes = Number.POSITIVE_INFINITY;
  /**
   * Granular search: when above 0, a job is tried only in the routes that hold one of its
   * `granularity` nearest jobs, and in one empty vehicle of each class; every route when that
   * finds no place or only an empty vehicle. An insertion then costs about the same whatever the
   * fleet's size.
   */
  granularity = 0;
  private readonly classSeen: Int32Array;
  private routeNear: Int32Array = new Int32Array(0);
  private stamp = 0;
  private blinkRate = 0;
  private untilBlink = 0x7fffffff;
  private random: Random | undefined;

  constructor(vehicleClasses: number) {
    this.classSeen = new Int32Array(vehicleClasses + 1);
  }

  setBlinks(rate: number, random: Random | undefined) {
    this.blinkRate = rate;
    this.random = random;
    this.untilBlink = this.drawGap();
  }

  private drawGap(): number {
    if (this.blinkRate <= 0 || !this.random) return 0x7fffffff;
    return 1 + Math.floor(Math.log(1 - this.random.float()) / Math.log(1 - this.blinkRate));
  }

  /** Finds the cheapest feasible position of job u; false when there is none. */
  find(solution: Solution, u: number): boolean {
    // Opening a vehicle while a route farther away could take the job is seldom the cheapest
    // (with fixed costs, never): then every route is tried.
    if (this.granularity > 0 && solution.routes.length > 1) {
      if (this.search(solution, u, this.markNear(solution, u)) && solution.routes[this.bestRoute]!.jobs > 0)
        return true;
    }
    return this.search(solution, u, -1);
  }

  /** Stamps the routes holding u's nearest jobs; returns the stamp. */
  private markNear(solution: Solution, u: number): number {
    const problem = solution.problem;
    if (this.routeNear.length !== solution.routes.length)
      this.routeNear = new Int32Array(solution.routes.length);
    const stamp = ++this.stamp;
    const count = problem.neighbourCount;
    const base = (problem.jobNeighbourGroup[u]! * problem.jobCount + u) * count;
    const limit = Math.min(this.granularity, count);
    for (let k = 0; k < limit; k++) {
      const r = solution.jobRoute[problem.neighbours[base + k]!]!;
      if (r >= 0) this.routeNear[r] = stamp;
    }
    return stamp;
  }

  /** The cheapest position over every route, or (near ≥ 0) over the stamped and empty ones. */
  private search(solution: Solution, u: number, near: number): boolean {
    const problem = solution.problem;
    const n = problem.jobCount;
    const compatible = problem.compatible;
    const firstStart = problem.firstStart[u]!;
    const threshold = firstStart + problem.service[u]!;
    const lastEnd = problem.lastEnd[u]!;
    const stamp = ++this.stamp;
    let best = Number.POSITIVE_INFINITY;
    let bestRoute = -1;
    let bestPosition = -1;
    const routes = solution.routes;
    let allowEmpty = true;
    if (this.maxRoutes < routes.length) {
      let used = 0;
      for (let r = 0; r < routes.length; r++) if (routes[r]!.jobs > 0) used++;
      allowEmpty = used < this.maxRoutes;
    }
    const routeNear = this.routeNear;
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r]!;
      if (near >= 0 && route.jobs > 0 && routeNear[r] !== near) continue;
      const v = route.vehicle;
      if (compatible[v * n + u] === 0) continue;
      if (route.jobs >= problem.maxTasks[v]!) continue;
      if (route.jobs === 0) {
        if (!allowEmpty) continue;
        const cls = problem.vehicleClass[v]!;
        if (this.classSeen[cls] === stamp) continue;
        this.classSeen[cls] = stamp;
      }
      if (!route.fitsTotal(u)) continue;
      const extra = route.openingCost;
      if (extra >= best) continue;
      const L = route.L;
      const D = route.D;
      const lastPosition = route.len - 2;
      // First p with L[p + 1] >= threshold.
      let lo = 0;
      let hi = lastPosition + 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (L[mid + 1]! < threshold) lo = mid + 1;
        else hi = mid;
      }
      for (let p = lo; p <= lastPosition; p++) {
        if (D[p]! > lastEnd) break;
        if (--this.untilBlink <= 0) {
          this.untilBlink = this.drawGap();
          continue;
        }
        // Only a position cheaper than the best so far needs its times checked.
        const delta = route.insertionDelta(u, p, best - extra) + extra;
        if (delta < best) {
          best = delta;
          bestRoute = r;
          bestPosition = p;
        }
      }
    }
    this.bestDelta = best;
    this.bestRoute = bestRoute;
    this.bestPosition = bestPosition;
    return bestRoute >= 0;
  }
}

/** Inserts jobs[0..count) one by one at their cheapest position; returns how many found none. */
export function insertAll(
  solution: Solution,
  search: InsertionSearch,
  jobs: Int32Array,
  count: number,
): number {
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const u = jobs[i]!;
    if (search.find(solution, u)) solution.insert(u, search.bestRoute, search.bestPosition);
    else failed++;
  }
  return failed;
}
