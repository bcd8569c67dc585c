/**
 * Local search: first-improvement descent over the classic VRPTW neighbourhoods, restricted to
 * the routes the last ruin and recreate touched (and whatever the moves then touch) and to each
 * job's nearest neighbours (granular search, as in HGS and PyVRP).
 *
 * Between routes: relocate a job next to a neighbour (after or before it), swap two jobs, and
 * 2-opt* (exchange the tails of two routes, joining a job to its neighbour). Within a route
 * (within-route.ts): 2-opt (reverse a segment) and or-opt (move a segment of 1 to 3 jobs, possibly
 * reversed, next to a neighbour of its ends). What the descent already knows to be a local optimum
 * it does not look at again (descent-memo.ts).
 *
 * Every move is priced first from the cumulative costs (cc, and cr for reversals) in O(1); only
 * an improving move is checked for feasibility: relocate and swap through the route's O(1)
 * primitives, 2-opt* by joining the prefix's earliest departure with the tail's latest start,
 * and intra-route moves by re-timing only the stretch that changes and joining the unchanged
 * suffix through its latest start. Moves that would carry a break between vehicles or across
 * other stops are left to ruin and recreate: intra-route moves and 2-opt* run on routes without
 * breaks only, relocate and swap run everywhere.
 */

import { ContentHashes, JobMemo, RouteMemo } from './descent-memo.ts';
import type { Problem } from './problem.ts';
import type { Route } from './route.ts';
import type { Solution } from './solution.ts';
import { WithinRoute } from './within-route.ts';

const improvement = 1e-7;

export class LocalSearch {
  readonly problem: Problem;
  readonly granularity: number;
  /** Routes to look at in the next round. */
  readonly queued: Uint8Array;
  private readonly jobs: Int32Array;
  private readonly sequenceA: Int32Array;
  private readonly sequenceB: Int32Array;
  /** Whether vehicles a and b may exchange route tails (same end, hours and matrices). */
  private readonly tailsMatch: Uint8Array;
  /** Routes no 2-opt or or-opt move improves, and jobs no move between routes does (descent-memo.ts). */
  private readonly optimalRoutes: RouteMemo;
  private readonly optimalJobs: JobMemo;
  private readonly withinRoute: WithinRoute;
  moves = 0;

  constructor(problem: Problem, granularity = 20) {
    this.problem = problem;
    this.granularity = Math.min(granularity, problem.neighbourCount);
    const m = problem.vehicleCount;
    this.queued = new Uint8Array(m);
    this.jobs = new Int32Array(problem.jobCount);
    this.sequenceA = new Int32Array(problem.jobCount + 2);
    this.sequenceB = new Int32Array(problem.jobCount + 2);
    this.tailsMatch = new Uint8Array(m * m);
    const hashes = new ContentHashes(m);
    this.optimalRoutes = new RouteMemo(hashes);
    this.optimalJobs = new JobMemo(hashes);
    this.withinRoute = new WithinRoute(problem, this.granularity);
    for (let a = 0; a < m; a++) {
      for (let b = 0; b < m; b++) {
        const same =
          problem.endPlace[a] === problem.endPlace[b] &&
          problem.vehicleEnd[a] === problem.vehicleEnd[b] &&
          problem.durationMatrix[a] === problem.durationMatrix[b] &&
          problem.costMatrix[a] === problem.costMatrix[b] &&
          problem.breakOffset[a + 1]! - problem.breakOffset[a]! === 0 &&
          problem.breakOffset[b + 1]! - problem.breakOffset[b]! === 0;
        this.tailsMatch[a * m + b] = same ? 1 : 0;
      }
    }
  }

  /**
   * Descends from `solution`, starting with the queued routes; returns the moves made. Stops at
   * `deadline` (performance.now() time) between rounds: every move leaves a feasible solution.
   */
  improve(solution: Solution, deadline = Number.POSITIVE_INFINITY): number {
    const before = this.moves;
    const routes = solution.routes;
    const n = this.problem.jobCount;
    for (let round = 0; round < 1000 && performance.now() < deadline; round++) {
      let count = 0;
      let any = false;
      for (let r = 0; r < routes.length; r++) {
        if (this.queued[r] === 0) continue;
        const route = routes[r]!;
        if (route.jobs > 1 && route.breakTotal === 0) this.intraRoute(route);
        for (let p = 1; p < route.len - 1; p++) if (route.node[p]! < n) this.jobs[count++] = route.node[p]!;
        this.queued[r] = 0;
        any = true;
      }
      if (!any) break;
      for (let k = 0; k < count; k++) {
        const u = this.jobs[k]!;
        if (solution.jobRoute[u]! >= 0) this.interRoute(solution, u);
      }
    }
    return this.moves - before;
  }

