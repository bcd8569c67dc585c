/**
 * Lambda on the solver queue and its dead-letter queue (lib/solver.ts): each message is one
 * optimization run to solve (shared/domain/optimization-runs/solver-job.ts), solved inline (the
 * function serves one run per invocation, so nothing waits for its thread; solver-port.ts). A
 * message from the dead-letter queue fails its run. A record is reported failed only when its run
 * could not be written at all; SQS then hands it out again.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { amazonLocationTravel } from '../../shared/aws/location-route-matrix.ts';
import {
  processDeadSolverMessage,
  processSolverMessage,
} from '../../shared/domain/optimization-runs/solver-job.ts';
import { inlineSolver } from '../../shared/domain/optimization-runs/solver-port.ts';
import { travelPortFor } from '../../shared/domain/optimization-runs/travel-selection.ts';
import { observedWorker } from '../../shared/observability/lambda-observability.ts';
import { logger } from '../../shared/observability/logger.ts';

const log = (message: string, details?: Record<string, unknown>) => logger.warn(message, details ?? {});
const amazonLocation = amazonLocationTravel();
const deadLetterQueueArn = process.env.FSM_SOLVER_DLQ_ARN;

export const handler = observedWorker(
  'optimizer-worker',
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        if (deadLetterQueueArn && record.eventSourceARN === deadLetterQueueArn) {
          await processDeadSolverMessage(record.body, log);
        } else {
          await processSolverMessage(
            record.body,
            { messageId: record.messageId },
            {
              solver: inlineSolver,
              travelFor: (workspaceId) => travelPortFor(workspaceId, { amazonLocation }),
              log,
            },
          );
        }
      } catch (error) {
        logger.error('solver message not settled; SQS will hand it out again', {
          messageId: record.messageId,
          error: String(error),
        });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  },
);
