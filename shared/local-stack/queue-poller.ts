/**
 * On AWS an SQS event-source mapping invokes a queue's Lambda (webhook delivery, the solver);
 * locally this poller plays that part against the SQS emulator, calling the same worker code:
 * long-polled receives of up to `batchSize` (default 10) messages, handled concurrently, successes deleted in one batch, failures left to come back
 * after the visibility timeout, and a message that failed `maxReceives` times moved to the
 * dead-letter queue (what the queue's redrive policy does on AWS).
 */
import {
  ChangeMessageVisibilityCommand,
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
  /** Messages per receive (default 10). */
  batchSize?: number;
  /** Names the queue in log lines (default `webhook`). */
  name?: string;
  /**
   * Seconds a message stays hidden while its handler runs: the poller extends its visibility
   * timeout to this every half of it, so a live handler's message never comes back, as on AWS a
   * message never outlives a live invocation (the function's timeout is below the queue's
   * visibility timeout); a handler that died lets it come back this long after.
   */
  keepHidden?: number;
  /** `message.messageId` stays the same when SQS hands a message out again (as on AWS). */
  handle: (body: string, message: { messageId: string; receiveCount: number }) => Promise<void>;
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
  const name = opts.name ?? 'webhook';

  /** Keeps `message` hidden while its handler runs (`keepHidden`); returns the stop. */
  function hiddenWhileHandled(message: Message): () => void {
    if (!opts.keepHidden || !message.ReceiptHandle) return () => {};
    const seconds = opts.keepHidden;
    const timer = setInterval(
      () => {
        sqs
          .send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: opts.queueUrl,
              ReceiptHandle: message.ReceiptHandle,
              VisibilityTimeout: seconds,
            }),
          )
          .catch(() => {});
      },
      (seconds * 1000) / 2,
    );
    return () => clearInterval(timer);
  }

  async function settle(message: Message): Promise<string | undefined> {
    const release = hiddenWhileHandled(message);
    try {
      await opts.handle(message.Body ?? '', {
        messageId: message.MessageId ?? '',
        receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 1),
      });
      return message.ReceiptHandle;
    } catch (error) {
      const receives = Number(message.Attributes?.ApproximateReceiveCount ?? 1);
      if (receives < maxReceives) {
        opts.log(`${name} message not settled; it comes back after its visibility timeout`, {
          messageId: message.MessageId,
          receives,
          error: String(error),
        });
        return undefined;
      }
      opts.log(`${name} message failed too often; moved to the dead-letter queue`, {
        messageId: message.MessageId,
        receives,
        error: String(error),
      });
      await sqs.send(
        new SendMessageCommand({ QueueUrl: opts.deadLetterQueueUrl, MessageBody: message.Body ?? '' }),
      );
      return message.ReceiptHandle;
    } finally {
      release();
    }
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: opts.queueUrl,
            MaxNumberOfMessages: opts.batchSize ?? 10,
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
        opts.log(`${name} queue poll failed; retrying`, { error: String(error) });
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

/**
 * The poller of a dead-letter queue whose messages a worker also takes (the solver's, the apply
 * worker's): one loop, a message retried until its handler settles it (a dead letter has nowhere
 * further to go).
 */
export function startDeadLetterPoller(
  opts: Pick<QueuePollerOptions, 'endpoint' | 'region' | 'log' | 'keepHidden'> & {
    deadLetterQueueUrl: string;
    name: string;
    handle: (body: string) => Promise<void>;
  },
): QueuePoller {
  return startQueuePoller({
    ...opts,
    queueUrl: opts.deadLetterQueueUrl,
    loops: 1,
    maxReceives: Number.MAX_SAFE_INTEGER,
  });
}
