/**
 * The optimizer's public entry: a VROOM input in, a VROOM output out.
 *
 *   read and check the input → flatten it (problem.ts) → find the jobs nobody can serve →
 *   construct → minimise the fleet (when vehicles have fixed costs) → anneal on cost → output.
 *
 * Time: the answer is ready by `timeLimit` seconds after the call (the caller keeps its own margin
 * for start-up and writing it). The search ends by 98 % of it, each run's closing descent
 * included; the leftovers' exchanges stop at the limit. Only the first construction order always
 * runs to its end, since it is the answer when nothing else is. Half of the search time at most
 * goes to the fleet (a quarter with the `quick` strategy), the rest to cost.
 * Reproducibility: every random choice comes from one generator seeded by `seed`. With an
 * `iterations` budget the phases are measured in iterations, so a seed and a budget give the same
 * answer on any machine; with a time limit alone the annealing follows the clock, so the answer
 * can differ between runs when the machine's speed does.
 */
import { anneal } from './annealing.ts';
import { construct, findImpossibleJobs } from './construction.ts';
import { placeLeftovers } from './leftovers.ts';
import { LocalSearch } from './local-search.ts';
import { buildProblem, type Problem } from './problem.ts';
import { Random } from './random.ts';
import { defaultPatiencePerJob, type Effort, fleetLowerBound, minimiseRoutes } from './route-minimisation.ts';
import { RuinRecreate } from './ruin-recreate.ts';
import type { Solution } from './solution.ts';
import { OptimizerInputError, parseVroomInput } from './vroom-input.ts';
import { type VroomOutput, vroomOutput } from './vroom-output.ts';

export { OptimizerInputError } from './vroom-input.ts';
export type { VroomOutput } from './vroom-output.ts';

export const defaultTimeLimitSeconds = 30;

export interface SolveOptions {
  /** Seconds the call may take (default 30). */
  timeLimit?: number;
  /** Seed of the random choices (default 1). */
  seed?: number;
  /** Iterations of search (fleet and cost phases together): makes the answer reproducible. */
  iterations?: number;
  /** How the search shares its time (default `thorough`). */
  strategy?: StrategyName;
}

/**
 * How the search shares its time between fleet and cost. One search uses `thorough`; the threads
 * of parallel.ts alternate the two, a portfolio: on the 14 development instances at 0.75 s (two
 * seeds, in one warmed-up process) `quick` reached +0.83 % against +1.12 % where vehicles
 * matched, but kept a vehicle more on RC101 where `thorough` found the best-known fleet.
 */
export interface Strategy {
  /** Share of the search given to fleet minimisation at most. */
  fleetShare: number;
  /** Iterations per job an attempt at a smaller fleet is granted without getting closer. */
  fleetPatiencePerJob: number;
}

export const strategies = {
  thorough: { fleetShare: 0.5, fleetPatiencePerJob: defaultPatiencePerJob },
  quick: { fleetShare: 0.25, fleetPatiencePerJob: 5 },
} satisfies Record<string, Strategy>;

export type StrategyName = keyof typeof strategies;
/** Annealing temperatures, in average edge costs of the run's first solution. */
const startTemperature = 1;
const endTemperature = 0.02;
/** Nearest jobs whose routes the annealing's recreate tries (insertion.ts, `granularity`). */
const recreateGranularity = 50;
/**
 * Ruin and recreate steps the annealing may take to place the jobs a candidate's recreate left out
 * (annealing.ts). RC2_10_1 from one 20-vehicle start, 30 s, eight annealing seeds: without them
 * +3.5 to +3.7 % on average (two sets of four), with 10 steps +2.82 %; 3 steps +3.32 %, 30 steps
 * +3.01 %, 100 steps +3.77 % (four seeds each).
 */
const roomAttempts = 10;

export interface SolveStats {
  jobs: number;
  vehicles: number;
  impossibleJobs: number;
  constructionVehicles: number;
  fleetIterations: number;
  fleetMs: number;
  vehiclesAfterFleet: number;
  annealIterations: number;
  annealMs: number;
  /** Cost reached by each annealing run (for benchmarks). */
  runs: number[];
  loadingMs: number;
  solvingMs: number;
}

export interface SolveResult {
  output: VroomOutput;
  solution: Solution;
  problem: Problem;
  stats: SolveStats;
}

/** Vehicles whose breaks cannot all fit in their working hours even with no job: VROOM refuses them too. */
function checkBreaks(problem: Problem, solution: Solution) {
  for (const route of solution.routes) {
    if (!route.feasible) {
      throw new OptimizerInputError(
        `vehicles[${route.vehicle}].breaks`,
        "cannot all be taken within the vehicle's time_window",
      );
    }
  }
  return problem;
}

