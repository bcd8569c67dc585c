/**
 * The apply worker locally: the queue poller plays the apply worker function's event-source
 * mappings (the apply queue, and its dead-letter queue), calling the same job code as the Lambda
 * (shared/domain/optimization-runs/apply-job.ts). A live job keeps its message hidden (the poller
 * extends its visibility while the handler runs, `keepHidden`): only a receive that died lets it
 * come back, which is what the job's recovery relies on, locally as on AWS.
 *
 * FSM_APPLY_VISIBILITY_SECONDS (default 30) is how long a died receive's message stays hidden:
 * the tests set it low so a simulated crash is recovered within seconds. FSM_TEST_HOOKS=true lets
 * a test stop an apply after k writes, as a crash would (test-hooks.ts).
 */
import { processApplyMessage, processDeadApplyMessage } from '../domain/optimization-runs/apply-job.ts';
import { logger } from '../observability/logger.ts';
import { measureWork } from '../observability/metrics.ts';
import { type QueuePoller, startDeadLetterPoller, startQueuePoller } from './queue-poller.ts';
import { applyCrashHook } from './test-hooks.ts';

const visibilitySeconds = () => Math.max(1, Number(process.env.FSM_APPLY_VISIBILITY_SECONDS ?? 30));

/** The apply queue (its visibility: how long a died receive's message stays hidden) and its dead letters. */
export const applyQueues = () => [
  { name: 'fsm-apply', attributes: { VisibilityTimeout: String(visibilitySeconds()) } },
  { name: 'fsm-apply-dlq' },
];

const log = (message: string, details?: Record<string, unknown>) => logger.warn(message, details ?? {});

export function startApplyPollers(opts: {
  endpoint: string;
  region: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
}): QueuePoller {
  const ports = {
    log,
    ...(process.env.FSM_TEST_HOOKS === 'true' ? { crashHook: applyCrashHook } : {}),
  };
  const applies = startQueuePoller({
    ...opts,
    name: 'apply',
    loops: 2,
    batchSize: 1,
    maxReceives: 5,
    keepHidden: visibilitySeconds(),
    handle: (body, message) => measureWork('apply-worker', () => processApplyMessage(body, message, ports)),
    log,
  });
  const deadLetters = startDeadLetterPoller({
    endpoint: opts.endpoint,
    region: opts.region,
    deadLetterQueueUrl: opts.deadLetterQueueUrl,
    name: 'apply dead-letter',
    keepHidden: visibilitySeconds(),
    handle: (body) => processDeadApplyMessage(body, ports),
    log,
  });
  return {
    async stop() {
      await Promise.all([applies.stop(), deadLetters.stop()]);
    },
  };
}
