/**
 * The first solution: cheapest insertion of the jobs one by one, tried in a few orders (farthest
 * from the depot first, tightest windows first, largest demand first), keeping the best. Opening a
 * vehicle costs its fixed cost plus its travel, so a vehicle opens only when no used one can take
 * the job (or, without fixed costs, when that is cheaper).
 *
 * Jobs that no vehicle could serve even alone (a skill no vehicle has, a window no vehicle can
 * reach, an amount over every capacity) are found first and kept out of the search: they are the
 * ones VROOM reports unassigned whatever the effort.
 */
import { InsertionSearch, insertAll } from './insertion.ts';
import type { Problem } from './problem.ts';
import { Solution } from './solution.ts';

export function vehicleClassCount(problem: Problem): number {
  let classes = 0;
  for (let v = 0; v < problem.vehicleCount; v++) classes = Math.max(classes, problem.vehicleClass[v]! + 1);
  return classes;
}

/** 1 for each job that no vehicle can serve, even with nothing else to do. */
export function findImpossibleJobs(problem: Problem): Uint8Array {
  const empty = new Solution(problem);
  const search = new InsertionSearch(vehicleClassCount(problem));
  const impossible = new Uint8Array(problem.jobCount);
  for (let j = 0; j < problem.jobCount; j++) {
    if (!search.find(empty, j)) impossible[j] = 1;
  }
  return impossible;
}

/**
 * The best of the three orders; an order after the first is tried only if it can end by
 * `deadline` (performance.now() time) at the pace of the first, so that on a large instance with
 * a short limit the construction leaves the search its time.
 */
export function construct(
  problem: Problem,
  impossible: Uint8Array,
  deadline = Number.POSITIVE_INFINITY,
): Solution {
  const n = problem.jobCount;
  const dims = problem.dimensions;
  const far = (j: number) => problem.depotDistance[j]!;
  const demand = (j: number) => {
    let total = 0;
    for (let k = 0; k < dims; k++) total += problem.delivery[j * dims + k]! + problem.pickup[j * dims + k]!;
    return total;
  };
  const orders: Array<(a: number, b: number) => number> = [
    (a, b) => far(b) - far(a),
    (a, b) => problem.lastEnd[a]! - problem.lastEnd[b]! || problem.firstStart[a]! - problem.firstStart[b]!,
    (a, b) => demand(b) - demand(a),
  ];
  const jobs: number[] = [];
  for (let j = 0; j < n; j++) if (impossible[j] === 0) jobs.push(j);
  const search = new InsertionSearch(vehicleClassCount(problem));
  let best: Solution | undefined;
  const began = performance.now();
  for (let k = 0; k < orders.length; k++) {
    const now = performance.now();
    if (k > 0 && now + (now - began) / k > deadline) break;
    const criterion = orders[k]!;
    const order = Int32Array.from(
      [...jobs].sort((a, b) => problem.jobPriority[b]! - problem.jobPriority[a]! || criterion(a, b) || a - b),
    );
    const solution = new Solution(problem);
    insertAll(solution, search, order, order.length);
    if (!best || solution.compare(best) < 0) best = solution;
  }
  return best ?? new Solution(problem);
}
