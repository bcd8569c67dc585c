/**
 * Every node of the event stream receives every event that has a stream kind: the `live`
 * outbox consumer publishes them to one SNS topic, and each node subscribes a queue of its own
 * (SNS → SQS with raw delivery, the standard fan-out of AWS; no protocol of ours). Locally the
 * same code runs against the emulator's SNS and SQS. docs/event-stream.md has the design, its
 * limits and its cost.
 */
import { randomUUID } from 'node:crypto';
import {
  PublishBatchCommand,
  type SNSClient,
  SubscribeCommand,
  UnsubscribeCommand,
} from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SetQueueAttributesCommand,
} from '@aws-sdk/client-sqs';
import { snsClient as buildSnsClient, sqsClient } from '../aws/clients.ts';
import type { EventConsumer } from '../events/consumers.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import { streamMessageOf } from './stream-kinds.ts';

let sns: SNSClient | undefined;
const snsClient = () => {
  sns ??= buildSnsClient();
  return sns;
};

/** The `live` consumer that hands stream events to every node; a no-op where no topic is set. */
export function streamPublisher(): EventConsumer {
  return {
    name: 'stream-fanout',
    async handleBatch(events: readonly DomainEvent[]): Promise<void> {
      const topicArn = process.env.FSM_STREAM_TOPIC_ARN;
      if (!topicArn) return;
      const streamed = events.filter((event) => streamMessageOf(event) !== undefined);
      for (const chunk of publishBatches(streamed.map((event) => JSON.stringify(event)))) {
        const { Failed } = await snsClient().send(
          new PublishBatchCommand({
            TopicArn: topicArn,
            PublishBatchRequestEntries: chunk.map((message, i) => ({ Id: String(i), Message: message })),
          }),
        );
        if (Failed?.length)
          throw new Error(`publishing stream events failed: ${Failed.map((f) => f.Code).join(', ')}`);
      }
    },
  };
}

/** SNS takes at most 10 messages and 256 KiB per PublishBatch call. */
export function publishBatches(messages: readonly string[], maxBytes = 250_000): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = Buffer.byteLength(message);
    if (current.length > 0 && (current.length === 10 || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export interface StreamSubscription {
  stop(): Promise<void>;
}

/**
 * This node's queue on the topic: created at start (named after the node), subscribed with raw
 * delivery, read in long polls, removed at stop. Messages live 5 minutes: a node that stops
 * reading does not pile them up.
 */
export async function subscribeNode(opts: {
  topicArn: string;
  queuePrefix: string;
  deliver: (event: DomainEvent) => void;
  log: (message: string, details?: Record<string, unknown>) => void;
}): Promise<StreamSubscription> {
  // Long polls wait up to 2 s by design: the request deadline must be longer than the wait,
  // or a poll that was about to return messages is cut off and they stay hidden.
  const sqs = sqsClient({ deadlines: 'long-poll' });
  const node = `${opts.queuePrefix}-${randomUUID().slice(0, 8)}`;
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({
      QueueName: node,
      // A message of a cut-off receive comes back after 5 s, not the default 30 s.
      Attributes: {
        MessageRetentionPeriod: '300',
        ReceiveMessageWaitTimeSeconds: '2',
        VisibilityTimeout: '5',
      },
    }),
  );
  if (!QueueUrl) throw new Error(`CreateQueue ${node} returned no URL`);
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const queueArn = Attributes?.QueueArn ?? '';
  // Only the topic may send to the node's queue (SNS needs this policy on AWS).
  await sqs.send(
    new SetQueueAttributesCommand({
      QueueUrl,
      Attributes: {
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: { Service: 'sns.amazonaws.com' },
              Action: 'sqs:SendMessage',
              Resource: queueArn,
              Condition: { ArnEquals: { 'aws:SourceArn': opts.topicArn } },
            },
          ],
        }),
      },
    }),
  );
  const { SubscriptionArn } = await snsClient().send(
    new SubscribeCommand({
      TopicArn: opts.topicArn,
      Protocol: 'sqs',
      Endpoint: queueArn,
      Attributes: { RawMessageDelivery: 'true' },
      ReturnSubscriptionArn: true,
    }),
  );
  const abort = new AbortController();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }),
          { abortSignal: abort.signal },
        );
        for (const message of Messages) {
          try {
            opts.deliver(JSON.parse(message.Body ?? '') as DomainEvent);
          } catch (error) {
            opts.log('stream event unreadable; dropped', { error: String(error) });
          }
        }
        if (Messages.length > 0) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl,
              Entries: Messages.map((message, i) => ({
                Id: String(i),
                ReceiptHandle: message.ReceiptHandle ?? '',
              })),
            }),
          );
        }
      } catch (error) {
        if (stopped) return;
        opts.log('stream queue poll failed; retrying', { error: String(error) });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      abort.abort();
      await loop;
      await snsClient()
        .send(new UnsubscribeCommand({ SubscriptionArn }))
        .catch(() => {});
      await sqs.send(new DeleteQueueCommand({ QueueUrl })).catch(() => {});
      sqs.destroy();
    },
  };
}
