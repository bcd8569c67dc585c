/**
 * The consumers of the domain-event stream, in two groups that read the stream independently
 * (each its own Lambda event source mapping on AWS, its own poller and checkpoint locally), so
 * that what users wait for never queues behind bulk projections:
 *
 * - `records`: the audit log, a BatchWriteItem per 25 events; on a busy table these writes wait
 *   in line with every API write (seconds on DynamoDB Local under load). Also the deletion of a
 *   deleted device's telemetry history and of a deleted custom-object definition's instances
 *   and relations, in bounded steps.
 * - `live`: webhook dispatch (a Query of a workspace's endpoints and SQS sends per batch) and
 *   the event stream's fan-out to every node (SNS publishes).
 *
 * Two groups, not one per consumer: DynamoDB Streams serves at most two readers per shard
 * without throttling. Each consumer takes a whole stream batch in stream order and must be
 * idempotent: a failed batch is handed over again. Batches, not single events, because a
 * consumer that makes one call per event falls behind a busy table (bench/webhooks.bench.ts
 * measured 8–10 events/s that way).
 */

import { recordAuditEntries } from '../domain/audit-logs/audit-log.recorder.ts';
import { customObjectPurger } from '../domain/custom-objects/custom-object-purge.consumer.ts';
import { relationAssociationPurger } from '../domain/custom-objects/relation-purge.ts';
import { deviceHistoryPurger } from '../domain/devices/device-history.consumer.ts';
import { streamPublisher } from '../realtime/fanout.ts';
import { webhookDispatcher } from '../webhooks/dispatch.ts';
import type { ConsumerGroup } from './consumer-groups.ts';
import type { DomainEvent } from './domain-event.ts';

export { type ConsumerGroup, consumerGroupNames, isConsumerGroup } from './consumer-groups.ts';

export interface EventConsumer {
  name: string;
  handleBatch(events: readonly DomainEvent[]): Promise<void>;
}

export const consumerGroups = {
  records: [
    { name: 'audit-log', handleBatch: recordAuditEntries },
    deviceHistoryPurger,
    customObjectPurger,
    relationAssociationPurger,
  ],
  live: [webhookDispatcher(), streamPublisher()],
} as const satisfies Record<ConsumerGroup, readonly EventConsumer[]>;
