/**
 * The whole service on one machine, for `npm start` and the integration tests: DynamoDB Local
 * (streams on, data under DATA_DIR), the SQS/S3 emulator, table/queues/bucket, the seed, the
 * identity provider, the API serving the route table through the Lambda handlers, and the
 * stream poller standing in for the Lambda event-source mapping, and the maintenance plans'
 * generation timer standing in for its EventBridge schedule. Real AWS SDK clients talk to
 * the emulators; nothing behind the handlers is an in-memory fake. With FSM_DYNAMODB_ENDPOINT
 * set, that DynamoDB-compatible endpoint is used instead of a DynamoDB Local of its own
 * (dynamodb-endpoint.ts).
 */
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { groupHandlers } from '../../functions/registry.ts';
import { consumerGroups } from '../../functions/stream-processor/consumers.ts';
import { retryStartUpStep } from '../aws/start-up-retry.ts';
import { config, resetConfig } from '../config.ts';
import { resetDynamoClient } from '../data/client.ts';
import { tableIdentityDirectory } from '../data/directory.store.ts';
import { onTableWrite } from '../data/write-signal.ts';
import { accountService } from '../domain/users/account.service.ts';
import { appliesTallies, consumerGroupNames } from '../events/consumer-groups.ts';
import { processStreamBatch } from '../events/stream-processor.ts';
import { createIdentityServer } from '../identity/identity-server.ts';
import { oidcAdapterFactory } from '../identity/oidc-storage.ts';
import { fileSigningKeyStore, type SigningKeyStore } from '../identity/signing-keys.ts';
import { backfillLists } from '../maintenance/list-backfill.ts';
import { backfillSyncScopes } from '../maintenance/sync-backfill.ts';
import { watchEventLoop } from '../observability/event-loop-watch.ts';
import { logger } from '../observability/logger.ts';
import { measureWork, writeMetricsTo } from '../observability/metrics.ts';
import { eventStreamEndpoint } from '../realtime/event-stream.ts';
import { subscribeNode } from '../realtime/fanout.ts';
import { StreamHub } from '../realtime/stream-hub.ts';
import { reportStreamMetrics } from '../realtime/stream-metrics.ts';
import { createAppServer } from '../server/app-server.ts';
import { readinessCheck } from '../server/readiness.ts';
import { readinessProbes } from '../server/readiness-probes.ts';
import { processDeliveryMessage } from '../webhooks/delivery-worker.ts';
import { type AdminClientCredentials, bootstrapAdminClient } from './admin-bootstrap.ts';
import { applyQueues, startApplyPollers } from './apply-pollers.ts';
import { startAwsEmulators } from './aws-emulators.ts';
import { createResources, DEFAULT_REGION } from './create-resources.ts';
import { givenDynamoDbEndpoint, startStackDynamoDb, streamsServed } from './dynamodb-endpoint.ts';
import { semanticsProxyIfAsked } from './dynamodb-semantics-opt-in.ts';
import { freePort } from './free-port.ts';
import { startMaintenanceTimer } from './maintenance-timer.ts';
import { checkJava } from './prerequisites.ts';
import { startQueuePoller } from './queue-poller.ts';
import { applyDemoDay, applySeed, demoSeed, loadSeedFile, type Seed } from './seed.ts';
import { startSlaTimer } from './sla-timer.ts';
import { solverQueues, startSolverPollers } from './solver-pollers.ts';
import { startStreamPoller } from './stream-poller.ts';
import { createStreamTopic } from './stream-topic.ts';

export interface LocalStackOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  dataDir: string;
  /** Path of an FSM_SEED file; the demo workspace when absent. */
  seedFile?: string | undefined;
  progress?: (step: string) => void;
}