export function solveWithStats(rawInput: unknown, options: SolveOptions = {}): SolveResult {
  const began = performance.now();
  const timeLimitMs = (options.timeLimit ?? defaultTimeLimitSeconds) * 1000;
  const deadline = began + timeLimitMs;
  const seed = options.seed ?? 1;
  const budget = options.iterations;

  const input = parseVroomInput(rawInput);
  const problem = buildProblem(input);
  const random = new Random(seed);
  const impossible = findImpossibleJobs(problem);
  let impossibleCount = 0;
  for (let j = 0; j < problem.jobCount; j++) impossibleCount += impossible[j]!;

  // The construction's extra orders may take a tenth of the limit at most.
  const best = construct(problem, impossible, began + 0.1 * timeLimitMs);
  checkBreaks(problem, best);
  const loaded = performance.now();
  const stats: SolveStats = {
    jobs: problem.jobCount,
    vehicles: problem.vehicleCount,
    impossibleJobs: impossibleCount,
    constructionVehicles: best.usedVehicles,
    fleetIterations: 0,
    fleetMs: 0,
    vehiclesAfterFleet: best.usedVehicles,
    annealIterations: 0,
    annealMs: 0,
    runs: [],
    loadingMs: loaded - began,
    solvingMs: 0,
  };

  if (problem.jobCount > impossibleCount) {
    const rr = new RuinRecreate(problem, random, impossible);
    // The search leaves the last 2 % of the limit to the leftovers pass and the output.
    const clock = new SearchClock(began + 0.98 * timeLimitMs, budget);
    const strategy = strategies[options.strategy ?? 'thorough'];
    const lowerBound = fleetLowerBound(problem, impossible);
    search(problem, best, rr, clock, strategy, impossibleCount, lowerBound, stats);
  }

  // Plain insertions of what is left out, then more important jobs in the place of less important ones.
  placeLeftovers(problem, best, deadline);
  assertFeasible(best);

  const solvingMs = performance.now() - loaded;
  stats.solvingMs = solvingMs;
  const output = vroomOutput(problem, best, { loadingMs: stats.loadingMs, solvingMs });
  return { output, solution: best, problem, stats };
}

/**
 * Effort in one unit: milliseconds since the search began, or iterations when the caller gave an
 * iteration budget (then the answer depends on the seed only; the deadline still stops it).
 */
class SearchClock {
  iterations = 0;
  readonly total: number;
  readonly iterationBudget: number | undefined;
  readonly deadline: number;
  private readonly start = performance.now();
  constructor(deadline: number, iterationBudget: number | undefined) {
    this.deadline = deadline;
    this.iterationBudget = iterationBudget;
    this.total = iterationBudget ?? Math.max(0, deadline - this.start);
  }
  spent(): number {
    if (this.iterationBudget === undefined) return performance.now() - this.start;
    return performance.now() >= this.deadline ? this.iterationBudget : this.iterations;
  }
  /** An effort window of `budget` units from now. */
  window(budget: number): Effort {
    const from = this.spent();
    return { spent: () => this.spent() - from, budget, tick: () => this.iterations++ };
  }
}

/** Average edge cost of a solution: temperatures are given in it, so they mean the same in any units. */
function averageEdge(solution: Solution): number {
  let travel = 0;
  let edges = 0;
  for (const route of solution.routes) {
    if (route.jobs > 0) {
      travel += route.travelCost;
      edges += route.jobs + 1;
    }
  }
  return edges > 0 && travel > 0 ? travel / edges : 1;
}

/**
 * Whether opening one more vehicle can never lower the cost: every unused vehicle's fixed cost is
 * more than the solution's whole travel cost, with a quarter more for what the annealing may add
 * to it (the benchmarks' 10⁸ per vehicle; R1_10_1 drives 5.4 × 10⁷), so no travel it could save
 * would make up for it.
 */
function openingCannotPay(solution: Solution): boolean {
  const problem = solution.problem;
  let travel = 0;
  for (const route of solution.routes) if (route.jobs > 0) travel += route.travelCost;
  for (const route of solution.routes) {
    if (route.jobs === 0 && problem.fixedCost[route.vehicle]! <= 1.25 * travel) return false;
  }
  return true;
}

/**
 * Fleet minimisation, then annealing runs.
 *
 * The fleet phase's last solution decides which jobs share a route, and on instances with few
 * long routes the annealing then converges, within a few seconds, to the best solution of that
 * partition: annealing the same start with other seeds ends on the same cost, annealing another
 * start with the same fleet ends elsewhere (up to 10 % apart on Gehring & Homberger's C2). So the
 * remaining time is cut into runs, each about 4 ms (190 iterations) of annealing per job plus
 * twice the time the fleet phase needed to reach its fleet, 12 at most: each run but the last
 * starts from a fresh solution (a random-order recreate, then fleet minimisation down to the best
 * fleet found) and anneals it; the last run anneals the best solution so far at a lower
 * temperature. On 16 Solomon instances outside the development set (two seeds, 300,000
 * iterations) runs of 750 iterations per job gave a mean gap of 1.8 %, 190 per job 0.9 %, 95 per
 * job 1.1 %; one single run did worse than 750 per job on the six hardest.
 */
