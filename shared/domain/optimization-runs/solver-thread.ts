/**
 * The worker thread of threaded-solver.ts: solves the one problem it was started with and posts
 * the answer (or the refusal) back. Node loads this .ts file itself (type stripping).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OptimizerInputError, solve } from '../../optimizer/solve.ts';
import type { SolveRequest } from './solver-port.ts';

const { input, timeLimitSeconds, seed } = workerData as SolveRequest;
const started = performance.now();
try {
  const output = solve(input, { timeLimit: timeLimitSeconds, seed });
  parentPort?.postMessage({ output, solveMs: performance.now() - started });
} catch (error) {
  parentPort?.postMessage({
    refused:
      error instanceof OptimizerInputError ? { field: error.field, message: error.message } : undefined,
    error: String(error),
  });
}
