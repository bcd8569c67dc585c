/**
 * A solution: one route per vehicle (empty routes are unused vehicles) and the set of unassigned
 * jobs. The objective is VROOM's, compared lexicographically: first the priority left unassigned
 * (less is better), then the number of unassigned jobs, then cost (fixed costs of the vehicles
 * used plus travel costs).
 *
 * The search keeps several solutions (current, candidate, best) and copies between them often;
 * `copyFrom` only copies the routes whose version differs, so an iteration that touched three
 * routes costs three route copies, whatever the fleet.
 */
import type { Problem } from './problem.ts';
import { Route } from './route.ts';

export class Solution {
  readonly problem: Problem;
  readonly routes: Route[];
  /** Vehicle of each job, -1 when unassigned. */
  readonly jobRoute: Int32Array;
  readonly jobPos: Int32Array;
  /** Unassigned jobs as a list with each job's index in it (-1 when assigned). */
  readonly unassigned: Int32Array;
  unassignedCount = 0;
  private readonly unassignedIndex: Int32Array;

  constructor(problem: Problem) {
    this.problem = problem;
    const n = problem.jobCount;
    this.jobRoute = new Int32Array(n).fill(-1);
    this.jobPos = new Int32Array(n).fill(-1);
    this.unassigned = new Int32Array(n);
    this.unassignedIndex = new Int32Array(n).fill(-1);
    this.routes = [];
    for (let v = 0; v < problem.vehicleCount; v++) {
      this.routes.push(new Route(problem, v, this.jobRoute, this.jobPos));
    }
    for (let j = 0; j < n; j++) this.markUnassigned(j);
  }

  /** Empties every route: every job unassigned. */
  reset() {
    for (const route of this.routes) route.clear();
    for (let j = 0; j < this.problem.jobCount; j++) this.markUnassigned(j);
  }

  markUnassigned(j: number) {
    if (this.unassignedIndex[j]! >= 0) return;
    this.unassignedIndex[j] = this.unassignedCount;
    this.unassigned[this.unassignedCount++] = j;
  }

  markAssigned(j: number) {
    const index = this.unassignedIndex[j]!;
    if (index < 0) return;
    const last = this.unassigned[--this.unassignedCount]!;
    this.unassigned[index] = last;
    this.unassignedIndex[last] = index;
    this.unassignedIndex[j] = -1;
  }

  isUnassigned(j: number): boolean {
    return this.unassignedIndex[j]! >= 0;
  }

  /** Puts job j after position p of route r and refreshes the route. */
  insert(j: number, r: number, p: number) {
    const route = this.routes[r]!;
    route.insertAfter(p, j);
    route.refresh();
    this.markAssigned(j);
  }

  /** Takes job j out of its route, without refreshing it (call route.refresh() after a batch). */
  detach(j: number) {
    const r = this.jobRoute[j]!;
    if (r < 0) return;
    const route = this.routes[r]!;
    const p = this.jobPos[j]!;
    route.removeAt(p);
    // Positions after p shift left until the route is refreshed.
    const n = this.problem.jobCount;
    for (let i = p; i < route.len - 1; i++) {
      const other = route.node[i]!;
      if (other < n) this.jobPos[other] = i;
    }
    this.markUnassigned(j);
  }

  get cost(): number {
    let total = 0;
    for (const route of this.routes) total += route.cost;
    return total;
  }

  get usedVehicles(): number {
    let used = 0;
    for (const route of this.routes) if (route.jobs > 0) used++;
    return used;
  }

  get unassignedPriority(): number {
    let total = 0;
    for (let i = 0; i < this.unassignedCount; i++) total += this.problem.jobPriority[this.unassigned[i]!]!;
    return total;
  }

  /** Negative when this solution is better than `other` in VROOM's lexicographic objective. */
  compare(other: Solution): number {
    return (
      this.unassignedPriority - other.unassignedPriority ||
      this.unassignedCount - other.unassignedCount ||
      this.cost - other.cost
    );
  }

  copyFrom(other: Solution) {
    const routes = this.routes;
    const n = this.problem.jobCount;
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r]!;
      if (route.version === other.routes[r]!.version) continue;
      for (let i = 1; i < route.len - 1; i++) {
        const j = route.node[i]!;
        if (j < n && this.jobRoute[j] === r) this.jobRoute[j] = -1;
      }
    }
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r]!;
      if (route.version !== other.routes[r]!.version) route.copyFrom(other.routes[r]!);
    }
    for (let i = 0; i < this.unassignedCount; i++) this.unassignedIndex[this.unassigned[i]!] = -1;
    this.unassignedCount = other.unassignedCount;
    for (let i = 0; i < other.unassignedCount; i++) {
      const j = other.unassigned[i]!;
      this.unassigned[i] = j;
      this.unassignedIndex[j] = i;
    }
  }

  clone(): Solution {
    const copy = new Solution(this.problem);
    for (let r = 0; r < copy.routes.length; r++) copy.routes[r]!.version = -1;
    copy.copyFrom(this);
    return copy;
  }
}
