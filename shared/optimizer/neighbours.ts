/**
 * What "near" means to the search: each job's nearest jobs, and each job's distance from the
 * depots. Both are measured per vehicle kind (each distinct cost matrix has its own neighbour
 * lists; the depot distance is the cheapest round trip of any vehicle that can serve the job),
 * because a fleet of cars and bicycles, or of technicians starting from five depots, does not
 * see the map as its first vehicle does.
 */
import type { Problem } from './problem.ts';

/** Neighbours kept per job and list: the granular search and the ruin look at no more. */
export const neighbourLimit = 100;

/**
 * Nearest jobs of every job by travel cost (both directions summed), nearest first, ties by job
 * index, one list per distinct cost matrix. Each job keeps its `count` nearest in a bounded
 * max-heap (root: the farthest kept), O(n log count) per job rather than a sort of all n.
 */
export function buildNeighbours(problem: Problem) {
  const n = problem.jobCount;
  const count = Math.min(Math.max(n - 1, 0), neighbourLimit);
  const groups: number[] = [];
  for (let v = 0; v < problem.vehicleCount; v++) {
    const matrix = problem.costMatrix[v]!;
    let group = groups.indexOf(matrix);
    if (group < 0) group = groups.push(matrix) - 1;
    problem.neighbourGroup[v] = group;
  }
  const neighbours = new Int32Array(Math.max(1, groups.length) * n * count);
  const spatialNeighbours = new Int32Array(neighbours.length);
  const size = problem.placeCount;
  groups.forEach((matrix, group) => {
    const costs = problem.matrices[matrix]!;
    const durations = problem.matrices[problem.durationMatrix[problem.costMatrix.indexOf(matrix)]!]!;
    nearestJobs(problem, timedProximity(problem, costs, durations), count, neighbours, group * n * count);
    const place = problem.jobPlace;
    const roundTrip = (a: number, b: number) =>
      costs[place[a]! * size + place[b]!]! + costs[place[b]! * size + place[a]!]!;
    nearestJobs(problem, roundTrip, count, spatialNeighbours, group * n * count);
  });
  for (let j = 0; j < n; j++) {
    let first = 0;
    while (first < problem.vehicleCount - 1 && problem.compatible[first * n + j] === 0) first++;
    problem.jobNeighbourGroup[j] = problem.vehicleCount > 0 ? problem.neighbourGroup[first]! : 0;
  }
  problem.neighbours = neighbours;
  problem.spatialNeighbours = spatialNeighbours;
  problem.neighbourCount = count;
}

/** Weights of waiting and of lateness in the proximity (Vidal et al. 2013, HGS's defaults). */
const waitingWeight = 0.2;
const latenessWeight = 1;

/**
 * How close job b is to job a for a route, as HGS measures it: the cost of the leg, plus a fifth
 * of the least waiting at b when leaving a as late as its window allows, plus the least lateness
 * at b when leaving a as early as it can (both in cost units, through the matrix's ratio of cost
 * to time), the better of the two directions. Jobs a street apart with windows hours apart are
 * not neighbours: with tight windows the places a job can go are near in space and in time.
 */
function timedProximity(problem: Problem, costs: Float64Array, durations: Float64Array) {
  const size = problem.placeCount;
  let costSum = 0;
  let timeSum = 0;
  for (let i = 0; i < costs.length; i++) {
    costSum += costs[i]!;
    timeSum += durations[i]!;
  }
  const toCost = timeSum > 0 ? costSum / timeSum : 1;
  const directed = (a: number, b: number) => {
    const pa = problem.jobPlace[a]!;
    const pb = problem.jobPlace[b]!;
    const travel = durations[pa * size + pb]!;
    const leaveEarliest = problem.firstStart[a]! + problem.service[a]! + travel;
    const leaveLatest = problem.lastEnd[a]! + problem.service[a]! + travel;
    const waiting = Math.max(problem.firstStart[b]! - leaveLatest, 0);
    const lateness = Math.max(leaveEarliest - problem.lastEnd[b]!, 0);
    return costs[pa * size + pb]! + toCost * (waitingWeight * waiting + latenessWeight * lateness);
  };
  return (a: number, b: number) => Math.min(directed(a, b), directed(b, a));
}

/** Fills neighbours[offset + j * count ..] with the `count` jobs nearest to j by `proximity`. */
function nearestJobs(
  problem: Problem,
  proximity: (a: number, b: number) => number,
  count: number,
  neighbours: Int32Array,
  offset: number,
) {
  const n = problem.jobCount;
  const heapJob = new Int32Array(count);
  const heapKey = new Float64Array(count);
  // Whether (key a, job a) comes after (key b, job b) in the neighbour order.
  const after = (ka: number, a: number, kb: number, b: number) => ka > kb || (ka === kb && a > b);
  const siftDown = (from: number, length: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= length) return;
      const right = left + 1;
      let top = left;
      if (right < length && after(heapKey[right]!, heapJob[right]!, heapKey[left]!, heapJob[left]!))
        top = right;
      if (!after(heapKey[top]!, heapJob[top]!, heapKey[at]!, heapJob[at]!)) return;
      const job = heapJob[at]!;
      const key = heapKey[at]!;
      heapJob[at] = heapJob[top]!;
      heapKey[at] = heapKey[top]!;
      heapJob[top] = job;
      heapKey[top] = key;
      at = top;
    }
  };
  for (let j = 0; j < n; j++) {
    let length = 0;
    for (let i = 0; i < n; i++) {
      if (i === j) continue;
      const key = proximity(j, i);
      if (length < count) {
        // Sift up.
        let at = length++;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!after(key, i, heapKey[parent]!, heapJob[parent]!)) break;
          heapJob[at] = heapJob[parent]!;
          heapKey[at] = heapKey[parent]!;
          at = parent;
        }
        heapJob[at] = i;
        heapKey[at] = key;
      } else if (after(heapKey[0]!, heapJob[0]!, key, i)) {
        heapJob[0] = i;
        heapKey[0] = key;
        siftDown(0, length);
      }
    }
    // Pop the farthest kept into the last free slot until the heap is empty: nearest first.
    for (let r = length - 1; r >= 0; r--) {
      neighbours[offset + j * count + r] = heapJob[0]!;
      heapJob[0] = heapJob[r]!;
      heapKey[0] = heapKey[r]!;
      siftDown(0, r);
    }
  }
}

/**
 * Per job, the cheapest round trip (start → job → end) of the vehicles that can serve it, in
 * each one's cost matrix; 0 for open routes. The recreate's "far first" order and the
 * construction's first order use it.
 */
export function measureDepotDistance(problem: Problem) {
  const n = problem.jobCount;
  const size = problem.placeCount;
  const seen = new Set<number>();
  problem.depotDistance.fill(Number.POSITIVE_INFINITY);
  for (let v = 0; v < problem.vehicleCount; v++) {
    const vehicleClass = problem.vehicleClass[v]!;
    if (seen.has(vehicleClass)) continue;
    seen.add(vehicleClass);
    const costs = problem.matrices[problem.costMatrix[v]!]!;
    const start = problem.startPlace[v]!;
    const end = problem.endPlace[v]!;
    for (let j = 0; j < n; j++) {
      if (problem.compatible[v * n + j] === 0) continue;
      const place = problem.jobPlace[j]!;
      const trip = costs[start * size + place]! + costs[place * size + end]!;
      if (trip < problem.depotDistance[j]!) problem.depotDistance[j] = trip;
    }
  }
  for (let j = 0; j < n; j++)
    if (problem.depotDistance[j] === Number.POSITIVE_INFINITY) problem.depotDistance[j] = 0;
}
