/**
 * The optimizer's public entry: a VROOM input in, a VROOM output out.
 *
 *   read and check the input → flatten it (problem.ts) → find the jobs nobody can serve →
 *   construct → minimise the fleet (when vehicles have fixed costs) → anneal on cost → output.
 *
 * Time: the search stops by `timeLimit` seconds after the call (the caller keeps its own margin
 * for start-up and output). Half of the search time at most goes to the fleet, the rest to cost.
 * Reproducibility: every random choice comes from one generator seeded by `seed`. With an
 * `iterations` budget the phases are measured in iterations, so a seed and a budget give the same
 * answer on any machine; with a time limit alone the annealing follows the clock, so the answer
 * can differ between runs when the machine's speed does.
 */
import { anneal } from './annealing.ts';
import { construct, findImpossibleJobs, vehicleClassCount } from './construction.ts';
import { InsertionSearch } from './insertion.ts';
import { buildProblem, type Problem } from './problem.ts';
import { Random } from './random.ts';
import { fleetLowerBound, minimiseRoutes } from './route-minimisation.ts';
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
  /** Share of the search given to fleet minimisation at most (default 0.5). */
  fleetShare?: number;
  /** Annealing temperatures, in average edge costs of the first solution (defaults 1 and 0.02). */
  startTemperature?: number;
  endTemperature?: number;
}

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
  const fleetShare = options.fleetShare ?? 0.5;
  const budget = options.iterations;

  const input = parseVroomInput(rawInput);
  const problem = buildProblem(input);
  const random = new Random(seed);
  const impossible = findImpossibleJobs(problem);
  let impossibleCount = 0;
  for (let j = 0; j < problem.jobCount; j++) impossibleCount += impossible[j]!;

  const best = construct(problem, impossible);
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
    loadingMs: loaded - began,
    solvingMs: 0,
  };

  if (problem.jobCount > impossibleCount) {
    const current = best.clone();
    const candidate = best.clone();
    const rr = new RuinRecreate(problem, random, impossible);
    const searchStart = performance.now();
    const searchMs = Math.max(0, deadline - searchStart);

    let hasFixedCost = false;
    for (let v = 0; v < problem.vehicleCount; v++) if (problem.fixedCost[v]! > 0) hasFixedCost = true;
    if (hasFixedCost && best.unassignedCount === impossibleCount) {
      const effort =
        budget === undefined
          ? { spent: () => performance.now() - searchStart, budget: searchMs * fleetShare }
          : {
              spent: (iterations: number) => (performance.now() >= deadline ? budget : iterations),
              budget: Math.floor(budget * fleetShare),
            };
      const result = minimiseRoutes(
        best,
        current,
        candidate,
        rr,
        impossibleCount,
        fleetLowerBound(problem, impossible),
        effort,
      );
      stats.fleetIterations = result.iterations;
      stats.vehiclesAfterFleet = best.usedVehicles;
    }
    const annealStart = performance.now();
    stats.fleetMs = annealStart - searchStart;

    // Temperatures scale with the solution's average edge cost, so they mean the same on any units.
    let travel = 0;
    let edges = 0;
    for (const route of best.routes) {
      if (route.jobs > 0) {
        travel += route.travelCost;
        edges += route.jobs + 1;
      }
    }
    const averageEdge = edges > 0 && travel > 0 ? travel / edges : 1;
    const annealBudget = budget === undefined ? 0 : budget - stats.fleetIterations;
    const annealMs = Math.max(1, deadline - annealStart);
    let iterations = 0;
    let lastClock = 0;
    const result = anneal(best, current, candidate, rr, {
      startTemperature: (options.startTemperature ?? 1) * averageEdge,
      endTemperature: (options.endTemperature ?? 0.02) * averageEdge,
      progress: () => {
        iterations++;
        if (budget !== undefined) {
          if (iterations > annealBudget) return 1;
          if (iterations % 16 === 0 && performance.now() >= deadline) return 1;
          return iterations / Math.max(1, annealBudget);
        }
        if (iterations % 8 === 0 || lastClock === 0) lastClock = (performance.now() - annealStart) / annealMs;
        return lastClock;
      },
    });
    stats.annealIterations = result.iterations;
    stats.annealMs = performance.now() - annealStart;
  }

  // One plain pass (no blinks) over every unassigned job, the "impossible" ones included: blinks
  // may have hidden a job's last free position, and with a travel matrix that breaks the triangle
  // inequality a job no vehicle reaches in time on its own may still fit after another stop.
  placeLeftovers(problem, best);

  const solvingMs = performance.now() - loaded;
  stats.solvingMs = solvingMs;
  const output = vroomOutput(problem, best, { loadingMs: stats.loadingMs, solvingMs });
  return { output, solution: best, problem, stats };
}

function placeLeftovers(problem: Problem, solution: Solution) {
  const search = new InsertionSearch(vehicleClassCount(problem));
  const jobs = Int32Array.from(solution.unassigned.subarray(0, solution.unassignedCount));
  jobs.sort((a, b) => problem.jobPriority[b]! - problem.jobPriority[a]! || a - b);
  for (let round = 0; round < 2; round++) {
    for (const j of jobs) {
      if (solution.isUnassigned(j) && search.find(solution, j))
        solution.insert(j, search.bestRoute, search.bestPosition);
    }
  }
}

/** Solves a VROOM input document; throws OptimizerInputError (naming the field) on invalid input. */
export function solve(rawInput: unknown, options: SolveOptions = {}): VroomOutput {
  return solveWithStats(rawInput, options).output;
}
