/**
 * The solver queue (SQS): one message per optimization run to solve, sent by the outbox
 * consumer of new runs (shared/domain/optimization-runs/solver-dispatch.consumer.ts), received by
 * the solver function (functions/optimizer-worker/handler.ts) or, locally, the queue poller.
 * FSM_SOLVER_QUEUE_URL names it (the CDK stack and the local stack set it).
 */
import {
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SolverMessage } from '../domain/optimization-runs/solver-dispatch.consumer.ts';
import { sqsClient } from './clients.ts';

let client: SQSClient | undefined;

function queueUrl(): string {
  const url = process.env.FSM_SOLVER_QUEUE_URL;
  if (!url) throw new Error('FSM_SOLVER_QUEUE_URL is not set: optimization runs cannot be queued');
  return url;
}

/**
 * The batch entries of `messages`: the body without the trace, which travels as the message's
 * AWSTraceHeader, so the solver function's invocation belongs to the trace of the request that
 * created the run (as webhook deliveries do: shared/webhooks/delivery-queue.ts).
 */
export function solverEntries(messages: readonly SolverMessage[]): SendMessageBatchRequestEntry[] {
  return messages.map(({ trace, ...body }, i) => ({
    Id: String(i),
    MessageBody: JSON.stringify(body),
    ...(trace
      ? { MessageSystemAttributes: { AWSTraceHeader: { DataType: 'String', StringValue: trace } } }
      : {}),
  }));
}

/** Sends the messages, 10 per SendMessageBatch call. */
export async function enqueueSolverRuns(messages: readonly SolverMessage[]): Promise<void> {
  client ??= sqsClient();
  for (let start = 0; start < messages.length; start += 10) {
    const chunk = messages.slice(start, start + 10);
    const { Failed } = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(),
        Entries: solverEntries(chunk),
      }),
    );
    if (Failed?.length)
      throw new Error(`queueing optimization runs failed: ${Failed.map((f) => f.Code).join(', ')}`);
  }
}
