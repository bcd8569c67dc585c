/**
 * Lambda on the webhook delivery queue: each message is one attempt (delivery-worker.ts),
 * handled concurrently. A message is reported failed only when the worker could not settle it
 * (store or queue unreachable); SQS then hands it out again after its visibility timeout.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { observedWorker } from '../../shared/observability/lambda-observability.ts';
import { logger } from '../../shared/observability/logger.ts';
import { processDeliveryMessage } from '../../shared/webhooks/delivery-worker.ts';

const log = (message: string, details: Record<string, unknown>) => logger.warn(message, details);

export const handler = observedWorker(
  'webhook-delivery',
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const settled = await Promise.allSettled(
      event.Records.map((record) => processDeliveryMessage(record.body, log)),
    );
    const batchItemFailures = settled.flatMap((result, i) => {
      if (result.status === 'fulfilled') return [];
      logger.error('webhook message not settled; SQS will hand it out again', {
        messageId: event.Records[i]?.messageId,
        error: String(result.reason),
      });
      return [{ itemIdentifier: event.Records[i]?.messageId ?? '' }];
    });
    return { batchItemFailures };
  },
);
