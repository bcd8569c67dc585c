/**
 * The semantics proxy in front of a real DynamoDB Local, driven by the AWS SDK as the service
 * drives it: what DynamoDB answers when writes meet a transaction in flight, read the way the
 * data layer reads it (error name, CancellationReasons). Overlap is made certain, not hoped for:
 * a second request starts only once the proxy counted the first transaction as holding its
 * items, and the hold (400 ms) is far longer than one round trip to DynamoDB Local. The index
 * lag likewise: a read "before the lag passed" is checked to have come while the write was still
 * pending in the proxy, not assumed to.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
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
import { shadowTableName } from './dynamodb-index-lag.ts';
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

/** A table with one GSI (`gsi1pk`/`gsi1sk`, all attributes projected), as the service's indexes. */
async function createIndexedTable(name: string): Promise<void> {
  await direct.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((AttributeName) => ({
        AttributeName,
        AttributeType: 'S',
      })),
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    }),
  );
}

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

describe('Function: startDynamoDbSemanticsProxy, with indexLagMs', () => {
  const IndexedTable = 'semantics-proxy-indexed';
  const lagMs = 300;
  let lagging: DynamoDbSemanticsProxy;
  let laggingClient: DynamoDBDocumentClient;

  beforeAll(async () => {
    // An item written before the proxy first meets the table is in its index at once.
    await createIndexedTable(IndexedTable);
    await direct.send(
      new PutCommand({
        TableName: IndexedTable,
        Item: { pk: 'EARLIER', sk: 'A', gsi1pk: 'EARLIER', gsi1sk: 'A' },
      }),
    );
    lagging = await startDynamoDbSemanticsProxy({ target: ddb.endpoint, holdMs: 0, indexLagMs: lagMs });
    laggingClient = documentClient(lagging.endpoint);
  }, 30_000);

  afterAll(async () => {
    laggingClient?.destroy();
    await lagging?.stop();
  }, 30_000);

  let indexKeyCount = 0;
  const newIndexKey = () => `GROUP#${++indexKeyCount}`;
  const indexed = (gsi1pk: string) =>
    laggingClient.send(
      new QueryCommand({
        TableName: IndexedTable,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
  const read = async (key: { pk: string; sk: string }) =>
    (await laggingClient.send(new GetCommand({ TableName: IndexedTable, Key: key, ConsistentRead: true })))
      .Item;

  /** Runs `write`, then `before` at once, asserting it ran while the write was still pending. */
  async function beforeAndAfterTheLag(
    write: () => Promise<unknown>,
    before: () => Promise<void>,
    after: () => Promise<void>,
  ): Promise<void> {
    // The lag counts from DynamoDB's answer, which comes after this (and before the client has it).
    const sent = Date.now();
    await write();
    await before();
    // The reads above came before the lag passed: the write was not applied to the index yet.
    expect(lagging.stats().indexWritesPending).toBeGreaterThan(0);
    await lagging.settled();
    expect(Date.now() - sent).toBeGreaterThanOrEqual(lagMs);
    expect(lagging.stats().indexWritesPending).toBe(0);
    await after();
  }

  it('shows a new item to a base-table read at once, and to an index Query only after the lag', async () => {
    const key = { pk: 'LAG#put', sk: 'A' };
    const group = newIndexKey();

    await beforeAndAfterTheLag(
      () =>
        laggingClient.send(
          new PutCommand({ TableName: IndexedTable, Item: { ...key, gsi1pk: group, gsi1sk: '1' } }),
        ),
      async () => {
        expect((await read(key))?.gsi1pk).toBe(group);
        const base = await laggingClient.send(
          new QueryCommand({
            TableName: IndexedTable,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': key.pk },
          }),
        );
        expect(base.Items).toHaveLength(1);
        expect((await indexed(group)).Items).toEqual([]);
      },
      async () => {
        const query = await indexed(group);
        expect(query.Items).toEqual([{ ...key, gsi1pk: group, gsi1sk: '1' }]);
        // The copy the index is read from never shows its name.
        expect(query.ConsumedCapacity?.TableName).toBe(IndexedTable);
      },
    );
  });

  it('keeps an updated item under its old index key until the lag passed', async () => {
    const key = { pk: 'LAG#update', sk: 'A' };
    const [from, to] = [newIndexKey(), newIndexKey()];
    await laggingClient.send(
      new PutCommand({ TableName: IndexedTable, Item: { ...key, gsi1pk: from, gsi1sk: '1' } }),
    );
    await lagging.settled();

    await beforeAndAfterTheLag(
      () =>
        laggingClient.send(
          new UpdateCommand({
            TableName: IndexedTable,
            Key: key,
            UpdateExpression: 'SET gsi1pk = :to, gsi1sk = :sk',
            ExpressionAttributeValues: { ':to': to, ':sk': '2' },
          }),
        ),
      async () => {
        expect((await read(key))?.gsi1pk).toBe(to);
        expect((await indexed(from)).Items).toEqual([{ ...key, gsi1pk: from, gsi1sk: '1' }]);
        expect((await indexed(to)).Items).toEqual([]);
      },
      async () => {
        expect((await indexed(from)).Items).toEqual([]);
        expect((await indexed(to)).Items).toEqual([{ ...key, gsi1pk: to, gsi1sk: '2' }]);
      },
    );
  });

  it('keeps a deleted item in the index until the lag passed', async () => {
    const key = { pk: 'LAG#delete', sk: 'A' };
    const group = newIndexKey();
    await laggingClient.send(
      new PutCommand({ TableName: IndexedTable, Item: { ...key, gsi1pk: group, gsi1sk: '1' } }),
    );
    await lagging.settled();

    await beforeAndAfterTheLag(
      () => laggingClient.send(new DeleteCommand({ TableName: IndexedTable, Key: key })),
      async () => {
        expect(await read(key)).toBeUndefined();
        expect((await indexed(group)).Items).toHaveLength(1);
      },
      async () => {
        expect((await indexed(group)).Items).toEqual([]);
      },
    );
  });

  it('lags the items of a BatchWriteItem and of a TransactWriteItems alike', async () => {
    const group = newIndexKey();
    const item = (pk: string) => ({ pk, sk: 'A', gsi1pk: group, gsi1sk: pk });

    await beforeAndAfterTheLag(
      () =>
        Promise.all([
          laggingClient.send(
            new BatchWriteCommand({
              RequestItems: { [IndexedTable]: [{ PutRequest: { Item: item('LAG#batch') } }] },
            }),
          ),
          laggingClient.send(
            new TransactWriteCommand({
              TransactItems: [{ Put: { TableName: IndexedTable, Item: item('LAG#tx') } }],
            }),
          ),
        ]),
      async () => {
        expect((await indexed(group)).Items).toEqual([]);
      },
      async () => {
        expect((await indexed(group)).Items).toEqual([item('LAG#batch'), item('LAG#tx')]);
      },
    );
  });

  it('starts the index from what the table held, and keeps its copy out of sight', async () => {
    const listed = await laggingClient.send(new ListTablesCommand({}));
    const copy = await direct.send(new DescribeTableCommand({ TableName: shadowTableName(IndexedTable) }));

    expect((await indexed('EARLIER')).Items).toHaveLength(1);
    expect(listed.TableNames).toContain(IndexedTable);
    expect(listed.TableNames).not.toContain(shadowTableName(IndexedTable));
    // No stream: whoever polls the table's stream never sees the copy's writes.
    expect(copy.Table?.StreamSpecification?.StreamEnabled).not.toBe(true);
    expect(copy.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(['gsi1']);
  });

  it('deletes its copy when stopped', async () => {
    const other = 'semantics-proxy-stopped';
    await createIndexedTable(other);
    const shortLived = await startDynamoDbSemanticsProxy({ target: ddb.endpoint, indexLagMs: lagMs });
    const shortClient = documentClient(shortLived.endpoint);
    await shortClient.send(
      new PutCommand({ TableName: other, Item: { pk: 'A', sk: 'A', gsi1pk: 'G', gsi1sk: 'A' } }),
    );
    const whileRunning = await direct.send(new ListTablesCommand({}));

    shortClient.destroy();
    await shortLived.stop();

    expect(whileRunning.TableNames).toContain(shadowTableName(other));
    expect((await direct.send(new ListTablesCommand({}))).TableNames).not.toContain(shadowTableName(other));
  });
});
