/**
 * Lambda on the apply queue and its dead-letter queue (lib/apply-worker.ts): each message is one
 * requested apply of an optimization run's plan (shared/domain/optimization-runs/apply-job.ts). A
 * message from the dead-letter queue undoes its apply and ends it FAILED. A record is reported
 * failed when its job did not finish (a write the table refused for good, a crash): SQS hands it
 * out again after the visibility timeout, and the job, taken up again, finishes or undoes its own
 * writes (its journal says which).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  processApplyMessage,
  processDeadApplyMessage,
} from '../../shared/domain/optimization-runs/apply-job.ts';
import { observedWorker } from '../../shared/observability/lambda-observability.ts';
import { logger } from '../../shared/observability/logger.ts';

const log = (message: string, details?: Record<string, unknown>) => logger.warn(message, details ?? {});
const deadLetterQueueArn = process.env.FSM_APPLY_DLQ_ARN;

export const handler = observedWorker('apply-worker', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      if (deadLetterQueueArn && record.eventSourceARN === deadLetterQueueArn) {
        await processDeadApplyMessage(record.body, { log });
      } else {
        await processApplyMessage(record.body, { messageId: record.messageId }, { log });
      }
    } catch (error) {
      logger.error('apply message not settled; SQS will hand it out again', {
        messageId: record.messageId,
        error: String(error),
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
