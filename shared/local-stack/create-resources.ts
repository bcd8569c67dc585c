/**
 * On AWS the CDK stacks create the table, queues and bucket; locally nobody does, and the data
 * directories survive restarts. So `npm start` and the tests call this on every start: it brings
 * whatever exists up to the shape of `tableDefinition` and creates what is missing, never failing
 * because something is already there.
 */

import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueUrlCommand,
  type QueueAttributeName,
  QueueNameExists,
  SetQueueAttributesCommand,
} from '@aws-sdk/client-sqs';
import { dynamoDbClient, emulatorCredentials, s3Client, sqsClient } from '../aws/clients.ts';
import { type IndexDefinition, tableDefinition } from '../data/table-definition.ts';

export const LOCAL_CREDENTIALS = emulatorCredentials;
export const DEFAULT_REGION = 'eu-central-1';

const ACTIVE_TIMEOUT_MS = 30_000;

export interface CreateResourcesOptions {
  dynamodbEndpoint: string;
  awsEndpoint: string;
  region?: string;
  tableName: string;
  /** Whether the table gets its stream; false for a DynamoDB endpoint without streams. Default true. */
  withStream?: boolean;
  queues: Array<{ name: string; attributes?: Record<string, string> }>;
  bucketName: string;
}

export async function createResources(
  opts: CreateResourcesOptions,
): Promise<{ queueUrls: Record<string, string> }> {
  const region = opts.region ?? DEFAULT_REGION;
  await createTable({
    endpoint: opts.dynamodbEndpoint,
    region,
    tableName: opts.tableName,
    ...(opts.withStream === undefined ? {} : { withStream: opts.withStream }),
  });
  const queueUrls = await createQueues({ endpoint: opts.awsEndpoint, region, queues: opts.queues });
  await createBucket({ endpoint: opts.awsEndpoint, region, bucketName: opts.bucketName });
  return { queueUrls };
}

/**
 * The table from `tableDefinition`, with its stream, GSIs and TTL, ACTIVE when this resolves.
 * An existing table (persisted from an earlier run) gets missing indexes, stream and TTL added.
 * `withStream: false` (an endpoint that serves no streams) leaves the stream out.
 */
export async function createTable(opts: {
  endpoint: string;
  region?: string;
  tableName: string;
  withStream?: boolean;
}): Promise<void> {
  const withStream = opts.withStream ?? true;
  // Each step of the start-up is retried as a whole (start-up-retry.ts): deadlines per attempt.
  const client = dynamoDbClient({
    endpoint: opts.endpoint,
    region: opts.region ?? DEFAULT_REGION,
    deadlines: 'attempt',
  });
  const TableName = opts.tableName;
  try {
    let table = await describeTable(client, TableName);
    if (!table) {
      try {
        await client.send(
          new CreateTableCommand({
            TableName,
            AttributeDefinitions: attributeDefinitions(),
            KeySchema: [
              { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
              { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
            ],
            BillingMode: 'PAY_PER_REQUEST',
            ...(tableDefinition.indexes.length > 0
              ? { GlobalSecondaryIndexes: tableDefinition.indexes.map(globalSecondaryIndex) }
              : {}),
            ...(withStream
              ? {
                  StreamSpecification: {
                    StreamEnabled: true,
                    StreamViewType: tableDefinition.streamViewType,
                  },
                }
              : {}),
          }),
        );
      } catch (error) {
        // Someone else (a parallel start) created it between our describe and create.
        if (!(error instanceof ResourceInUseException)) throw error;
      }
      table = await waitUntilActive(client, TableName);
    }

    const stream = table.StreamSpecification;
    if (!withStream) {
      // Nothing to add: the endpoint has no streams to read.
    } else if (!stream?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({
          TableName,
          StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
        }),
      );
      table = await waitUntilActive(client, TableName);
    } else if (stream.StreamViewType !== tableDefinition.streamViewType) {
      throw new Error(
        `Table ${TableName} has a ${stream.StreamViewType} stream but the definition asks for ` +
          `${tableDefinition.streamViewType}; delete the local data directory to recreate it.`,
      );
    }

    // DynamoDB accepts one index creation (or deletion) per UpdateTable call. An index whose
    // projection no longer matches the definition (a listed attribute added) is dropped and
    // built again: DynamoDB fills a new index from the table's items by itself.
    for (const index of tableDefinition.indexes) {
      const existing = table.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === index.name);
      if (existing && sameProjection(existing.Projection?.NonKeyAttributes)) continue;
      if (existing) {
        await client.send(
          new UpdateTableCommand({
            TableName,
            GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: index.name } }],
          }),
        );
        table = await waitUntilActive(client, TableName);
      }
      await client.send(
        new UpdateTableCommand({
          TableName,
          AttributeDefinitions: attributeDefinitions(),
          GlobalSecondaryIndexUpdates: [{ Create: globalSecondaryIndex(index) }],
        }),
      );
      table = await waitUntilActive(client, TableName);
    }

    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName }));
    const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
    const attribute = ttl.TimeToLiveDescription?.AttributeName;
    if (!(status === 'ENABLED' || status === 'ENABLING') || attribute !== tableDefinition.ttlAttribute) {
      if ((status === 'ENABLED' || status === 'ENABLING') && attribute !== tableDefinition.ttlAttribute) {
        // TTL can only be switched off and on again, not moved to another attribute.
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName,
            TimeToLiveSpecification: { AttributeName: attribute, Enabled: false },
          }),
        );
      }
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName,
          TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
        }),
      );
    }
    await waitUntilActive(client, TableName);
  } finally {
    client.destroy();
  }
}

