/**
 * Fleet minimisation, for when vehicles carry a fixed cost: with the benchmarks' fixed cost one
 * vehicle less outweighs any distance, so vehicles come first.
 *
 * The scheme is that of Nagata & Bräysy's route minimisation (take a route out, then work until
 * its jobs fit elsewhere, with per-job penalty counters steering the search towards the jobs that
 * are hard to place) carried out with SISR's ruin and recreate, as in Christiaens & Vanden
 * Berghe's fleet minimisation:
 * - remove the smallest route; its jobs become unassigned and no empty vehicle may be opened;
 * - each iteration ruins strings around an unassigned job (the freed neighbourhood is where it
 *   must go) and recreates, inserting the jobs with the highest absence first half of the time;
 * - the candidate is accepted if it leaves fewer jobs out, or jobs whose summed absence counters
 *   are lower: the counters grow for every iteration a job spends out, so jobs that are hard to
 *   place end up inside and the easy ones outside, where recreate places them later;
 * - once every job is in, that solution is the new best and the next smallest route goes.
 * It stops at the deadline, at the capacity lower bound, or at the first smaller fleet that the
 * objective does not prefer (its fixed costs saved are less than the travel it adds); the best
 * complete solution is kept.
 */
import type { Problem } from './problem.ts';
import type { Route } from './route.ts';
import type { RuinRecreate } from './ruin-recreate.ts';
import type { Solution } from './solution.ts';

/** No fleet can be smaller than total demand over the largest capacity, per dimension. */
export function fleetLowerBound(problem: Problem, impossible: Uint8Array): number {
  const dims = problem.dimensions;
  let bound = 1;
  for (let k = 0; k < dims; k++) {
    let maxCapacity = 0;
    for (let v = 0; v < problem.vehicleCount; v++)
      maxCapacity = Math.max(maxCapacity, problem.capacity[v * dims + k]!);
    let delivery = 0;
    let pickup = 0;
    for (let j = 0; j < problem.jobCount; j++) {
      if (impossible[j] === 1) continue;
      delivery += problem.delivery[j * dims + k]!;
      pickup += problem.pickup[j * dims + k]!;
    }
    if (maxCapacity > 0) bound = Math.max(bound, Math.ceil(Math.max(delivery, pickup) / maxCapacity));
  }
  return bound;
}

export interface MinimisationResult {
  iterations: number;
  removedRoutes: number;
  /** Effort spent when the last route came out (the fleet reached its final size). */
  reachedAt: number;
}

/**
 * Effort spent by a phase so far and its budget, in one unit (milliseconds, or iterations when
 * the run has an iteration budget, so that a seed gives the same answer on any machine).
 */
export interface Effort {
  spent(): number;
  budget: number;
  /** Counts one iteration. */
  tick(): void;
}

/**
 * Improves `best` in place (fewer vehicles, all jobs still assigned) within `effort`.
 * `current` and `candidate` are working copies the caller owns.
 *
 * An attempt that has stopped getting closer (its fewest jobs left out has not dropped) for
 * longer than max(10 % of the budget, 3 × what it took to get there) is given up: the successful
 * attempts seen on the benchmarks end well within that, and a fleet that cannot shrink would
 * otherwise eat the whole budget the cost phase needs. One given up within the first half of the
 * budget is made again from the best fleet with a route taken out at random: on RC2_10_1 (60 s,
 * six seeds of each strategy) 4 of 12 searches gave up their attempt at 20 vehicles, within 2.4
 * to 10.2 s of a 14 or 28 s budget, and stayed at 21 or 22; made again, all 12 reached 20.
 */
/**
 * Iterations per job without getting closer that an attempt is granted whatever its budget, by
 * default: within a one-second limit, 10 % of the budget is a few dozen iterations, far too few
 * to empty a route.
 */
export const defaultPatiencePerJob = 20;

/** An attempt given up within this share of the phase's budget is made again, another route taken out. */
const retryShare = 0.5;

