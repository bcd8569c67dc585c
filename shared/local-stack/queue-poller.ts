/**
 * On AWS an SQS event-source mapping invokes the delivery Lambda; locally this poller plays that
 * part against the SQS emulator, calling the same worker code: long-polled receives of up to 10
 * messages, handled concurrently, successes deleted in one batch, failures left to come back
 * after the visibility timeout, and a message that failed `maxReceives` times moved to the
 * dead-letter queue (what the queue's redrive policy does on AWS).
 */
import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';

export interface QueuePollerOptions {
  endpoint: string;
  region: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
  /** Receive loops running at once (each holds up to 10 messages). */
  loops?: number;
  /** Receives after which a message that keeps failing goes to the dead-letter queue. */
  maxReceives?: number;
  handle: (body: string) => Promise<void>;
  log: (message: string, details?: Record<string, unknown>) => void;
}

export interface QueuePoller {
  stop(): Promise<void>;
}

export function startQueuePoller(opts: QueuePollerOptions): QueuePoller {
  // Receives wait up to 2 s for messages (long polling).
  const sqs = sqsClient({ endpoint: opts.endpoint, region: opts.region, deadlines: 'long-poll' });
  const abort = new AbortController();
  const maxReceives = opts.maxReceives ?? 5;
  let stopped = false;

  async function settle(message: Message): Promise<string | undefined> {
    try {
      await opts.handle(message.Body ?? '');
      return message.ReceiptHandle;
    } catch (error) {
      const receives = Number(message.Attributes?.ApproximateReceiveCount ?? 1);
      if (receives < maxReceives) {
        opts.log('webhook message not settled; it comes back after its visibility timeout', {
          messageId: message.MessageId,
          receives,
          error: String(error),
        });
        return undefined;
      }
      opts.log('webhook message failed too often; moved to the dead-letter queue', {
        messageId: message.MessageId,
        receives,
        error: String(error),
      });
      await sqs.send(
        new SendMessageCommand({ QueueUrl: opts.deadLetterQueueUrl, MessageBody: message.Body ?? '' }),
      );
      return message.ReceiptHandle;
    }
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: opts.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 2,
            MessageSystemAttributeNames: ['ApproximateReceiveCount'],
          }),
          { abortSignal: abort.signal },
        );
        if (Messages.length === 0) continue;
        const done = (await Promise.all(Messages.map(settle))).filter((handle): handle is string => !!handle);
        if (done.length > 0) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: opts.queueUrl,
              Entries: done.map((ReceiptHandle, i) => ({ Id: String(i), ReceiptHandle })),
            }),
          );
        }
      } catch (error) {
        if (stopped) return;
        opts.log('webhook queue poll failed; retrying', { error: String(error) });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  const loops = Array.from({ length: opts.loops ?? 4 }, () => loop());
  return {
    async stop() {
      stopped = true;
      abort.abort();
      await Promise.allSettled(loops);
      sqs.destroy();
    },
  };
}