/** Creates the queues in the given order (put a DLQ before the queue whose RedrivePolicy names it). */
export async function createQueues(opts: {
  endpoint: string;
  region?: string;
  queues: Array<{ name: string; attributes?: Record<string, string> }>;
}): Promise<Record<string, string>> {
  const client = sqsClient({
    endpoint: opts.endpoint,
    region: opts.region ?? DEFAULT_REGION,
    deadlines: 'attempt',
  });
  const queueUrls: Record<string, string> = {};
  try {
    for (const queue of opts.queues) {
      const attributes = queue.attributes ?? {};
      try {
        const created = await client.send(
          new CreateQueueCommand({ QueueName: queue.name, Attributes: attributes }),
        );
        queueUrls[queue.name] = required(created.QueueUrl, `CreateQueue ${queue.name} returned no QueueUrl`);
      } catch (error) {
        // SQS refuses CreateQueue for an existing queue whose attributes differ (a persisted queue
        // from an older configuration): update the attributes instead.
        if (!isQueueNameExists(error)) throw error;
        const existing = await client.send(new GetQueueUrlCommand({ QueueName: queue.name }));
        const url = required(existing.QueueUrl, `GetQueueUrl ${queue.name} returned no QueueUrl`);
        const { FifoQueue: _immutable, ...mutable } = attributes;
        if (Object.keys(mutable).length > 0) {
          await client.send(
            new SetQueueAttributesCommand({
              QueueUrl: url,
              Attributes: mutable as Partial<Record<QueueAttributeName, string>>,
            }),
          );
        }
        queueUrls[queue.name] = url;
      }
    }
  } finally {
    client.destroy();
  }
  return queueUrls;
}

export async function createBucket(opts: {
  endpoint: string;
  region?: string;
  bucketName: string;
}): Promise<void> {
  const client = s3Client({
    endpoint: opts.endpoint,
    region: opts.region ?? DEFAULT_REGION,
    deadlines: 'attempt',
  });
  try {
    try {
      await client.send(new HeadBucketCommand({ Bucket: opts.bucketName }));
      return;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    try {
      await client.send(new CreateBucketCommand({ Bucket: opts.bucketName }));
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
    }
  } finally {
    client.destroy();
  }
}

function attributeDefinitions(): AttributeDefinition[] {
  const types = new Map<string, 'S' | 'N'>([
    [tableDefinition.partitionKey, 'S'],
    [tableDefinition.sortKey, 'S'],
  ]);
  for (const index of tableDefinition.indexes) {
    types.set(index.partitionKey, 'S');
    types.set(index.sortKey, index.sortKeyType);
  }
  return [...types].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
}

function sameProjection(attributes: readonly string[] | undefined): boolean {
  const wanted = [...tableDefinition.indexProjection].sort();
  const actual = [...(attributes ?? [])].sort();
  return wanted.length === actual.length && wanted.every((name, i) => name === actual[i]);
}

function globalSecondaryIndex(index: IndexDefinition): GlobalSecondaryIndex {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...tableDefinition.indexProjection] },
  };
}

/** The table's description, or undefined when it does not exist. */
export async function describeTable(
  client: DynamoDBClient,
  TableName: string,
): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** Table and all its indexes ACTIVE (index creation leaves the table ACTIVE but the index CREATING). */
async function waitUntilActive(client: DynamoDBClient, TableName: string): Promise<TableDescription> {
  const deadline = Date.now() + ACTIVE_TIMEOUT_MS;
  for (;;) {
    const table = await describeTable(client, TableName);
    if (
      table?.TableStatus === 'ACTIVE' &&
      (table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE')
    ) {
      return table;
    }
    if (Date.now() > deadline) {
      // A TimeoutError, so a start on a busy machine tries again (shared/aws/start-up-retry.ts).
      throw Object.assign(
        new Error(`Table ${TableName} did not become ACTIVE within ${ACTIVE_TIMEOUT_MS / 1000} s`),
        { name: 'TimeoutError' },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isQueueNameExists(error: unknown): boolean {
  if (error instanceof QueueNameExists) return true;
  // fauxqs names the error by its query-protocol code, AWS.SimpleQueueService.QueueNameExists.
  const e = error as { name?: string; Code?: string } | null;
  return [e?.name, e?.Code].some(
    (code) => code?.endsWith('QueueNameExists') || code?.endsWith('QueueAlreadyExists'),
  );
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NotFound' || e?.name === 'NoSuchBucket' || e?.$metadata?.httpStatusCode === 404;
}

function required<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new Error(message);
  return value;
}
