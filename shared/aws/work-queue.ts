/**
 * A work queue (SQS) fed by an outbox consumer: one message per piece of work, its body JSON, the
 * trace of the request that set it off as the message's AWSTraceHeader (so the worker's
 * invocation joins that trace, as webhook deliveries do: shared/webhooks/delivery-queue.ts). The
 * queue's URL comes from an environment variable the CDK stack and the local stack set.
 */
import {
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { sqsClient } from './clients.ts';

/** The batch entries of `messages`: the body without the trace, which travels as AWSTraceHeader. */
export function queueEntries(messages: ReadonlyArray<{ trace?: string }>): SendMessageBatchRequestEntry[] {
  return messages.map(({ trace, ...body }, i) => ({
    Id: String(i),
    MessageBody: JSON.stringify(body),
    ...(trace
      ? { MessageSystemAttributes: { AWSTraceHeader: { DataType: 'String', StringValue: trace } } }
      : {}),
  }));
}

/** A sender of messages to the queue `urlVariable` names, 10 per SendMessageBatch call. */
export function workQueue<M extends { trace?: string }>(urlVariable: string, what: string) {
  let client: SQSClient | undefined;
  return async function enqueue(messages: readonly M[]): Promise<void> {
    const url = process.env[urlVariable];
    if (!url) throw new Error(`${urlVariable} is not set: ${what} cannot be queued`);
    client ??= sqsClient();
    for (let start = 0; start < messages.length; start += 10) {
      const { Failed } = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: queueEntries(messages.slice(start, start + 10)),
        }),
      );
      if (Failed?.length) throw new Error(`queueing ${what} failed: ${Failed.map((f) => f.Code).join(', ')}`);
    }
  };
}
