/**
 * Reads outbox records from the table stream and hands the batch's domain events, in stream
 * order, to every consumer; the consumers run side by side. On AWS this runs in the
 * stream-processor Lambda (its event-source filter already drops non-outbox records); locally
 * the stream poller calls the same function. A failure reports the batch's first outbox record
 * as the first failure, so Lambda (or the poller) hands the whole batch over again and nothing
 * is skipped; consumers are idempotent, and webhook deliveries keep their ids.
 *
 * With `tallies` (the `records` group), the batch's tally items are applied first: the shared
 * counter changes of writes whose writer did not apply them itself (data/tally.ts).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { outboxEntity } from '../data/outbox.ts';
import { applyTallies, type Tally, tallyOfItem } from '../data/tally.ts';
import type { EventConsumer } from './consumers.ts';
import type { DomainEvent } from './domain-event.ts';

export async function processStreamBatch(
  batch: DynamoDBStreamEvent,
  consumers: readonly EventConsumer[],
  log: (message: string, details: Record<string, unknown>) => void = () => {},
  options: { tallies?: boolean } = {},
): Promise<DynamoDBBatchResponse> {
  const events: DomainEvent[] = [];
  const tallies: Tally[] = [];
  let first: string | undefined;
  let firstTally: string | undefined;
  for (const record of batch.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    const tally = options.tallies ? tallyOfItem(item) : undefined;
    if (tally) {
      firstTally ??= record.dynamodb?.SequenceNumber ?? '';
      tallies.push(tally);
      continue;
    }
    if (item.entity !== outboxEntity) continue;
    first ??= record.dynamodb?.SequenceNumber ?? '';
    events.push(item.event as DomainEvent);
  }
  // Tallies their writers did not apply (data/tally.ts); the applied ones are gone, and skipped.
  if (tallies.length > 0) {
    try {
      await applyTallies(tallies, 12, { waitingOnly: true });
    } catch (error) {
      log('tally apply failed', { tallies: tallies.length, error: String(error) });
      const from = [first, firstTally].filter((at): at is string => at !== undefined).sort(bySequence)[0];
      return { batchItemFailures: [{ itemIdentifier: from ?? '' }] };
    }
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

/** Stream sequence numbers are decimal strings of up to 40 digits: compared by length, then text. */
function bySequence(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
