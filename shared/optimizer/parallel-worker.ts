/**
 * A worker thread of parallel.ts: loads the solver as soon as it starts (search-threads.ts), then
 * waits for its task: parses the input text, solves it with its own seed by the shared deadline,
 * and posts the output with its objective (or why it did not search).
 * Node loads this .ts file itself (type stripping); the solver comes from the compile cache the
 * calling thread uses, when it has one.
 */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerAnswer, WorkerTask } from './parallel.ts';
import type { WorkerStart } from './search-threads.ts';

const start = workerData as WorkerStart;
if (start.compileCache) module.enableCompileCache?.(start.compileCache);
const { solveWithStats } = await import('./solve.ts');
const { objectiveOf } = await import('./parallel.ts');

/** Less than this left after start-up is not worth a search: the calling thread's answer stands. */
const shortestSearchMs = 50;

function answer(task: WorkerTask): WorkerAnswer {
  const input: unknown = JSON.parse(task.text);
  const left = task.deadline - (performance.timeOrigin + performance.now());
  if (left < shortestSearchMs) return { skipped: `${Math.round(left)} ms left after start-up` };
  const { output, solution } = solveWithStats(input, {
    timeLimit: left / 1000,
    seed: task.seed,
    strategy: task.strategy,
    ...(task.iterations !== undefined ? { iterations: task.iterations } : {}),
  });
  return { output, objective: objectiveOf(solution) };
}

parentPort?.once('message', (task: WorkerTask) => {
  try {
    parentPort?.postMessage(answer(task));
  } catch (error) {
    parentPort?.postMessage({ skipped: String(error) } satisfies WorkerAnswer);
  }
});
