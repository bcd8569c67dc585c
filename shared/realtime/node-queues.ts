/**
 * Queues of crashed tasks. A task that stops removes its queue and subscription; one that is
 * killed (out of memory, a host failure) cannot, and SNS would go on filling its queue. So every
 * task tags its queue `fsm:alive-at` each minute, and sweeps the topic's subscriptions at start
 * and every 15 minutes (task-stream.ts): a queue of this environment that has given no sign of
 * life for 10 minutes (the tag, or its creation time when it never got one) is unsubscribed and
 * deleted. A task that finds its own queue deleted (it was silent too long) stops, and ECS
 * replaces it.
 */
import { ListSubscriptionsByTopicCommand, UnsubscribeCommand } from '@aws-sdk/client-sns';
import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueueTagsCommand,
  TagQueueCommand,
} from '@aws-sdk/client-sqs';
import { snsClient, sqsClient } from '../aws/clients.ts';
import { logger } from '../observability/logger.ts';

const aliveTag = 'fsm:alive-at';
const aliveEveryMs = 60_000;
const staleAfterSeconds = 600;

function isMissingQueue(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  return name === 'QueueDoesNotExist' || name === 'AWS.SimpleQueueService.NonExistentQueue';
}

/**
 * The queues of one environment's stream tasks on the fan-out topic (the subscriptions whose
 * queue is named `<prefix>-…`): sweeping those of stopped tasks, and keeping this task's alive.
 */
export function nodeQueues(opts: { topicArn: string; prefix: string }) {
  // Calls on the way of no request, but bounded all the same: a hanging emulator or SQS fails a
  // sweep or a heartbeat (both retried later), it does not stall the task.
  const sns = snsClient();
  const sqs = sqsClient();

  async function* subscriptions() {
    let NextToken: string | undefined;
    do {
      const page = await sns.send(
        new ListSubscriptionsByTopicCommand({ TopicArn: opts.topicArn, NextToken }),
      );
      for (const { Protocol, Endpoint, SubscriptionArn } of page.Subscriptions ?? []) {
        // Pending subscriptions have no ARN yet (SQS subscriptions of the same account never are).
        if (Protocol !== 'sqs' || !Endpoint || !SubscriptionArn?.startsWith('arn:')) continue;
        const queueName = Endpoint.split(':').at(-1) ?? '';
        if (queueName.startsWith(`${opts.prefix}-`)) yield { subscriptionArn: SubscriptionArn, queueName };
      }
      NextToken = page.NextToken;
    } while (NextToken);
  }

  async function queueUrlOf(queueName: string): Promise<string | undefined> {
    try {
      return (await sqs.send(new GetQueueUrlCommand({ QueueName: queueName }))).QueueUrl;
    } catch (error) {
      if (isMissingQueue(error)) return undefined;
      throw error;
    }
  }

  /** Seconds since the epoch of the queue's last sign of life. */
  async function lastSignOfLife(queueUrl: string): Promise<number> {
    const { Tags } = await sqs.send(new ListQueueTagsCommand({ QueueUrl: queueUrl }));
    const alive = Number(Tags?.[aliveTag]);
    if (Number.isFinite(alive) && alive > 0) return alive;
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['CreatedTimestamp'] }),
    );
    return Number(Attributes?.CreatedTimestamp ?? 0);
  }

  // A subscription whose queue is missing is removed at the second sweep that finds it so, in
  // case the queue was only not yet visible.
  let missingBefore = new Set<string>();

  return {
    /** Removes the subscriptions and queues of tasks that gave no sign of life; skips `own`. */
    async sweep(own?: string): Promise<void> {
      const now = Date.now() / 1000;
      const missing = new Set<string>();
      for await (const { subscriptionArn, queueName } of subscriptions()) {
        if (own && queueName.startsWith(`${own}-`)) continue;
        const queueUrl = await queueUrlOf(queueName);
        if (!queueUrl) {
          if (!missingBefore.has(subscriptionArn)) missing.add(subscriptionArn);
          else await sns.send(new UnsubscribeCommand({ SubscriptionArn: subscriptionArn }));
          continue;
        }
        const silentSeconds = Math.round(now - (await lastSignOfLife(queueUrl)));
        if (silentSeconds < staleAfterSeconds) continue;
        await sns.send(new UnsubscribeCommand({ SubscriptionArn: subscriptionArn }));
        await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
        logger.warn('removed the stream queue of a task that stopped without removing it', {
          queue: queueName,
          silentSeconds,
        });
      }
      missingBefore = missing;
    },

    /**
     * Tags this task's queue (named `<ownPrefix>-…` by subscribeNode) now and every minute;
     * `onLost` runs when the queue is gone.
     */
    async keepAlive(ownPrefix: string, onLost: () => void): Promise<{ stop(): void }> {
      let queueUrl: string | undefined;
      for (let attempt = 0; attempt < 10 && !queueUrl; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
        for await (const { queueName } of subscriptions()) {
          if (queueName.startsWith(`${ownPrefix}-`)) queueUrl = await queueUrlOf(queueName);
        }
      }
      if (!queueUrl) throw new Error(`no subscription of a queue ${ownPrefix}-* on the stream topic`);
      const url = queueUrl;
      const tag = () =>
        sqs.send(
          new TagQueueCommand({ QueueUrl: url, Tags: { [aliveTag]: String(Math.floor(Date.now() / 1000)) } }),
        );
      // The first tag must land: a task whose queue cannot be tagged would be swept by the others.
      await tag();
      const timer = setInterval(() => {
        tag().catch((error: unknown) => {
          if (isMissingQueue(error)) onLost();
          else logger.warn('stream queue heartbeat failed; retrying in a minute', { error: String(error) });
        });
      }, aliveEveryMs);
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },

    destroy(): void {
      sns.destroy();
      sqs.destroy();
    },
  };
}
