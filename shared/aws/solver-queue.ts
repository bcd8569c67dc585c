/**
 * The solver queue (SQS): one message per optimization run to solve, sent by the outbox
 * consumer of new runs (shared/domain/optimization-runs/solver-dispatch.consumer.ts), received by
 * the solver function (functions/optimizer-worker/handler.ts) or, locally, the queue poller.
 * FSM_SOLVER_QUEUE_URL names it (the CDK stack and the local stack set it).
 */
import type { SolverMessage } from '../domain/optimization-runs/solver-dispatch.consumer.ts';
import { queueEntries, workQueue } from './work-queue.ts';

/** The batch entries of solver messages (the trace as AWSTraceHeader, not in the body). */
export const solverEntries = (messages: readonly SolverMessage[]) => queueEntries(messages);

export const enqueueSolverRuns = workQueue<SolverMessage>('FSM_SOLVER_QUEUE_URL', 'optimization runs');
