/**
 * The outbox consumer that hands each requested apply to the apply queue (like the solver's
 * dispatch, in the `live` group): one message per optimization_run.apply_requested, all of a
 * batch sent together. Idempotent as every consumer must be: a batch handed over again sends its
 * messages again, and the apply worker takes an apply up once (apply-job.ts: a receive of another
 * message finds it taken and leaves it).
 */
import type { EventConsumer } from '../../events/consumers.ts';
import type { ApplyMessage } from './apply-job.ts';

export function applyDispatcher(
  enqueue: (messages: readonly ApplyMessage[]) => Promise<void>,
): EventConsumer {
  return {
    name: 'apply-dispatch',
    async handleBatch(events) {
      const messages = events
        .filter((event) => event.type === 'optimization_run.apply_requested')
        .map((event): ApplyMessage => {
          const application = event.data.object.application as { attempt?: unknown } | undefined;
          return {
            v: 1,
            workspace_id: event.workspace_id,
            run_id: event.resource.id,
            attempt: Number(application?.attempt ?? 1),
            ...(event.trace ? { trace: event.trace } : {}),
          };
        });
      if (messages.length > 0) await enqueue(messages);
    },
  };
}