  private touch(route: Route) {
    this.queued[route.vehicle] = 1;
  }

  // ---- between routes ----

  private interRoute(solution: Solution, u: number) {
    const problem = this.problem;
    const neighbours = problem.neighbours;
    const memo = this.optimalJobs;
    const lists = () =>
      (problem.neighbourGroup[solution.routes[solution.jobRoute[u]!]!.vehicle]! * problem.jobCount + u) *
      problem.neighbourCount;
    if (memo.has(solution, u, neighbours, lists(), this.granularity)) return;
    while (this.interRouteMove(solution, u)) {
      // Moved: look again from u's new place.
    }
    memo.add(solution, u, neighbours, lists(), this.granularity);
  }

  private interRouteMove(solution: Solution, u: number): boolean {
    const problem = this.problem;
    const n = problem.jobCount;
    const neighbours = problem.neighbours;
    const count = problem.neighbourCount;
    const base = (problem.neighbourGroup[solution.routes[solution.jobRoute[u]!]!.vehicle]! * n + u) * count;
    for (let k = 0; k < this.granularity; k++) {
      const v = neighbours[base + k]!;
      const rb = solution.jobRoute[v]!;
      const ra = solution.jobRoute[u]!;
      if (rb < 0 || ra < 0 || ra === rb) continue;
      const A = solution.routes[ra]!;
      const B = solution.routes[rb]!;
      const i = solution.jobPos[u]!;
      const j = solution.jobPos[v]!;
      const compatibleUB = problem.compatible[B.vehicle * n + u] === 1;
      if (compatibleUB && this.relocate(A, i, B, j)) return true;
      if (compatibleUB && problem.compatible[A.vehicle * n + v] === 1 && this.swap(A, i, B, j)) return true;
      if (this.tailsMatch[A.vehicle * problem.vehicleCount + B.vehicle] === 1) {
        // u then v: A[..u] + B[v..], B[..before v] + A[after u..]; and v then u.
        if (this.tailSwap(A, i, B, j - 1) || this.tailSwap(B, j, A, i - 1)) return true;
      }
    }
    return false;
  }

  /** Moves the job at A[i] next to B[j] (after, else before) when that lowers the cost. */
  private relocate(A: Route, i: number, B: Route, j: number): boolean {
    const problem = this.problem;
    const u = A.node[i]!;
    if (B.jobs >= problem.maxTasks[B.vehicle]! || !B.fitsTotal(u)) return false;
    const removal = A.jobs === 1 ? -A.cost : A.removalDelta(i);
    if (removal === Number.POSITIVE_INFINITY) return false;
    let bestDelta = -improvement;
    let bestPosition = -1;
    for (let side = 0; side < 2; side++) {
      const p = side === 0 ? j : j - 1;
      const delta = removal + B.insertionDelta(u, p);
      if (delta < bestDelta) {
        bestDelta = delta;
        bestPosition = p;
      }
    }
    if (bestPosition < 0) return false;
    A.removeAt(i);
    B.insertAfter(bestPosition, u);
    A.refresh();
    B.refresh();
    this.touch(A);
    this.touch(B);
    this.moves++;
    return true;
  }

  /** Exchanges the jobs at A[i] and B[j] when that lowers the cost. */
  private swap(A: Route, i: number, B: Route, j: number): boolean {
    const problem = this.problem;
    if (problem.hasPickups) return false;
    const u = A.node[i]!;
    const v = B.node[j]!;
    const dims = problem.dimensions;
    for (let k = 0; k < dims; k++) {
      const du = problem.delivery[u * dims + k]!;
      const dv = problem.delivery[v * dims + k]!;
      if (A.deliveryTotal[k]! - du + dv > problem.capacity[A.vehicle * dims + k]!) return false;
      if (B.deliveryTotal[k]! - dv + du > problem.capacity[B.vehicle * dims + k]!) return false;
    }
    const deltaA = A.replacementDelta(i, v);
    if (deltaA === Number.POSITIVE_INFINITY) return false;
    const deltaB = B.replacementDelta(j, u);
    if (!(deltaA + deltaB < -improvement)) return false;
    A.node[i] = v;
    B.node[j] = u;
    A.refresh();
    B.refresh();
    this.touch(A);
    this.touch(B);
    this.moves++;
    return true;
  }

