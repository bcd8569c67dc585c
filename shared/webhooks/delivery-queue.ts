/**
 * The delivery queue: one SQS message per (event, endpoint) attempt. A message carries what its
 * attempt needs except the endpoint (read fresh before every attempt: URL, secret, enabled) and
 * is re-sent, never kept in flight, while it waits: a failed attempt sends the next one with
 * DelaySeconds, and a message received before it is due sends itself on for the rest of the
 * wait (a hop of at most 900 s). docs/webhook-delivery.md has the design and its cost.
 */
import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';
import { config } from '../config.ts';
import type { DeliveryMessage } from './delivery-message.ts';
import { maxDelaySeconds } from './retry-schedule.ts';

export type { DeliveryMessage } from './delivery-message.ts';

let client: SQSClient | undefined;

function sqs(): SQSClient {
  client ??= sqsClient();
  return client;
}

function queueUrl(): string {
  const url = config().webhooks.queueUrl;
  if (!url) throw new Error('FSM_WEBHOOK_QUEUE_URL is not set: webhook deliveries cannot be queued');
  return url;
}

/**
 * A message as SQS takes it. SQS accepts only #x9, #xA, #xD, #x20–#xD7FF, #xE000–#xFFFD and
 * (on AWS, not in every emulator) #x10000–#x10FFFF; JSON.stringify already escapes control
 * characters and lone surrogates, so what is left are astral characters (emoji in a comment, a
 * reaction, a case title) and U+FFFE/U+FFFF: they go as `\uXXXX` escapes, which JSON.parse reads
 * back to the same string, so the body a receiver gets (and its signature) is unchanged.
 */
export function messageBodyOf(message: DeliveryMessage): string {
  return JSON.stringify(message).replace(/[\u{10000}-\u{10FFFF}\uFFFE\uFFFF]/gu, (character) => {
    let escaped = '';
    for (let i = 0; i < character.length; i++) {
      escaped += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
    }
    return escaped;
  });
}

/** Whole seconds SQS can delay (at most 900); the rest is a further hop. */
export function delaySecondsFor(waitMs: number): number {
  return Math.max(0, Math.min(maxDelaySeconds, Math.ceil(waitMs / 1000)));
}

/** First attempts, 10 per SendMessageBatch call, four calls in flight. */
export async function enqueueDeliveries(messages: readonly DeliveryMessage[]): Promise<void> {
  const chunks: DeliveryMessage[][] = [];
  for (let start = 0; start < messages.length; start += 10) chunks.push(messages.slice(start, start + 10));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(4, chunks.length) }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++] ?? [];
        const { Failed } = await sqs().send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl(),
            Entries: chunk.map((message, i) => ({
              Id: String(i),
              MessageBody: messageBodyOf(message),
              ...traceAttributes(message),
            })),
          }),
        );
        if (Failed?.length) {
          throw new Error(`enqueueing webhook deliveries failed: ${Failed.map((f) => f.Code).join(', ')}`);
        }
      }
    }),
  );
}

/** Sends a message that waits until its due_at: the next attempt, or the next hop of a wait. */
export async function enqueueDelayed(message: DeliveryMessage, now = Date.now()): Promise<void> {
  const waitMs = message.due_at ? Date.parse(message.due_at) - now : 0;
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueUrl(),
      MessageBody: messageBodyOf(message),
      DelaySeconds: delaySecondsFor(waitMs),
      ...traceAttributes(message),
    }),
  );
}

/**
 * The trace of the write that caused the delivery, as SQS's AWSTraceHeader: the delivery
 * function's invocation (and its HTTP attempt) then belongs to that trace.
 */
function traceAttributes(message: DeliveryMessage) {
  return message.trace
    ? { MessageSystemAttributes: { AWSTraceHeader: { DataType: 'String', StringValue: message.trace } } }
    : {};
}
