/**
 * The outbox consumer that hands each new run to the solver queue (like the webhook dispatcher,
 * in the `live` group): one message per optimization_run.created, all of a batch sent together.
 * Idempotent as every consumer must be: a batch handed over again sends its messages again, and
 * the solver takes a run up once (QUEUED → RUNNING is conditional; solver-job.ts).
 */

import type { EventConsumer } from '../../events/consumers.ts';
import type { DomainEvent } from '../../events/domain-event.ts';

/** One message of the solver queue. */
export interface SolverMessage {
  v: 1;
  workspace_id: string;
  run_id: string;
  /**
   * The X-Ray trace header of the request that created the run (the event's), sent as SQS's
   * AWSTraceHeader rather than in the body: the solver's invocation joins that trace.
   */
  trace?: string;
}

export function solverDispatcher(
  enqueue: (messages: readonly SolverMessage[]) => Promise<void>,
): EventConsumer {
  return {
    name: 'solver-dispatch',
    async handleBatch(events: readonly DomainEvent[]) {
      const messages = events
        .filter((event) => event.type === 'optimization_run.created')
        .map(
          (event): SolverMessage => ({
            v: 1,
            workspace_id: event.workspace_id,
            run_id: event.resource.id,
            ...(event.trace ? { trace: event.trace } : {}),
          }),
        );
      if (messages.length > 0) await enqueue(messages);
    },
  };
}
