/**
 * The semantics proxy in front of a real DynamoDB Local, driven by the AWS SDK as the service
 * drives it: what DynamoDB answers when writes meet a transaction in flight, read the way the
 * data layer reads it (error name, CancellationReasons). Overlap is made certain, not hoped for:
 * a second request starts only once the proxy counted the first transaction as holding its
 * items, and the hold (400 ms) is far longer than one round trip to DynamoDB Local.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REGION, LOCAL_CREDENTIALS } from './create-resources.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';
import { type DynamoDbSemanticsProxy, startDynamoDbSemanticsProxy } from './dynamodb-semantics-proxy.ts';
import { checkJava } from './prerequisites.ts';

const TableName = 'semantics-proxy';
const holdMs = 400;

let ddb: DynamoDbLocal;
let proxy: DynamoDbSemanticsProxy;
/** The service's view: every call through the proxy. */
let client: DynamoDBDocumentClient;
/** Straight to DynamoDB Local, to see what was really written. */
let direct: DynamoDBDocumentClient;

function documentClient(endpoint: string): DynamoDBDocumentClient {
  // One attempt: an error reaches the test as the SDK parsed it, never hidden by a retry.
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: DEFAULT_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 }),
  );
}

beforeAll(async () => {
  await checkJava();
  ddb = await startDynamoDbLocal({ dataDir: null });
  proxy = await startDynamoDbSemanticsProxy({ target: ddb.endpoint, holdMs });
  client = documentClient(proxy.endpoint);
  direct = documentClient(ddb.endpoint);
  await direct.send(
    new CreateTableCommand({
      TableName,
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
}, 60_000);

afterAll(async () => {
  client?.destroy();
  direct?.destroy();
  await proxy?.stop();
  await ddb?.stop();
}, 30_000);

let itemCount = 0;
/** A key of its own per call, so the tests never meet on an item by accident. */
const newKey = () => ({ pk: `ITEM#${++itemCount}`, sk: 'A' });

const putAction = (key: { pk: string; sk: string }, value: string) => ({
  Put: { TableName, Item: { ...key, value } },
});

/** Starts a transaction writing `key` and resolves once the proxy holds its items. */
async function holding(key: { pk: string; sk: string }): Promise<{ done: Promise<unknown> }> {
  const before = proxy.stats().transactions;
  const done = client.send(new TransactWriteCommand({ TransactItems: [putAction(key, 'holder')] }));
  await vi.waitUntil(() => proxy.stats().transactions > before, { timeout: 5_000, interval: 2 });
  return { done };
}

/** Resolves once every hold is released (holdMs after the last transaction's answer). */
const allReleased = () =>
  vi.waitUntil(() => proxy.stats().heldItems === 0, { timeout: holdMs + 5_000, interval: 10 });

const stored = async (key: { pk: string; sk: string }) =>
  (await direct.send(new GetCommand({ TableName, Key: key, ConsistentRead: true }))).Item;

describe('Function: startDynamoDbSemanticsProxy', () => {
  describe('TransactWriteItems', () => {
    it('lets exactly one of two transactions on the same item through; the other is cancelled', async () => {
      const key = newKey();

      const results = await Promise.allSettled(
        ['first', 'second'].map((value) =>
          client.send(new TransactWriteCommand({ TransactItems: [putAction(key, value)] })),
        ),
      );

      const succeeded = results.filter((result) => result.status === 'fulfilled');
      const failed = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      expect(succeeded).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toBeInstanceOf(TransactionCanceledException);
      expect(failed[0].name).toBe('TransactionCanceledException');
      expect(failed[0].CancellationReasons).toEqual([
        { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
      ]);
      const winner = results.findIndex((result) => result.status === 'fulfilled');
      expect((await stored(key))?.value).toBe(winner === 0 ? 'first' : 'second');
      await allReleased();
    });

    it('gives one reason per action, in order, and writes none of a cancelled transaction', async () => {
      const contended = newKey();
      const other = newKey();
      const holder = await holding(contended);

      const error = await client
        .send(new TransactWriteCommand({ TransactItems: [putAction(other, 'x'), putAction(contended, 'x')] }))
        .catch((caught: unknown) => caught as TransactionCanceledException);

      expect(error).toBeInstanceOf(TransactionCanceledException);
      expect(
        (error as TransactionCanceledException).CancellationReasons?.map((reason) => reason.Code),
      ).toEqual(['None', 'TransactionConflict']);
      expect((error as TransactionCanceledException).$metadata.httpStatusCode).toBe(400);
      // The SDK makes `message` of the body's `Message` (and drops `Message`).
      expect((error as Error).message).toBe(
        'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
      );
      await holder.done;
      expect(await stored(other)).toBeUndefined();
      expect((await stored(contended))?.value).toBe('holder');
      await allReleased();
    });

    it('lets two transactions on different items both through', async () => {
      const cancelledBefore = proxy.stats().cancelled;

      await Promise.all(
        [newKey(), newKey()].map((key) =>
          client.send(new TransactWriteCommand({ TransactItems: [putAction(key, 'v')] })),
        ),
      );

      expect(proxy.stats().cancelled).toBe(cancelledBefore);
      await allReleased();
    });
  });

  describe('PutItem, UpdateItem, DeleteItem', () => {
    it('refuses a plain write of a held item with TransactionConflictException, and allows it after the hold', async () => {
      const key = newKey();
      const holder = await holding(key);

      const attempts = await Promise.allSettled([
        client.send(new PutCommand({ TableName, Item: { ...key, value: 'plain' } })),
        client.send(
          new UpdateCommand({
            TableName,
            Key: key,
            UpdateExpression: 'SET #v = :v',
            ExpressionAttributeNames: { '#v': 'value' },
            ExpressionAttributeValues: { ':v': 'updated' },
          }),
        ),
        client.send(new DeleteCommand({ TableName, Key: key })),
      ]);

      for (const attempt of attempts) {
        expect(attempt.status).toBe('rejected');
        const reason = (attempt as PromiseRejectedResult).reason;
        expect(reason).toBeInstanceOf(TransactionConflictException);
        expect(reason.name).toBe('TransactionConflictException');
        expect(reason.message).toBe('Transaction is ongoing for the item');
      }
      await holder.done;
      // Still held after the answer: the window lasts holdMs longer.
      await expect(
        client.send(new PutCommand({ TableName, Item: { ...key, value: 'early' } })),
      ).rejects.toThrow(TransactionConflictException);

      await allReleased();
      await client.send(new PutCommand({ TableName, Item: { ...key, value: 'after' } }));

      expect((await stored(key))?.value).toBe('after');
    });
  });

  describe('BatchWriteItem', () => {
    it('hands held items back as UnprocessedItems and writes the rest', async () => {
      const heldKey = newKey();
      const freeKey = newKey();
      const holder = await holding(heldKey);

      const result = await client.send(
        new BatchWriteCommand({
          RequestItems: {
            [TableName]: [
              { PutRequest: { Item: { ...heldKey, value: 'batch' } } },
              { PutRequest: { Item: { ...freeKey, value: 'batch' } } },
            ],
          },
        }),
      );
      const onlyHeld = await client.send(
        new BatchWriteCommand({ RequestItems: { [TableName]: [{ DeleteRequest: { Key: heldKey } }] } }),
      );

      expect(result.UnprocessedItems).toEqual({
        [TableName]: [{ PutRequest: { Item: { ...heldKey, value: 'batch' } } }],
      });
      expect(onlyHeld.UnprocessedItems).toEqual({ [TableName]: [{ DeleteRequest: { Key: heldKey } }] });
      expect((await stored(freeKey))?.value).toBe('batch');
      await holder.done;
      expect((await stored(heldKey))?.value).toBe('holder');
      await allReleased();
    });
  });

  describe('reads', () => {
    it('cancels a TransactGetItems of a held item, and lets plain reads through', async () => {
      const key = newKey();
      await direct.send(new PutCommand({ TableName, Item: { ...key, value: 'before' } }));
      const holder = await holding(key);

      const transactGet = await client
        .send(new TransactGetCommand({ TransactItems: [{ Get: { TableName, Key: key } }] }))
        .catch((caught: unknown) => caught as TransactionCanceledException);
      const get = await client.send(new GetCommand({ TableName, Key: key }));
      const query = await client.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': key.pk },
        }),
      );
      const table = await client.send(new DescribeTableCommand({ TableName }));

      expect(transactGet).toBeInstanceOf(TransactionCanceledException);
      expect((transactGet as TransactionCanceledException).CancellationReasons?.[0]?.Code).toBe(
        'TransactionConflict',
      );
      expect(get.Item?.pk).toBe(key.pk);
      expect(query.Items).toHaveLength(1);
      expect(table.Table?.TableName).toBe(TableName);
      await holder.done;
      await allReleased();
      const after = await client.send(
        new TransactGetCommand({ TransactItems: [{ Get: { TableName, Key: key } }] }),
      );
      expect(after.Responses?.[0]?.Item?.value).toBe('holder');
    });
  });
});