export interface LocalStack {
  baseUrl: string;
  /** The emulators' endpoints, for tools (aws --endpoint-url) and benchmarks. */
  endpoints: { dynamodb: string; aws: string };
  /**
   * Whether the stack started its own DynamoDB Local (false: FSM_DYNAMODB_ENDPOINT named one),
   * and whether the table's stream is read (false: that endpoint serves no streams).
   */
  dynamodb: { own: boolean; streams: boolean };
  dataDir: string;
  /** Where outgoing e-mail is written (one .eml file per message). */
  mailDir: string;
  /** Where outgoing text messages are written (one .txt file per message). */
  smsDir: string;
  seed: Seed;
  usedDemoSeed: boolean;
  /** The admin control plane's client (`/admin-v1`), see admin-bootstrap.ts. */
  adminClient: AdminClientCredentials;
  /** Resolves once the stream poller has handed every record written so far to the consumers. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

export const localTableName = 'fsm';
export const localBucketName = 'fsm-uploads';
/**
 * The webhook delivery queue and its dead-letter queue. Waiting deliveries are delayed messages,
 * never in flight (docs/webhook-delivery.md); the visibility timeout only bounds how long a
 * crashed attempt keeps its message hidden: one attempt is at most 3 s + 5 s.
 */
export const localQueues = [
  { name: 'fsm-webhook-delivery', attributes: { VisibilityTimeout: '20' } },
  { name: 'fsm-webhook-delivery-dlq' },
  ...solverQueues,
];

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const progress = options.progress ?? (() => {});
  const dataDir = resolve(options.dataDir);
  const host = options.host ?? '127.0.0.1';
  // Read before anything below sets it (to this endpoint, or to the semantics proxy's).
  const givenDynamoDb = givenDynamoDbEndpoint();
  await mkdir(dataDir, { recursive: true });
  const seed = options.seedFile ? await loadSeedFile(options.seedFile) : demoSeed;

  const [dynamodb, aws] = await startEmulators(dataDir, givenDynamoDb, progress);
  const stops: Array<() => Promise<void>> = [() => aws.stop(), () => dynamodb.stop()];
  const stopAll = async () => {
    for (const stop of stops.splice(0)) await stop().catch(() => {});
  };

