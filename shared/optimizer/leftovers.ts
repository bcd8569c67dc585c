/**
 * The last pass over the jobs left unassigned, after the search.
 *
 * First every unassigned job, the "impossible" ones included, goes back at its cheapest feasible
 * position, by priority, in plain insertions (no blinks): blinks may have hidden a job's last free
 * position, and with a travel matrix that breaks the triangle inequality a job no vehicle reaches
 * in time on its own may still fit after another stop.
 *
 * Then a job still out may take the place of a less important one (VROOM's objective puts the
 * priority left out first): the served job with the lowest priority whose place fits it, the
 * cheapest such place on a tie, and the job it displaces is offered every free position. Each
 * exchange lowers the priority left out, so the pass ends; afterwards no unassigned job fits
 * anywhere as the solution stands, nor in the place of a less important job.
 */
import { vehicleClassCount } from './construction.ts';
import { InsertionSearch } from './insertion.ts';
import type { Problem } from './problem.ts';
import type { Solution } from './solution.ts';

/**
 * `deadline` (performance.now() time) ends the exchanges early: the plain insertions always run,
 * they are one cheapest-insertion search per job left out.
 */
export function placeLeftovers(problem: Problem, solution: Solution, deadline = Number.POSITIVE_INFINITY) {
  const search = new InsertionSearch(vehicleClassCount(problem));
  const priority = problem.jobPriority;
  const byPriority = (a: number, b: number) => priority[b]! - priority[a]! || a - b;
  for (let pass = 0; pass < 2 * problem.jobCount + 2; pass++) {
    const jobs = Int32Array.from(solution.unassigned.subarray(0, solution.unassignedCount)).sort(byPriority);
    for (const j of jobs) {
      if (solution.isUnassigned(j) && search.find(solution, j))
        solution.insert(j, search.bestRoute, search.bestPosition);
    }
    let exchanged = false;
    if (performance.now() >= deadline) return;
    for (const j of jobs) {
      if (!solution.isUnassigned(j) || priority[j]! === 0) continue;
      const displaced = exchange(problem, solution, j);
      if (displaced < 0) continue;
      exchanged = true;
      if (search.find(solution, displaced)) solution.insert(displaced, search.bestRoute, search.bestPosition);
    }
    if (!exchanged) return;
  }
}

/** Puts job u in the place of the least important served job it can replace; returns that job, or -1. */
function exchange(problem: Problem, solution: Solution, u: number): number {
  const n = problem.jobCount;
  const dims = problem.dimensions;
  const priority = problem.jobPriority;
  let bestRoute = -1;
  let bestPosition = -1;
  let bestPriority = priority[u]!;
  let bestDelta = Number.POSITIVE_INFINITY;
  for (let r = 0; r < solution.routes.length; r++) {
    const route = solution.routes[r]!;
    const v = route.vehicle;
    if (route.jobs === 0 || problem.compatible[v * n + u] === 0) continue;
    for (let q = 1; q < route.len - 1; q++) {
      const w = route.node[q]!;
      if (w >= n || priority[w]! > bestPriority) continue;
      if (priority[w]! === bestPriority && bestRoute < 0) continue;
      let fits = true;
      for (let k = 0; k < dims && fits; k++) {
        const cap = problem.capacity[v * dims + k]!;
        const i = u * dims + k;
        const o = w * dims + k;
        fits =
          route.deliveryTotal[k]! - problem.delivery[o]! + problem.delivery[i]! <= cap &&
          route.pickupTotal[k]! - problem.pickup[o]! + problem.pickup[i]! <= cap;
      }
      if (!fits) continue;
      const delta = route.replacementDelta(q, u);
      if (delta === Number.POSITIVE_INFINITY) continue;
      if (priority[w]! === bestPriority && delta >= bestDelta) continue;
      // With pickups the load profile decides: try the exchange, keep the candidate if it holds.
      if (problem.hasPickups && !replace(solution, r, q, u, true)) continue;
      bestRoute = r;
      bestPosition = q;
      bestPriority = priority[w]!;
      bestDelta = delta;
    }
  }
  if (bestRoute < 0) return -1;
  const displaced = solution.routes[bestRoute]!.node[bestPosition]!;
  return replace(solution, bestRoute, bestPosition, u, false) ? displaced : -1;
}

/** Replaces the job at position q of route r by u; with `trial`, undoes it and answers whether the route stayed feasible. */
function replace(solution: Solution, r: number, q: number, u: number, trial: boolean): boolean {
  const route = solution.routes[r]!;
  const w = route.node[q]!;
  solution.detach(w);
  solution.insert(u, r, q - 1);
  const feasible = route.feasible;
  if (trial || !feasible) {
    solution.detach(u);
    solution.insert(w, r, q - 1);
  }
  return feasible;
}
