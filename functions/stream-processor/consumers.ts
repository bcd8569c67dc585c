/**
 * Which consumers each group of the stream processor runs: the wiring of the outbox consumers,
 * read by this function's handler on AWS and by the local stack's pollers
 * (shared/local-stack/local-stack.ts). The groups read the stream independently (each its own
 * Lambda event source mapping on AWS, its own poller and checkpoint locally), so that what
 * users wait for never queues behind bulk projections:
 *
 * - `records`: the audit log, a BatchWriteItem per 25 events; on a busy table these writes wait
 *   in line with every API write (seconds on DynamoDB Local under load). Also the deletion of a
 *   deleted device's telemetry history and of a deleted custom-object definition's instances
 *   and relations, in bounded steps. And the prompt generation of a maintenance plan's cases
 *   after its create or edit (plan-generation.consumer.ts).
 * - `live`: webhook dispatch (a Query of a workspace's endpoints and SQS sends per batch), the
 *   event stream's fan-out to every node (SNS publishes), and new optimization runs to the
 *   solver queue (SQS sends).
 *
 * Two groups, not one per consumer: DynamoDB Streams serves at most two readers per shard
 * without throttling. What a consumer must do is its contract (shared/events/consumers.ts).
 */

import { enqueueApplies } from '../../shared/aws/apply-queue.ts';
import { enqueueSolverRuns } from '../../shared/aws/solver-queue.ts';
import { recordAuditEntries } from '../../shared/domain/audit-logs/audit-log.recorder.ts';
import { customObjectPurger } from '../../shared/domain/custom-objects/custom-object-purge.consumer.ts';
import { relationAssociationPurger } from '../../shared/domain/custom-objects/relation-purge.ts';
import { deviceHistoryPurger } from '../../shared/domain/devices/device-history.consumer.ts';
import { planGenerationConsumer } from '../../shared/domain/maintenance-plans/plan-generation.consumer.ts';
import { applyDispatcher } from '../../shared/domain/optimization-runs/apply-dispatch.consumer.ts';
import { solverDispatcher } from '../../shared/domain/optimization-runs/solver-dispatch.consumer.ts';
import { syncIndexer } from '../../shared/domain/sync/sync-indexer.consumer.ts';
import type { ConsumerGroup } from '../../shared/events/consumer-groups.ts';
import type { EventConsumer } from '../../shared/events/consumers.ts';
import { streamPublisher } from '../../shared/realtime/fanout.ts';
import { webhookDispatcher } from '../../shared/webhooks/dispatch.ts';

export const consumerGroups = {
  records: [
    { name: 'audit-log', handleBatch: recordAuditEntries },
    deviceHistoryPurger,
    customObjectPurger,
    relationAssociationPurger,
    syncIndexer,
    planGenerationConsumer,
  ],
  live: [
    webhookDispatcher(),
    streamPublisher(),
    solverDispatcher(enqueueSolverRuns),
    applyDispatcher(enqueueApplies),
  ],
} as const satisfies Record<ConsumerGroup, readonly EventConsumer[]>;
