/**
 * The cost phase: ruin and recreate under simulated annealing (SISR's acceptance). A candidate
 * that serves more (priority-weighted) jobs is always taken, one that serves fewer never; between
 * equals, one costing c' replaces the current one costing c when c' < c - T·ln(U), U uniform in
 * (0, 1]. The temperature falls geometrically from `startTemperature` to `endTemperature` over the
 * phase's progress (elapsed share of its time, or of its iteration budget when one is given).
 *
 * A candidate whose recreate left more jobs out than the current solution has is first given
 * `roomAttempts` chances to make room for them (RuinRecreate.makeRoom). Each candidate that could be
 * accepted is then descended (local-search.ts) on the routes the recreate touched; one that cannot,
 * even after the largest descent seen, is rejected as it is.
 */
import type { LocalSearch } from './local-search.ts';
import type { RuinRecreate } from './ruin-recreate.ts';
import type { Solution } from './solution.ts';

export interface AnnealingSchedule {
  startTemperature: number;
  endTemperature: number;
  /** Progress of the phase in [0, 1]; 1 or more ends it. */
  progress: () => number;
  /** Granular descent over the routes each recreate touched, before the candidate is judged. */
  localSearch: LocalSearch;
  /** performance.now() time the descent stops at. */
  deadline: number;
  /** Ruin and recreate steps a candidate may take to place the jobs its recreate left out. */
  roomAttempts: number;
}

export interface AnnealingResult {
  iterations: number;
  improvements: number;
  /** Candidates descended with the fleet unchanged (the others were judged before any descent). */
  descents: number;
}

export function anneal(
  best: Solution,
  current: Solution,
  candidate: Solution,
  rr: RuinRecreate,
  schedule: AnnealingSchedule,
  onIteration?: (iteration: number) => void,
): AnnealingResult {
  const random = rr.random;
  const n = best.problem.jobCount;
  const result: AnnealingResult = { iterations: 0, improvements: 0, descents: 0 };
  current.copyFrom(best);
  candidate.copyFrom(best);
  if (n === 0) return result;
  const ratio = schedule.endTemperature / schedule.startTemperature;
  let currentPriority = current.unassignedPriority;
  let currentCount = current.unassignedCount;
  let currentCost = current.cost;
  let bestPriority = best.unassignedPriority;
  let bestCount = best.unassignedCount;
  let bestCost = best.cost;
  /** The most a descent has lowered a candidate's cost; none run yet, so every candidate gets one. */
  let largestGain = Number.POSITIVE_INFINITY;
  let descents = 0;
  for (;;) {
    const progress = schedule.progress();
    if (progress >= 1) break;
    const temperature = schedule.startTemperature * ratio ** progress;
    result.iterations++;
    rr.ruin(candidate, random.int(n));
    rr.recreate(candidate);
    // Where the fleet is held (solve.ts), a job that fits no route is left out rather than given a
    // vehicle; most such candidates would be lost, and making room turns them into new solutions.
    rr.makeRoom(candidate, currentCount, schedule.roomAttempts);
    const priority = candidate.unassignedPriority;
    const count = candidate.unassignedCount;
    const threshold = currentCost - temperature * Math.log(1 - random.float());
    let accept: boolean;
    if (priority !== currentPriority) accept = priority < currentPriority;
    else if (count !== currentCount) accept = count < currentCount;
    else accept = candidate.cost - 2 * largestGain < threshold;
    // The descent runs only on a candidate it could make acceptable: one that serves as much and
    // costs less than the threshold plus twice the most any descent has gained. Most candidates
    // are far off (with fixed costs, those that opened a vehicle): judged before the descent they
    // cost nothing, and the annealing makes several times the iterations.
    if (accept) {
      const ls = schedule.localSearch;
      for (let r = 0; r < candidate.routes.length; r++) {
        if (candidate.routes[r]!.version !== current.routes[r]!.version) ls.queued[r] = 1;
      }
      const before = candidate.cost;
      const vehicles = candidate.usedVehicles;
      ls.improve(candidate, schedule.deadline);
      // A descent that emptied a route saved its fixed cost too: not a gain to expect again.
      if (candidate.usedVehicles === vehicles) {
        const gain = before - candidate.cost;
        largestGain = descents === 0 ? gain : Math.max(largestGain, gain);
        descents++;
      }
      if (priority === currentPriority && count === currentCount) accept = candidate.cost < threshold;
    }
    const cost = candidate.cost;
    if (accept) {
      current.copyFrom(candidate);
      currentPriority = priority;
      currentCount = count;
      currentCost = cost;
      if (
        priority < bestPriority ||
        (priority === bestPriority && (count < bestCount || (count === bestCount && cost < bestCost - 1e-9)))
      ) {
        best.copyFrom(candidate);
        bestPriority = priority;
        bestCount = count;
        bestCost = cost;
        result.improvements++;
      }
    } else {
      candidate.copyFrom(current);
    }
    onIteration?.(result.iterations);
  }
  result.descents = descents;
  return result;
}
