/**
 * The apply queue (SQS): one message per requested apply of a run's plan, sent by the outbox
 * consumer of apply requests (shared/domain/optimization-runs/apply-dispatch.consumer.ts), received
 * by the apply worker (functions/apply-worker/handler.ts) or, locally, the queue poller.
 * FSM_APPLY_QUEUE_URL names it (the CDK stack and the local stack set it).
 */
import type { ApplyMessage } from '../domain/optimization-runs/apply-job.ts';
import { workQueue } from './work-queue.ts';

export const enqueueApplies = workQueue<ApplyMessage>('FSM_APPLY_QUEUE_URL', 'applies of optimization runs');