  /**
   * 2-opt*: A becomes A[0..i] + B[j+1..], B becomes B[0..j] + A[i+1..], when that lowers the
   * cost. Both routes are break-free and end alike (checked by the caller), so each tail's latest
   * starts hold in the other route too.
   */
  private tailSwap(A: Route, i: number, B: Route, j: number): boolean {
    const problem = this.problem;
    if (i < 0 || j < 0 || i > A.len - 2 || j > B.len - 2) return false;
    if (i === A.len - 2 && j === B.len - 2) return false;
    if (i === 0 && j === 0) return false;
    const size = A.placeCount;
    const costs = A.costs;
    const lastA = A.len - 1;
    const lastB = B.len - 1;
    const jobsA = i + (lastB - 1 - j);
    const jobsB = j + (lastA - 1 - i);
    const travelA = A.cc[i]! + costs[A.place[i]! * size + B.place[j + 1]!]! + B.cc[lastB]! - B.cc[j + 1]!;
    const travelB = B.cc[j]! + costs[B.place[j]! * size + A.place[i + 1]!]! + A.cc[lastA]! - A.cc[i + 1]!;
    const newCost =
      (jobsA > 0 ? travelA + problem.fixedCost[A.vehicle]! : 0) +
      (jobsB > 0 ? travelB + problem.fixedCost[B.vehicle]! : 0);
    if (!(newCost - A.cost - B.cost < -improvement)) return false;
    // The start legs use each route's own start place, so re-time the joints.
    const durations = A.durations;
    if (A.D[i]! + durations[A.place[i]! * size + B.place[j + 1]!]! > B.L[j + 1]!) return false;
    if (B.D[j]! + durations[B.place[j]! * size + A.place[i + 1]!]! > A.L[i + 1]!) return false;
    if (jobsA > problem.maxTasks[A.vehicle]! || jobsB > problem.maxTasks[B.vehicle]!) return false;
    if (!this.tailLoadsFit(A, i, B, j) || !this.tailLoadsFit(B, j, A, i)) return false;
    const n = problem.jobCount;
    if (problem.vehicleClass[A.vehicle] !== problem.vehicleClass[B.vehicle]) {
      for (let p = j + 1; p < lastB; p++)
        if (problem.compatible[A.vehicle * n + B.node[p]!] === 0) return false;
      for (let p = i + 1; p < lastA; p++)
        if (problem.compatible[B.vehicle * n + A.node[p]!] === 0) return false;
    }
    let countA = 0;
    let countB = 0;
    for (let p = 1; p <= i; p++) this.sequenceA[countA++] = A.node[p]!;
    for (let p = j + 1; p < lastB; p++) this.sequenceA[countA++] = B.node[p]!;
    for (let p = 1; p <= j; p++) this.sequenceB[countB++] = B.node[p]!;
    for (let p = i + 1; p < lastA; p++) this.sequenceB[countB++] = A.node[p]!;
    A.setNodes(this.sequenceA, countA);
    B.setNodes(this.sequenceB, countB);
    A.refresh();
    B.refresh();
    this.touch(A);
    this.touch(B);
    this.moves++;
    return true;
  }

  /** Loads of A[0..i] + B[j+1..] within A's capacity. */
  private tailLoadsFit(A: Route, i: number, B: Route, j: number): boolean {
    const problem = this.problem;
    const dims = problem.dimensions;
    const base = A.vehicle * dims;
    const lastB = B.len - 1;
    for (let k = 0; k < dims; k++) {
      const cap = problem.capacity[base + k]!;
      const deliveredA = A.deliveredBefore[i * dims + k]!;
      const tailDeliveryB = B.deliveredBefore[lastB * dims + k]! - B.deliveredBefore[j * dims + k]!;
      const pickedA = A.pickedBefore[i * dims + k]!;
      const tailPickupB = B.pickedBefore[lastB * dims + k]! - B.pickedBefore[j * dims + k]!;
      if (deliveredA + tailDeliveryB > cap || pickedA + tailPickupB > cap) return false;
      if (problem.hasPickups) {
        // Load at A's prefix: its own load minus A's tail deliveries plus B's; in B's tail: its
        // own load minus B's prefix pickups plus A's.
        const tailDeliveryA = A.deliveryTotal[k]! - deliveredA;
        if (A.prefixMax[i * dims + k]! - tailDeliveryA + tailDeliveryB > cap) return false;
        const pickedB = B.pickedBefore[j * dims + k]!;
        if (B.suffixMax[(j + 1) * dims + k]! - pickedB + pickedA > cap) return false;
      }
    }
    return true;
  }

  // ---- within a route (break-free routes) ----

  /**
   * Passes of 2-opt then or-opt until neither improves. A pass goes on after each move it makes
   * rather than starting over (the route's length does not change), so a route that needs k moves
   * costs about a pass per round, not k passes.
   */
  private intraRoute(route: Route) {
    if (this.optimalRoutes.has(route)) return;
    for (let guard = 0; guard < 1000; guard++) {
      const moved = this.withinRoute.twoOpt(route) + this.withinRoute.orOpt(route);
      if (moved === 0) break;
      this.touch(route);
      this.moves += moved;
    }
    this.optimalRoutes.add(route);
  }
}
