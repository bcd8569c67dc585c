/**
 * One search per core. The same input is solved with seeds seed, seed + 1, …: the first on the
 * calling thread, the others in worker threads (parallel-worker.ts), alternating the `thorough`
 * and `quick` strategies (solve.ts: patient with the fleet, or quicker to spend the time on
 * cost). The best answer by the objective is kept, ties going to the lowest seed. VROOM too runs
 * several searches at once with its `-t` threads.
 *
 * Why independent searches rather than one search spread over the cores: the answer of one
 * search varies a lot from seed to seed at short limits (at 0.75 s one development instance went
 * from +0.5 % to +8.2 % between seeds), so the best of two gains much; and independent searches
 * need no coordination. Measured on six hard development instances, one thread against two:
 * +2.65 % against +1.00 % at 2 s, +0.87 % against +0.13 % at 10 s (README.md, "Several searches
 * at once").
 *
 * Time: every search answers by the same wall-clock deadline. A worker started here begins
 * 70-110 ms later (thread start-up, the solver's modules, its own JSON.parse of the input) and so
 * searches that much less; one started early (search-threads.ts, as the CLI does) only parses. A worker
 * that has not answered shortly after the deadline is stopped and left out. So is one that
 * failed: its refusal would be the calling thread's too, which is seen first.
 * Reproducibility: with an `iterations` budget every search is reproducible, and so is the choice.
 */
import type { Worker } from 'node:worker_threads';
import { startSearchThreads } from './search-threads.ts';
import type { Solution } from './solution.ts';
import { defaultTimeLimitSeconds, type SolveOptions, type StrategyName, solveWithStats } from './solve.ts';
import type { VroomOutput } from './vroom-output.ts';

export interface ParallelOptions extends SolveOptions {
  /** Searches at once, the calling thread's included (default 1: no worker). */
  threads?: number;
  /**
   * Workers already started (search-threads.ts), one per search beyond the calling thread's; the
   * CLI starts them before it loads the solver. Without them they are started here.
   */
  workers?: Worker[];
}

/** What a worker is given once the input is read. */
export interface WorkerTask {
  text: string;
  /** Wall-clock deadline, in milliseconds since the epoch (performance.timeOrigin + now()). */
  deadline: number;
  seed: number;
  strategy: StrategyName;
  iterations: number | undefined;
}

/** The objective, lexicographic: priority left unassigned, jobs left unassigned, cost. */
export type Objective = [number, number, number];

export type WorkerAnswer = { output: VroomOutput; objective: Objective } | { skipped: string };

/** How long after the deadline a worker's answer is still awaited (posting it takes a few ms). */
const answerGraceMs = 40;

const epochNow = () => performance.timeOrigin + performance.now();

export function objectiveOf(solution: Solution): Objective {
  return [solution.unassignedPriority, solution.unassignedCount, solution.cost];
}

/** Whether objective a is strictly better than b. */
export function better(a: Objective, b: Objective): boolean {
  return (a[0] - b[0] || a[1] - b[1] || a[2] - b[2]) < 0;
}

/**
 * Solves `input` (whose JSON text is `text`, given to the workers to parse) with `threads`
 * searches; throws the calling thread's OptimizerInputError on invalid input.
 */
export async function solveInParallel(
  input: unknown,
  text: string,
  options: ParallelOptions = {},
): Promise<VroomOutput> {
  const timeLimitMs = (options.timeLimit ?? defaultTimeLimitSeconds) * 1000;
  const deadline = epochNow() + timeLimitMs;
  const seed = options.seed ?? 1;
  const workers = options.workers ?? startSearchThreads(Math.max(1, Math.floor(options.threads ?? 1)) - 1);
  const answers: Promise<WorkerAnswer>[] = [];
  for (const [index, worker] of workers.entries()) {
    const t = index + 1;
    const task: WorkerTask = {
      text,
      deadline,
      seed: seed + t,
      strategy: t % 2 === 0 ? 'thorough' : 'quick',
      iterations: options.iterations,
    };
    answers.push(answerOf(worker, deadline + answerGraceMs));
    worker.postMessage(task);
  }
  try {
    const { workers: _started, threads: _threads, ...solveOptions } = options;
    const own = solveWithStats(input, {
      ...solveOptions,
      seed,
      strategy: 'thorough',
      timeLimit: timeLimitMs / 1000,
    });
    let best = own.output;
    let bestObjective = objectiveOf(own.solution);
    for (const answer of await Promise.all(answers)) {
      if ('output' in answer && better(answer.objective, bestObjective)) {
        best = answer.output;
        bestObjective = answer.objective;
      }
    }
    return best;
  } finally {
    for (const worker of workers) void worker.terminate();
  }
}

/** The worker's answer, or a skip when it fails, exits or is still searching at `until`. */
function answerOf(worker: Worker, until: number): Promise<WorkerAnswer> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ skipped: 'late' }), Math.max(0, until - epochNow()));
    const settle = (answer: WorkerAnswer) => {
      clearTimeout(timer);
      resolve(answer);
    };
    worker.once('message', (answer: WorkerAnswer) => settle(answer));
    worker.once('error', (error) => settle({ skipped: String(error) }));
    worker.once('exit', () => settle({ skipped: 'exited' }));
  });
}
