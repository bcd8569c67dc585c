/**
 * The solver port: how a run's VROOM input becomes a VROOM output (shared/optimizer). The
 * optimizer is CPU-bound for the run's whole time limit, so where it runs is the wiring's choice:
 *
 * - `inlineSolver` (below): on the caller's thread. The solver Lambda does nothing else while it
 *   solves (one run per invocation), so it runs inline: no second bundle, no thread start-up.
 * - `threadedSolver` (threaded-solver.ts): in a worker thread, for the local stack, whose process
 *   also serves the API: the event loop stays free, and an out-of-memory ends the thread, not the
 *   process.
 *
 * The contract: `solve` answers the output and the milliseconds the search took; it rejects with
 * the optimizer's OptimizerInputError when the problem is refused (the run fails as
 * INVALID_PROBLEM), and with SolverStoppedError when the solver died without an answer (out of
 * memory, a crash: SOLVER_STOPPED). Any other rejection fails the run as INTERNAL_ERROR.
 */
import { OptimizerInputError, solve } from '../../optimizer/solve.ts';
import type { VroomAnswer } from '../scheduling/planning-result.ts';

export { OptimizerInputError };

export interface SolveRequest {
  input: unknown;
  timeLimitSeconds: number;
  seed: number;
}

export interface SolverAnswer {
  output: VroomAnswer;
  solveMs: number;
}

export interface SolverPort {
  solve(request: SolveRequest): Promise<SolverAnswer>;
}

/** The solver died without an answer. */
export class SolverStoppedError extends Error {
  override readonly name = 'SolverStoppedError';
}

export const inlineSolver: SolverPort = {
  async solve({ input, timeLimitSeconds, seed }) {
    const started = performance.now();
    const output = solve(input, { timeLimit: timeLimitSeconds, seed });
    return { output, solveMs: performance.now() - started };
  },
};