  try {
    const port = options.port === 0 ? await freePort() : options.port;
    const baseUrl = `http://${host}:${port}`;
    Object.assign(process.env, {
      FSM_BASE_URL: baseUrl,
      FSM_AUTH_URL: baseUrl,
      FSM_TABLE_NAME: localTableName,
      FSM_DYNAMODB_ENDPOINT: dynamodb.endpoint,
      FSM_SQS_ENDPOINT: aws.endpoint,
      FSM_S3_ENDPOINT: aws.endpoint,
      FSM_UPLOAD_BUCKET: localBucketName,
      // Mail is written to files here (shared/mail/mailer.ts), so links can be followed.
      FSM_MAIL_DIR: process.env.FSM_MAIL_DIR ?? join(dataDir, 'mail'),
      // Text messages too (shared/sms/sms-sender.ts): a device's setup link is one file away.
      FSM_SMS_DIR: process.env.FSM_SMS_DIR ?? join(dataDir, 'sms'),
      AWS_REGION: process.env.AWS_REGION ?? DEFAULT_REGION,
      AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
    });
    // FSM_DYNAMODB_SEMANTICS=dynamodb: the service's clients meet DynamoDB's transaction conflicts.
    const semantics = await semanticsProxyIfAsked(dynamodb.endpoint);
    if (semantics) {
      stops.unshift(() => semantics.stop());
      process.env.FSM_DYNAMODB_ENDPOINT = semantics.endpoint;
    }
    if (dynamodb.own) process.env.FSM_LIST_INDEX_LAG_MS ??= ownIndexLagBound(semantics !== undefined);
    resetConfig();
    resetDynamoClient();
    stops.push(metricsToFile(dataDir));

    // Every step against the emulators is idempotent, so a step that fails because they are busy
    // (a loaded machine) is simply run again (shared/aws/start-up-retry.ts).
    // DynamoDB Local serves streams; an endpoint given may not, and then nothing reads events.
    const streams = await streamsServed(dynamodb, config().region, progress);
    progress('creating the table, queues and bucket');
    const { queueUrls } = await retryStartUpStep('creating the table, queues and bucket', () =>
      createResources({
        dynamodbEndpoint: dynamodb.endpoint,
        awsEndpoint: aws.endpoint,
        region: config().region,
        tableName: localTableName,
        withStream: streams,
        queues: [...localQueues, ...applyQueues()],
        bucketName: localBucketName,
      }),
    );
    process.env.FSM_WEBHOOK_QUEUE_URL = queueUrls['fsm-webhook-delivery'];
    process.env.FSM_SOLVER_QUEUE_URL = queueUrls['fsm-solver'];
    process.env.FSM_APPLY_QUEUE_URL = queueUrls['fsm-apply'];
    resetConfig();

    progress('applying the seed');
    await retryStartUpStep('applying the seed', () => applySeed(seed));
    // Data written before the list indexes (and offline sync) existed gets them before serving.
    await retryStartUpStep('bringing the list indexes up to date', () => backfillLists(progress));
    await retryStartUpStep('putting records in sync scopes', () => backfillSyncScopes(progress));
    // The demo workspace's day to plan (README.md, "Planning a day"): a few reads once seeded.
    if (seed === demoSeed) await retryStartUpStep('seeding the demo day to plan', applyDemoDay);
    const adminClient = await retryStartUpStep('writing the admin client', () =>
      bootstrapAdminClient({ dataDir }),
    );

    // Created (or read) now, so a key problem stops the start instead of the first login.
    const signingKeys = fileSigningKeyStore(join(dataDir, 'identity', 'signing-key.json'));
    await signingKeys.privateJwks();
    const identity = createIdentityServer({
      authUrl: config().authUrl,
      audience: config().apiAudience,
      directory: tableIdentityDirectory,
      accounts: accountService,
      keys: signingKeys,
      adapterFactory: oidcAdapterFactory,
    });
    // The event stream: this node's hub, fed through the SNS topic like every node on AWS.
    const hub = new StreamHub({
      timeScale: () => config().webhooks.timeScale,
      capacity: config().streamMaxConnections,
    });
    const topicArn = await retryStartUpStep('creating the event stream topic', () =>
      createStreamTopic(aws.endpoint),
    );
    process.env.FSM_STREAM_TOPIC_ARN = topicArn;
    const subscription = await retryStartUpStep('subscribing to the event stream topic', () =>
      subscribeNode({
        topicArn,
        queuePrefix: 'fsm-stream',
        deliver: (event) => hub.publish(event),
        log: (message, details) => logger.warn(message, details),
      }),
    );
    stops.unshift(() => subscription.stop());
    const server = createAppServer({ groupHandlers, identity, ...nodeRoutes(hub, queueUrls, signingKeys) });
    stops.unshift(async () => hub.closeAll(), reportStreamMetrics(hub));
    await listen(server, port, host);
    stops.unshift(() => close(server));
    const unwatch = watchEventLoop();
    stops.unshift(async () => unwatch());

    const pollers = streams ? await startOutboxPollers(dataDir, dynamodb.endpoint) : [];
    stops.unshift(async () => {
      await Promise.all(pollers.map((poller) => poller.stop()));
    });

    const deliveries = startQueuePoller({
      endpoint: aws.endpoint,
      region: config().region,
      queueUrl: queueUrls['fsm-webhook-delivery'] ?? '',
      deadLetterQueueUrl: queueUrls['fsm-webhook-delivery-dlq'] ?? '',
      handle: (body) =>
        measureWork('webhook-delivery', () =>
          processDeliveryMessage(body, (message, details) => logger.warn(message, details)),
        ),
      log: (message, details) => logger.warn(message, details),
    });
    stops.unshift(() => deliveries.stop());

    stops.unshift(...startWorkers(aws.endpoint, queueUrls));

    return {
      baseUrl,
      endpoints: { dynamodb: dynamodb.endpoint, aws: aws.endpoint },
      dynamodb: { own: dynamodb.own, streams },
      dataDir,
      mailDir: process.env.FSM_MAIL_DIR ?? join(dataDir, 'mail'),
      smsDir: process.env.FSM_SMS_DIR ?? join(dataDir, 'sms'),
      seed,
      usedDemoSeed: !options.seedFile,
      adminClient,
      drained: async () => {
        await Promise.all(pollers.map((poller) => poller.drained()));
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * The workers that AWS runs on queues and schedules: the solver and apply pollers on their queues,
 * the maintenance plans' generation timer standing in for its EventBridge schedule, and the
 * scheduled service-level detector (lib/sla-detector.ts) on a timer. Returns their stops.
 */
function startWorkers(endpoint: string, queueUrls: Record<string, string>): Array<() => Promise<void>> {
  const solver = startSolverPollers({
    endpoint,
    region: config().region,
    queueUrl: queueUrls['fsm-solver'] ?? '',
    deadLetterQueueUrl: queueUrls['fsm-solver-dlq'] ?? '',
  });
  const applies = startApplyPollers({
    endpoint,
    region: config().region,
    queueUrl: queueUrls['fsm-apply'] ?? '',
    deadLetterQueueUrl: queueUrls['fsm-apply-dlq'] ?? '',
  });
  const maintenance = startMaintenanceTimer((message, details) => logger.warn(message, details));
  const slaTimer = startSlaTimer();
  return [() => slaTimer.stop(), () => maintenance.stop(), () => applies.stop(), () => solver.stop()];
}

/**
 * The DynamoDB (a DynamoDB Local of its own, or the one given) and the SQS/S3 emulator. Java is
 * checked first, so that its absence stops the start before anything runs.
 */
async function startEmulators(
  dataDir: string,
  givenDynamoDb: string | undefined,
  progress: (step: string) => void,
) {
  if (!givenDynamoDb) await checkJava();
  progress(
    givenDynamoDb
      ? `using DynamoDB at ${givenDynamoDb} (FSM_DYNAMODB_ENDPOINT); starting the SQS/S3 emulator`
      : 'starting DynamoDB Local and the SQS/S3 emulator',
  );
  return Promise.all([
    startStackDynamoDb(givenDynamoDb, join(dataDir, 'dynamodb')),
    startAwsEmulators({ dataDir: join(dataDir, 'aws') }),
  ]);
}

/**
 * What the local server serves besides the route table and the identity provider: the event
 * stream of this node's hub, and `GET /health/ready` as the container answers it (the table, the
 * work queues, the signing keys).
 */
function nodeRoutes(hub: StreamHub, queueUrls: Record<string, string>, signingKeys: SigningKeyStore) {
  return {
    eventStream: eventStreamEndpoint(hub),
    readiness: readinessCheck(
      readinessProbes({
        queueUrls: [queueUrls['fsm-webhook-delivery'], queueUrls['fsm-solver']],
        signingKeys: () => signingKeys.privateJwks(),
      }),
    ),
  };
}

/**
 * How long after a list's last change its index reads may still lag on the stack's own DynamoDB
 * Local (shared/data/list-cache.ts keeps nothing between requests before then): none, DynamoDB
 * Local updates its indexes with the write; behind the semantics proxy, its index lag and a half.
 * An endpoint given keeps DynamoDB's default bound.
 */
function ownIndexLagBound(proxied: boolean): string {
  return String(proxied ? Number(process.env.FSM_DYNAMODB_INDEX_LAG_MS ?? 0) * 1.5 : 0);
}

/**
 * One poller of the table's stream per consumer group, as on AWS one event source mapping per
 * group: the live group (webhooks) never waits for the audit log's writes.
 */
function startOutboxPollers(dataDir: string, dynamodbEndpoint: string) {
  return Promise.all(
    consumerGroupNames.map(async (group) => {
      const checkpointFile = join(
        dataDir,
        group === 'records' ? 'stream-checkpoint.json' : `stream-checkpoint-${group}.json`,
      );
      await inheritCheckpoint(checkpointFile, join(dataDir, 'stream-checkpoint.json'));
      return startStreamPoller({
        endpoint: dynamodbEndpoint,
        region: config().region,
        tableName: localTableName,
        checkpointFile,
        intervalMs: Number(process.env.FSM_STREAM_POLL_MS ?? 100),
        // Idle, a round a second (each costs a GetRecords per shard in both processes); a write
        // of this process wakes the poller at once. Writes of other processes (the solver's
        // workers, a test writing to the table) are read within the idle pause.
        idleIntervalMs: Number(process.env.FSM_STREAM_IDLE_POLL_MS ?? 1000),
        wakeOn: onTableWrite,
        ...(process.env.FSM_STREAM_BATCH ? { batchSize: Number(process.env.FSM_STREAM_BATCH) } : {}),
        onRecords: (event) =>
          measureWork(`stream-processor-${group}`, () =>
            processStreamBatch(
              event,
              consumerGroups[group],
              (message, details) => logger.error(message, { ...details, group }),
              { tallies: appliesTallies(group) },
            ),
          ),
        log: (message, details) => logger.warn(message, { ...details, group }),
      });
    }),
  );
}

/**
 * The metrics' embedded-format lines (shared/observability/metrics.ts) go to a file under the
 * data folder, not the console: `npm run metrics` summarises it. FSM_METRICS_FILE names another
 * file, `-` keeps them on standard output. Returns the step that closes the file.
 */
function metricsToFile(dataDir: string): () => Promise<void> {
  const file = process.env.FSM_METRICS_FILE ?? join(dataDir, 'metrics.jsonl');
  writeMetricsTo(file === '-' ? undefined : file);
  return async () => writeMetricsTo(undefined);
}

/**
 * A consumer group's poller that has no checkpoint yet, on data of an earlier version that had
 * one poller for all consumers, starts where that poller stopped, not at the start of the
 * stream (which would deliver a day of old events to webhooks again).
 */
async function inheritCheckpoint(file: string, from: string): Promise<void> {
  if (file === from) return;
  try {
    await copyFile(from, file, fsConstants.COPYFILE_EXCL);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOENT') throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new Error(`Port ${port} is in use; set PORT to another port.`) : error,
      ),
    );
    server.listen(port, host, () => resolvePromise());
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolvePromise) => {
    server.close(() => resolvePromise());
    server.closeAllConnections();
  });
}