export function minimiseRoutes(
  best: Solution,
  current: Solution,
  candidate: Solution,
  rr: RuinRecreate,
  impossibleCount: number,
  lowerBound: number,
  effort: Effort,
  patiencePerJob = defaultPatiencePerJob,
): MinimisationResult {
  const random = rr.random;
  const absence = rr.absence;
  absence.fill(0);
  const result: MinimisationResult = { iterations: 0, removedRoutes: 0, reachedAt: 0 };
  const patience = patiencePerJob * best.problem.jobCount;
  current.copyFrom(best);
  rr.spatial = true;
  let retry = false;
  try {
    while (best.usedVehicles > lowerBound && effort.spent() < effort.budget) {
      if (retry) {
        current.copyFrom(best);
        removeRandomRoute(current, random.float());
      } else {
        removeSmallestRoute(current, random.float());
      }
      retry = false;
      rr.insertion.maxRoutes = current.usedVehicles;
      candidate.copyFrom(current);
      let sumCurrent = absenceSum(current, absence);
      let succeeded = false;
      let fewestOut = current.unassignedCount;
      const attemptStart = effort.spent();
      let closerAt = attemptStart;
      let closerIteration = result.iterations;
      for (;;) {
        result.iterations++;
        effort.tick();
        const seed = pickSeed(current, random.float(), random.float());
        rr.ruin(candidate, seed);
        rr.recreate(candidate, true);
        const sumCandidate = absenceSum(candidate, absence);
        if (candidate.unassignedCount < current.unassignedCount || sumCandidate < sumCurrent) {
          current.copyFrom(candidate);
          sumCurrent = sumCandidate;
        } else {
          candidate.copyFrom(current);
        }
        for (let i = 0; i < current.unassignedCount; i++) {
          const j = current.unassigned[i]!;
          if (rr.impossible[j] === 0) {
            absence[j]!++;
            sumCurrent++;
          }
        }
        if (current.unassignedCount <= impossibleCount) {
          succeeded = true;
          break;
        }
        if (result.iterations % 8 !== 0) continue;
        const now = effort.spent();
        if (current.unassignedCount < fewestOut) {
          fewestOut = current.unassignedCount;
          closerAt = now;
          closerIteration = result.iterations;
        }
        if (now >= effort.budget) break;
        if (
          now - closerAt > Math.max(0.1 * effort.budget, 3 * (closerAt - attemptStart)) &&
          result.iterations - closerIteration > patience
        )
          break;
      }
      // An attempt given up early is made again from the best fleet, with a route taken at random:
      // which route goes decides whether its jobs find room.
      if (!succeeded && effort.spent() < retryShare * effort.budget) {
        retry = true;
        continue;
      }
      // A smaller fleet is kept only when the objective prefers it: a fixed cost below what the
      // longer detours cost is not worth a vehicle less.
      if (!succeeded || current.compare(best) >= 0) break;
      best.copyFrom(current);
      result.removedRoutes++;
      result.reachedAt = effort.spent();
    }
  } finally {
    rr.spatial = false;
    rr.insertion.maxRoutes = Number.POSITIVE_INFINITY;
  }
  return result;
}
function absenceSum(solution: Solution, absence: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < solution.unassignedCount; i++) sum += absence[solution.unassigned[i]!]!;
  return sum;
}

/** A random unassigned job most of the time (strings around it make room), else any job. */
function pickSeed(solution: Solution, draw: number, index: number): number {
  const n = solution.problem.jobCount;
  if (solution.unassignedCount > 0 && draw < 0.9) {
    return solution.unassigned[Math.floor(index * solution.unassignedCount)]!;
  }
  return Math.floor(index * n);
}

/** Takes a used route chosen by `draw` out; its jobs become unassigned. */
function removeRandomRoute(solution: Solution, draw: number) {
  let pick = Math.floor(draw * solution.usedVehicles);
  for (const route of solution.routes) {
    if (route.jobs === 0 || pick-- > 0) continue;
    emptyRoute(solution, route);
    return;
  }
}

function emptyRoute(solution: Solution, route: Route) {
  const n = solution.problem.jobCount;
  for (let p = route.len - 2; p >= 1; p--) {
    const j = route.node[p]!;
    if (j < n) solution.detach(j);
  }
  route.refresh();
}

/** Takes the used route with the fewest jobs out (ties broken by `draw`); its jobs become unassigned. */
function removeSmallestRoute(solution: Solution, draw: number) {
  let fewest = Number.POSITIVE_INFINITY;
  let ties = 0;
  for (const route of solution.routes) {
    if (route.jobs === 0) continue;
    if (route.jobs < fewest) {
      fewest = route.jobs;
      ties = 1;
    } else if (route.jobs === fewest) {
      ties++;
    }
  }
  let pick = Math.floor(draw * ties);
  for (const route of solution.routes) {
    if (route.jobs !== fewest) continue;
    if (pick-- > 0) continue;
    emptyRoute(solution, route);
    return;
  }
}
