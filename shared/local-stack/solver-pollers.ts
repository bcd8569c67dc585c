/**
 * The solver locally: the queue poller plays the solver function's event-source mappings (the
 * solver queue, and its dead-letter queue), calling the same job code as the Lambda
 * (shared/domain/optimization-runs/solver-job.ts). Two differences, both for the process that
 * also serves the API: the optimizer runs in a worker thread (threaded-solver.ts), so requests are
 * served while it searches, and one run is solved at a time (the function's reserved concurrency
 * on AWS), so a few runs cannot take both cores. Travel is always great-circle locally.
 */

import { stallGraceSeconds, timeLimits } from '../domain/optimization-runs/optimization-run-statuses.ts';
import { processDeadSolverMessage, processSolverMessage } from '../domain/optimization-runs/solver-job.ts';
import { threadedSolver } from '../domain/optimization-runs/threaded-solver.ts';
import { travelPortFor } from '../domain/optimization-runs/travel-selection.ts';
import { logger } from '../observability/logger.ts';
import { measureWork } from '../observability/metrics.ts';
import { type QueuePoller, startDeadLetterPoller, startQueuePoller } from './queue-poller.ts';

/**
 * The solver queues. A message stays hidden while its run is solved (the longest time limit plus
 * the grace a run gets), so only a receive that died hands it out again; after 3 receives it goes
 * to the dead-letter queue.
 */
export const solverQueues = [
  { name: 'fsm-solver', attributes: { VisibilityTimeout: String(timeLimits.max + stallGraceSeconds + 30) } },
  { name: 'fsm-solver-dlq' },
];

const log = (message: string, details?: Record<string, unknown>) => logger.warn(message, details ?? {});

export function startSolverPollers(opts: {
  endpoint: string;
  region: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
}): QueuePoller {
  const solver = threadedSolver();
  const runs = startQueuePoller({
    ...opts,
    name: 'solver',
    loops: 1,
    batchSize: 1,
    maxReceives: 3,
    handle: (body, message) =>
      measureWork('optimizer-worker', () =>
        processSolverMessage(body, message, {
          solver,
          travelFor: (workspaceId) => travelPortFor(workspaceId, {}),
          log,
        }),
      ),
    log,
  });
  const deadLetters = startDeadLetterPoller({
    endpoint: opts.endpoint,
    region: opts.region,
    deadLetterQueueUrl: opts.deadLetterQueueUrl,
    name: 'solver dead-letter',
    handle: (body) => processDeadSolverMessage(body, log),
    log,
  });
  return {
    async stop() {
      await Promise.all([runs.stop(), deadLetters.stop()]);
    },
  };
}
