/**
 * Lambda on the table's stream (the outbox): hands domain events to one consumer group
 * (FSM_STREAM_CONSUMERS: `records` or `live`, consumers.ts). Each group is its own function
 * with its own event source mapping, so the groups never wait for each other.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { appliesTallies, isConsumerGroup } from '../../shared/events/consumer-groups.ts';
import { processStreamBatch } from '../../shared/events/stream-processor.ts';
import { observedWorker } from '../../shared/observability/lambda-observability.ts';
import { logger } from '../../shared/observability/logger.ts';
import { consumerGroups } from './consumers.ts';

const group = process.env.FSM_STREAM_CONSUMERS;
if (!isConsumerGroup(group)) {
  throw new Error(`FSM_STREAM_CONSUMERS must name a consumer group, got ${String(group)}`);
}
const consumers = consumerGroups[group];

export const handler = observedWorker(
  `stream-processor-${group}`,
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
    processStreamBatch(event, consumers, (message, details) => logger.error(message, details), {
      tallies: appliesTallies(group),
    }),
);
