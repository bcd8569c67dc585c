/**
 * Lambda on the table's stream (the outbox): dispatches domain events to their consumers.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { consumers } from '../../shared/events/consumers.ts';
import { processStreamBatch } from '../../shared/events/stream-processor.ts';
import { logger } from '../../shared/observability/logger.ts';

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  return processStreamBatch(event, consumers, (message, details) => logger.error(message, details));
}
