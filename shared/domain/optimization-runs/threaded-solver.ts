/**
 * The solver in a worker thread (solver-port.ts says when): one thread per solve, its heap
 * bounded, so a problem that exhausts memory ends that thread with ERR_WORKER_OUT_OF_MEMORY and
 * fails its run, while the process (locally: the API too) goes on.
 */
import { Worker } from 'node:worker_threads';
import type { VroomAnswer } from '../scheduling/planning-result.ts';
import { OptimizerInputError, type SolverPort, SolverStoppedError } from './solver-port.ts';

const threadEntry = new URL('./solver-thread.ts', import.meta.url);

interface ThreadMessage {
  output?: VroomAnswer;
  solveMs?: number;
  refused?: { field: string; message: string };
  error?: string;
}

export function threadedSolver(options: { maxHeapMb?: number } = {}): SolverPort {
  return {
    solve(request) {
      return new Promise((resolve, reject) => {
        const worker = new Worker(threadEntry, {
          workerData: request,
          resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 1536 },
        });
        let settled = false;
        const settle = (action: () => void) => {
          if (settled) return;
          settled = true;
          action();
          void worker.terminate();
        };
        worker.once('message', (message: ThreadMessage) =>
          settle(() => {
            if (message.output) resolve({ output: message.output, solveMs: message.solveMs ?? 0 });
            else if (message.refused) {
              const refusal = new OptimizerInputError(message.refused.field, '');
              refusal.message = message.refused.message;
              reject(refusal);
            } else reject(new Error(message.error ?? 'the solver failed'));
          }),
        );
        worker.once('error', (error: Error & { code?: string }) =>
          settle(() =>
            reject(
              new SolverStoppedError(
                error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                  ? 'The solver ran out of memory.'
                  : `The solver stopped: ${error.message}`,
              ),
            ),
          ),
        );
        worker.once('exit', (code) =>
          settle(() => reject(new SolverStoppedError(`The solver stopped (exit code ${code}).`))),
        );
      });
    },
  };
}