function search(
  problem: Problem,
  best: Solution,
  rr: RuinRecreate,
  clock: SearchClock,
  strategy: Strategy,
  impossibleCount: number,
  lowerBound: number,
  stats: SolveStats,
) {
  const current = best.clone();
  const candidate = best.clone();
  const runBest = best.clone();
  let hasFixedCost = false;
  for (let v = 0; v < problem.vehicleCount; v++) if (problem.fixedCost[v]! > 0) hasFixedCost = true;
  const minimiseFleet = hasFixedCost && best.unassignedCount === impossibleCount;
  const fleetStart = performance.now();
  let reachedAt = 0;
  if (minimiseFleet) {
    const result = minimiseRoutes(
      best,
      current,
      candidate,
      rr,
      impossibleCount,
      lowerBound,
      clock.window(clock.total * strategy.fleetShare),
      strategy.fleetPatiencePerJob,
    );
    stats.fleetIterations += result.iterations;
    stats.vehiclesAfterFleet = best.usedVehicles;
    reachedAt = result.reachedAt;
  }
  stats.fleetMs += performance.now() - fleetStart;
  // Whether the objective preferred a smaller fleet: fresh starts are then held to it.
  const fleetPays = stats.vehiclesAfterFleet < stats.constructionVehicles;

  // A run: about 4 ms (190 iterations) of annealing per job, plus twice what the fleet took to
  // shrink; beyond 200 jobs, longer by the square of the size over 200, as a fresh start of a
  // large instance costs more than it brings (R1_10_1 at 57 s: 12 runs +2.31 %, one run +1.36 %).
  const scale = Math.max(1, (problem.jobCount / 200) ** 2);
  const annealPerRun = scale * (clock.iterationBudget === undefined ? 3.75 : 190) * problem.jobCount;
  const perRun = annealPerRun + 2 * reachedAt;
  const runs = Math.max(1, Math.min(12, Math.floor((clock.total - clock.spent()) / perRun)));
  const polish = new LocalSearch(problem);
  for (let run = 0; run < runs; run++) {
    const left = clock.total - clock.spent();
    if (left <= 0) break;
    const slice = left / (runs - run);
    const last = run === runs - 1 && runs > 1;
    runBest.copyFrom(best);
    if (run > 0 && !last) {
      // A fresh start with the same fleet, or the best again when the fleet cannot be matched in time.
      const startedAt = performance.now();
      runBest.reset();
      rr.recreate(runBest);
      if (fleetPays && runBest.usedVehicles > best.usedVehicles) {
        const result = minimiseRoutes(
          runBest,
          current,
          candidate,
          rr,
          impossibleCount,
          Math.max(lowerBound, best.usedVehicles),
          clock.window(Math.min(0.7 * slice, Math.max(0.3 * slice, 3 * reachedAt))),
          strategy.fleetPatiencePerJob,
        );
        stats.fleetIterations += result.iterations;
      }
      const worseService =
        runBest.unassignedPriority > best.unassignedPriority ||
        runBest.unassignedCount > best.unassignedCount;
      if (worseService || (fleetPays && runBest.usedVehicles > best.usedVehicles)) runBest.copyFrom(best);
      stats.fleetMs += performance.now() - startedAt;
    }
    const edge = averageEdge(runBest);
    const runStart = clock.spent();
    const runLength = Math.max(1, slice - (runStart - (clock.total - left)));
    const annealStart = performance.now();
    let lastProgress = 0;
    let calls = 0;
    rr.insertion.granularity = recreateGranularity;
    // When a vehicle more can never pay, a candidate that opens one is never taken (R110 at 5 s:
    // 65 % of the candidates did). The recreate leaves such a job out instead, and the annealing
    // makes room for it elsewhere.
    if (openingCannotPay(runBest)) rr.insertion.maxRoutes = runBest.usedVehicles;
    const result = anneal(runBest, current, candidate, rr, {
      startTemperature: (last ? 0.3 : 1) * startTemperature * edge,
      endTemperature: endTemperature * edge,
      localSearch: polish,
      deadline: clock.deadline,
      roomAttempts,
      progress: () => {
        clock.iterations++;
        if (++calls % 8 === 0 || calls < 8) lastProgress = (clock.spent() - runStart) / runLength;
        return lastProgress;
      },
    });
    rr.insertion.granularity = 0;
    rr.insertion.maxRoutes = Number.POSITIVE_INFINITY;
    stats.annealIterations += result.iterations;
    stats.annealMs += performance.now() - annealStart;
    // The annealing ends cold; a descent over every route finishes what it left.
    polish.queued.fill(1);
    polish.improve(runBest, clock.deadline);
    stats.runs.push(Math.round((runBest.cost % 1e8) * 100) / 100);
    if (runBest.compare(best) < 0) best.copyFrom(runBest);
  }
}

/**
 * Every route of the answer is checked once more before it is written: a route the search
 * believes feasible but is not would be a plan a technician cannot drive, so it fails the call
 * (an internal error) rather than reach the output.
 */
function assertFeasible(solution: Solution) {
  for (const route of solution.routes) {
    if (route.jobs > 0 && !route.refresh()) {
      throw new Error(`the route of vehicles[${route.vehicle}] is not feasible`);
    }
  }
}

/** Solves a VROOM input document; throws OptimizerInputError (naming the field) on invalid input. */
export function solve(rawInput: unknown, options: SolveOptions = {}): VroomOutput {
  return solveWithStats(rawInput, options).output;
}
