/**
 * Worker threads for parallel.ts, started before there is anything to solve.
 *
 * A worker needs 70-110 ms to start (a new V8 isolate, then the solver's modules); started only
 * once the input is read and parsed, it searched that much less than the calling thread, a fifth
 * of what a 1 s limit leaves after the launcher. Started first thing (the CLI does so before it
 * loads the solver itself), a worker loads while the calling thread loads and reads, and then
 * waits for its task (parallel-worker.ts).
 *
 * This module imports nothing of the solver, so that importing it costs nothing.
 */
import { getCompileCacheDir } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What a worker is given at start. */
export interface WorkerStart {
  compileCache: string | undefined;
}

/** Starts `count` workers; each loads the solver and waits for one task. */
export function startSearchThreads(count: number): Worker[] {
  const workers: Worker[] = [];
  const workerData: WorkerStart = { compileCache: getCompileCacheDir?.() };
  for (let t = 0; t < count; t++) {
    workers.push(new Worker(new URL('./parallel-worker.ts', import.meta.url), { workerData }));
  }
  return workers;
}
