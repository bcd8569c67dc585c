/**
 * Reads outbox records from the table stream and hands the batch's domain events, in stream
 * order, to every consumer; the consumers run side by side. On AWS this runs in the
 * stream-processor Lambda (its event-source filter already drops non-outbox records); locally
 * the stream poller calls the same function. A failure reports the batch's first outbox record
 * as the first failure, so Lambda (or the poller) hands the whole batch over again and nothing
 * is skipped; consumers are idempotent, and webhook deliveries keep their ids.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { outboxEntity } from '../data/outbox.ts';
import type { EventConsumer } from './consumers.ts';
import type { DomainEvent } from './domain-event.ts';

export async function processStreamBatch(
  batch: DynamoDBStreamEvent,
  consumers: readonly EventConsumer[],
  log: (message: string, details: Record<string, unknown>) => void = () => {},
): Promise<DynamoDBBatchResponse> {
  const events: DomainEvent[] = [];
  let first: string | undefined;
  for (const record of batch.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (item.entity !== outboxEntity) continue;
    first ??= record.dynamodb?.SequenceNumber ?? '';
    events.push(item.event as DomainEvent);
  }
  if (events.length === 0) return { batchItemFailures: [] };
  const settled = await Promise.allSettled(consumers.map((consumer) => consumer.handleBatch(events)));
  const failed = settled.flatMap((result, i) =>
    result.status === 'rejected' ? [{ consumer: consumers[i]?.name, error: String(result.reason) }] : [],
  );
  if (failed.length === 0) return { batchItemFailures: [] };
  log('event consumer failed', { events: events.length, firstEventId: events[0]?.id, failed });
  return { batchItemFailures: [{ itemIdentifier: first ?? '' }] };
}
