/**
 * The Fargate container (lib/realtime.ts): one node:http server for the long-lived and
 * stateful endpoints that do not fit Lambda:
 *
 * - /realms/*: the identity provider;
 * - GET /api/v2/events/stream: the event stream, as `npm start` serves it (a StreamHub fed by a
 *   queue of this task's own on the fan-out topic; shared/realtime/, docs/event-stream.md);
 * - /health for the load balancer.
 *
 * Environment: PORT, FSM_SIGNING_JWKS (from Secrets Manager), FSM_STREAM_TOPIC_ARN and
 * FSM_STREAM_QUEUE_PREFIX (lib/stream-fanout.ts) and the FSM_* of shared/config.ts. Without
 * the two stream variables the stream is not served (503), the identity provider still is.
 *
 * On SIGTERM: /health fails, the stream's connections are closed (clients reconnect through
 * the load balancer to another task, which replays from the outbox), the subscription is
 * removed (unsubscribe, delete the queue), then the process exits.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { ListSubscriptionsByTopicCommand, SNSClient, UnsubscribeCommand } from '@aws-sdk/client-sns';
import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueueTagsCommand,
  SQSClient,
  TagQueueCommand,
} from '@aws-sdk/client-sqs';
import { deadlineConfig, withTotalDeadline } from '../shared/aws/client-deadlines.ts';
import { withoutPerCallExtras } from '../shared/aws/lean-client.ts';
import { config } from '../shared/config.ts';
import { tableIdentityDirectory } from '../shared/data/directory.store.ts';
import { accountService } from '../shared/domain/users/account.service.ts';
import { ProblemError } from '../shared/http/problem.ts';
import { createIdentityServer } from '../shared/identity/identity-server.ts';
import { oidcAdapterFactory } from '../shared/identity/oidc-storage.ts';
import { staticSigningKeyStore } from '../shared/identity/signing-keys.ts';
import { watchEventLoop } from '../shared/observability/event-loop-watch.ts';
import { logger } from '../shared/observability/logger.ts';
import { type EventStreamEndpoint, eventStreamEndpoint } from '../shared/realtime/event-stream.ts';
import { subscribeNode } from '../shared/realtime/fanout.ts';
import { StreamHub } from '../shared/realtime/stream-hub.ts';
import { eventStreamPath } from '../shared/routes/groups/stream.routes.ts';
import { problemOnly, writeResult } from '../shared/server/lambda-http-adapter.ts';
import {
  answerClientErrors,
  keepConnectionsUsable,
  limitedServerOptions,
  requestLimitProblem,
} from '../shared/server/request-limits.ts';

const port = Number(process.env.PORT ?? 8080);
const keys = staticSigningKeyStore(process.env.FSM_SIGNING_JWKS ?? '');
await keys.privateJwks();

const identity = createIdentityServer({
  authUrl: config().authUrl,
  audience: config().apiAudience,
  directory: tableIdentityDirectory,
  accounts: accountService,
  keys,
  adapterFactory: oidcAdapterFactory,
});

// ---------------------------------------------------------------------------------------------
// Queues of crashed tasks. A task that stops removes its queue and subscription; one that is
// killed (out of memory, a host failure) cannot, and SNS would go on filling its queue. So every
// task tags its queue `fsm:alive-at` each minute, and sweeps the topic's subscriptions at start
// and every 15 minutes: a queue of this environment that has given no sign of life for 10
// minutes (the tag, or its creation time when it never got one) is unsubscribed and deleted.
// A task that finds its own queue deleted (it was silent too long) stops, and ECS replaces it.
// ---------------------------------------------------------------------------------------------

const aliveTag = 'fsm:alive-at';
const aliveEveryMs = 60_000;
const staleAfterSeconds = 600;
const sweepEveryMs = 15 * 60_000;

function streamClients() {
  const { region, endpoints } = config();
  const options = {
    region,
    ...(endpoints.sqs
      ? { endpoint: endpoints.sqs, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    ...deadlineConfig(),
  };
  return {
    sns: withTotalDeadline(withoutPerCallExtras(new SNSClient(options))),
    sqs: withTotalDeadline(withoutPerCallExtras(new SQSClient(options))),
  };
}

function isMissingQueue(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  return name === 'QueueDoesNotExist' || name === 'AWS.SimpleQueueService.NonExistentQueue';
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

function nodeQueues(opts: { topicArn: string; prefix: string }) {
  const { sns, sqs } = streamClients();

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

// ---------------------------------------------------------------------------------------------
// The event stream of this task.
// ---------------------------------------------------------------------------------------------

interface TaskStream {
  endpoint: EventStreamEndpoint;
  stop(): Promise<void>;
}

const hub = new StreamHub({ timeScale: () => config().webhooks.timeScale });

async function startStream(): Promise<TaskStream | undefined> {
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
      void shutdown(1);
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

// Subscribed before listening: a task is healthy only once it receives the stream's events.
const stream = await startStream();

let draining = false;
const server = createServer(limitedServerOptions, async (req, res) => {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  try {
    const limit = requestLimitProblem(req);
    if (limit) {
      const result = problemOnly(limit, path);
      writeResult(res, result);
      return;
    }
    if (path === '/health') {
      // While draining, fail the health check so the load balancer stops sending new work.
      res.writeHead(draining ? 503 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: draining ? 'draining' : 'ok' }));
      return;
    }
    if (path.startsWith('/realms/')) {
      await identity.handle(req, res);
      return;
    }
    if (path === eventStreamPath) {
      if (!stream || draining) {
        throw new ProblemError('service-unavailable', {
          detail: draining ? 'This node is stopping; reconnect.' : 'The event stream is not configured here.',
          headers: { 'retry-after': '1' },
        });
      }
      await stream.endpoint.handle(req, res);
      return;
    }
    writeResult(
      res,
      problemOnly(new ProblemError('not-found', { detail: `No route serves ${path}.` }), path),
    );
  } catch (error) {
    if (error instanceof ProblemError) {
      if (!res.headersSent) writeResult(res, problemOnly(error, path));
      return;
    }
    logger.error('container request failed', {
      path,
      error: error instanceof Error ? error.message : String(error),
    });
    if (!res.headersSent) writeResult(res, problemOnly(new ProblemError('internal-error'), path));
    else res.destroy();
  }
});
// Longer than the load balancer's idle timeout (120 s), so the balancer always closes first.
answerClientErrors(server);
keepConnectionsUsable(server);
server.keepAliveTimeout = 125_000;
server.headersTimeout = 130_000;
server.listen(port, () => logger.info('container listening', { port, eventStream: Boolean(stream) }));
watchEventLoop();

/**
 * ECS deregisters the task from the load balancer before SIGTERM (deregistration delay 100 s,
 * longer than a stream connection lives), so what is left here is a remainder. Everything
 * must end within the container's stopTimeout (30 s).
 */
async function shutdown(code: number): Promise<void> {
  if (draining) return;
  draining = true;
  setTimeout(() => process.exit(code), 25_000).unref();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Clients reconnect (retry: 1000) to another task, which replays from the outbox.
  hub.closeAll();
  await stream?.stop().catch((error: unknown) => {
    logger.warn('removing the stream subscription failed', { error: String(error) });
  });
  await closed;
  process.exit(code);
}

process.on('SIGTERM', () => void shutdown(0));
