/**
 * Reads outbox records from the table stream and hands each domain event to every consumer,
 * in stream order. On AWS this runs in the stream-processor Lambda (its event-source filter
 * already drops non-outbox records); locally the stream poller calls the same function.
 * A failure reports the record as the batch's first failure, so Lambda (or the poller)
 * retries from there and nothing after it is skipped.
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
  for (const consumer of consumers) consumer.beginBatch?.();
  for (const record of batch.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (item.entity !== outboxEntity) continue;
    const event = item.event as DomainEvent;
    try {
      for (const consumer of consumers) await consumer.handle(event);
    } catch (error) {
      log('event consumer failed', { eventId: event.id, type: event.type, error: String(error) });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
