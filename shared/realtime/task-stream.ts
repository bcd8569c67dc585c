/**
 * The event stream of one Fargate task (bin/serve-container.ts): a StreamHub fed by a queue of
 * the task's own on the fan-out topic (fanout.ts), kept alive and swept (node-queues.ts).
 * docs/event-stream.md has the design.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '../observability/logger.ts';
import { type EventStreamEndpoint, eventStreamEndpoint } from './event-stream.ts';
import { subscribeNode } from './fanout.ts';
import { nodeQueues } from './node-queues.ts';
import type { StreamHub } from './stream-hub.ts';

const sweepEveryMs = 15 * 60_000;

export interface TaskStream {
  endpoint: EventStreamEndpoint;
  stop(): Promise<void>;
}

/**
 * This task's share of the event stream: its own queue on the fan-out topic, subscribed before
 * the task serves (a task is healthy only once it receives the stream's events), its heartbeat,
 * and the sweep of queues that crashed tasks left behind. Undefined where the stream is not
 * configured (FSM_STREAM_TOPIC_ARN, FSM_STREAM_QUEUE_PREFIX: lib/stream-fanout.ts).
 * `onQueueLost`: the queue was deleted under the task (it was silent too long); the task should
 * stop, so that a new one takes over.
 */
export async function startTaskStream(opts: {
  hub: StreamHub;
  onQueueLost: () => void;
}): Promise<TaskStream | undefined> {
  const { hub } = opts;
  const topicArn = process.env.FSM_STREAM_TOPIC_ARN;
  const prefix = process.env.FSM_STREAM_QUEUE_PREFIX;
  if (!topicArn || !prefix) {
    logger.warn('FSM_STREAM_TOPIC_ARN or FSM_STREAM_QUEUE_PREFIX is not set: the event stream is not served');
    return undefined;
  }
  const queues = nodeQueues({ topicArn, prefix });
  const sweep = (own?: string) =>
    queues.sweep(own).catch((error: unknown) => {
      logger.warn('sweeping stale stream queues failed', { error: String(error) });
    });
  await sweep();
  const ownPrefix = `${prefix}-${await nodeId()}`;
  const subscription = await subscribeNode({
    topicArn,
    queuePrefix: ownPrefix,
    deliver: (event) => hub.publish(event),
    log: (message, details) => logger.warn(message, details),
  });
  let heartbeat: { stop(): void };
  try {
    heartbeat = await queues.keepAlive(ownPrefix, () => {
      logger.error("this task's stream queue was deleted; stopping so that a new task takes over");
      opts.onQueueLost();
    });
  } catch (error) {
    await subscription.stop();
    throw error;
  }
  const sweeper = setInterval(() => void sweep(ownPrefix), sweepEveryMs);
  sweeper.unref();
  return {
    endpoint: eventStreamEndpoint(hub),
    async stop() {
      clearInterval(sweeper);
      heartbeat.stop();
      await subscription.stop();
      queues.destroy();
    },
  };
}

/** This task's id (ECS task metadata), so that a queue names its task; a random id elsewhere. */
async function nodeId(): Promise<string> {
  const metadata = process.env.ECS_CONTAINER_METADATA_URI_V4;
  if (metadata) {
    try {
      const response = await fetch(`${metadata}/task`, { signal: AbortSignal.timeout(2_000) });
      const id = ((await response.json()) as { TaskARN?: string }).TaskARN?.split('/').at(-1);
      if (id && /^[a-z0-9]{1,40}$/.test(id)) return id;
    } catch (error) {
      logger.warn('ECS task metadata unreadable; the stream queue gets a random name', {
        error: String(error),
      });
    }
  }
  return randomUUID().slice(0, 8);
}
