/**
 * `npm start` calls createResources on every start, over data persisted by earlier runs; these
 * tests make sure a second run is harmless and that the table comes out as the CDK stack builds it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableDefinition } from '../data/table-definition.ts';
import { type AwsEmulators, startAwsEmulators } from './aws-emulators.ts';
import {
  type CreateResourcesOptions,
  createResources,
  createTable,
  LOCAL_CREDENTIALS,
} from './create-resources.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';
import { checkJava } from './prerequisites.ts';

const region = 'eu-central-1';
let dir: string;
let ddb: DynamoDbLocal;
let aws: AwsEmulators;

beforeAll(async () => {
  await checkJava();
  dir = await mkdtemp(join(tmpdir(), 'create-resources-test-'));
  [ddb, aws] = await Promise.all([
    startDynamoDbLocal({ dataDir: join(dir, 'dynamodb') }),
    startAwsEmulators({ dataDir: join(dir, 'aws') }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([ddb?.stop(), aws?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 30_000);

function options(visibilityTimeout: string): CreateResourcesOptions {
  return {
    dynamodbEndpoint: ddb.endpoint,
    awsEndpoint: aws.endpoint,
    tableName: 'resources-test',
    queues: [
      { name: 'outbox-dlq' },
      {
        name: 'outbox',
        attributes: {
          VisibilityTimeout: visibilityTimeout,
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: `arn:aws:sqs:${region}:000000000000:outbox-dlq`,
            maxReceiveCount: '3',
          }),
        },
      },
    ],
    bucketName: 'resources-test-uploads',
  };
}

describe('createResources', () => {
  it('builds the table from the shared definition, with stream and TTL', async () => {
    await createResources(options('30'));
    const client = new DynamoDBClient({ endpoint: ddb.endpoint, region, credentials: LOCAL_CREDENTIALS });
    const { Table } = await client.send(new DescribeTableCommand({ TableName: 'resources-test' }));
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: 'resources-test' }));
    client.destroy();
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    expect(Table?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: tableDefinition.streamViewType,
    });
    expect((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort()).toEqual(
      tableDefinition.indexes.map((index) => index.name).sort(),
    );
    expect(ttl.TimeToLiveDescription).toMatchObject({
      AttributeName: tableDefinition.ttlAttribute,
      TimeToLiveStatus: 'ENABLED',
    });
  });

  it('leaves the stream out for an endpoint without streams (withStream: false), every time', async () => {
    const table = {
      endpoint: ddb.endpoint,
      region,
      tableName: 'resources-test-no-stream',
      withStream: false,
    };

    await createTable(table);
    await createTable(table);

    const client = new DynamoDBClient({ endpoint: ddb.endpoint, region, credentials: LOCAL_CREDENTIALS });
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table.tableName }));
    client.destroy();
    expect(Table?.StreamSpecification?.StreamEnabled).not.toBe(true);
    expect(Table?.GlobalSecondaryIndexes).toHaveLength(tableDefinition.indexes.length);
  });

  it('runs again over existing resources, updating changed queue attributes, and they work', async () => {
    const first = await createResources(options('30'));
    const second = await createResources(options('45'));
    expect(second).toEqual(first);
    expect(Object.keys(second.queueUrls)).toEqual(['outbox-dlq', 'outbox']);

    const sqs = new SQSClient({ endpoint: aws.endpoint, region, credentials: LOCAL_CREDENTIALS });
    const s3 = new S3Client({
      endpoint: aws.endpoint,
      region,
      credentials: LOCAL_CREDENTIALS,
      forcePathStyle: true,
    });
    try {
      const queueUrl = second.queueUrls.outbox!;
      const attributes = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['VisibilityTimeout', 'RedrivePolicy'],
        }),
      );
      expect(attributes.Attributes?.VisibilityTimeout).toBe('45');
      expect(attributes.Attributes?.RedrivePolicy).toContain('outbox-dlq');
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'hello' }));
      const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));
      expect(received.Messages?.map((message) => message.Body)).toEqual(['hello']);

      await s3.send(new HeadBucketCommand({ Bucket: 'resources-test-uploads' }));
      await s3.send(new PutObjectCommand({ Bucket: 'resources-test-uploads', Key: 'a.txt', Body: 'a' }));
    } finally {
      sqs.destroy();
      s3.destroy();
    }
  });

  it('finds queues and buckets again after the emulators restart on their data directory', async () => {
    await createResources(options('45'));
    await aws.stop();
    aws = await startAwsEmulators({ dataDir: join(dir, 'aws') });
    const { queueUrls } = await createResources(options('45'));
    const s3 = new S3Client({
      endpoint: aws.endpoint,
      region,
      credentials: LOCAL_CREDENTIALS,
      forcePathStyle: true,
    });
    try {
      await s3.send(new HeadBucketCommand({ Bucket: 'resources-test-uploads' }));
    } finally {
      s3.destroy();
    }
    expect(queueUrls.outbox).toMatch(/\/000000000000\/outbox$/);
  });
});
