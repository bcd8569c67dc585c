/**
 * The outbox consumers rely on the poller behaving like Lambda's event-source mapping; these
 * tests pin the parts they depend on (event shape, no redelivery after restart, partial-batch
 * retries) against a real DynamoDB Local, because its stream API has its own quirks.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTable, LOCAL_CREDENTIALS } from './create-resources.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';
import { checkJava } from './prerequisites.ts';
import { type StreamPoller, type StreamPollerOptions, startStreamPoller } from './stream-poller.ts';

let dir: string;
let ddb: DynamoDbLocal;
const pollers: StreamPoller[] = [];

beforeAll(async () => {
  await checkJava();
  dir = await mkdtemp(join(tmpdir(), 'stream-poller-test-'));
  ddb = await startDynamoDbLocal({ dataDir: join(dir, 'dynamodb') });
}, 60_000);

afterAll(async () => {
  await Promise.all(pollers.map((poller) => poller.stop()));
  await ddb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 30_000);

/** A fresh table per test, so every poller starts on its own stream. */
async function freshTable(
  name: string,
): Promise<{ tableName: string; put: (sk: string, payload?: Record<string, unknown>) => Promise<void> }> {
  const tableName = `poller-${name}`;
  await createTable({ endpoint: ddb.endpoint, tableName });
  return {
    tableName,
    put: async (sk: string, payload?: Record<string, unknown>) => {
      const client = new DynamoDBClient({
        endpoint: ddb.endpoint,
        region: 'eu-central-1',
        credentials: LOCAL_CREDENTIALS,
      });
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: {
              pk: { S: 'outbox' },
              sk: { S: sk },
              payload: (payload ?? { M: { n: { N: '42' }, raw: { B: Buffer.from('hi') } } }) as never,
            },
          }),
        );
      } finally {
        client.destroy();
      }
    },
  };
}

function poll(
  opts: Pick<StreamPollerOptions, 'tableName' | 'checkpointFile'> & Partial<StreamPollerOptions>,
): {
  poller: StreamPoller;
  batches: DynamoDBRecord[][];
  logs: Array<{ message: string; details?: Record<string, unknown> }>;
} {
  const batches: DynamoDBRecord[][] = [];
  const logs: Array<{ message: string; details?: Record<string, unknown> }> = [];
  const poller = startStreamPoller({
    endpoint: ddb.endpoint,
    onRecords: async (event: DynamoDBStreamEvent) => {
      batches.push(event.Records);
    },
    log: (message, details) => logs.push({ message, ...(details ? { details } : {}) }),
    ...opts,
  });
  pollers.push(poller);
  return { poller, batches, logs };
}

const sortKeys = (records: DynamoDBRecord[]) => records.map((record) => record.dynamodb?.Keys?.sk?.S);

describe('startStreamPoller', () => {
  it('delivers each inserted item once, in the Lambda event shape', async () => {
    const table = await freshTable('shape');
    const { poller, batches, logs } = poll({
      tableName: table.tableName,
      checkpointFile: join(dir, 'shape.json'),
    });
    for (const sk of ['a', 'b', 'c']) await table.put(sk);
    await poller.drained();
    await poller.stop();

    const records = batches.flat();
    expect(sortKeys(records)).toEqual(['a', 'b', 'c']);
    expect(new Set(records.map((record) => record.dynamodb?.SequenceNumber)).size).toBe(3);
    const client = new DynamoDBClient({
      endpoint: ddb.endpoint,
      region: 'eu-central-1',
      credentials: LOCAL_CREDENTIALS,
    });
    const description = await client.send(new DescribeTableCommand({ TableName: table.tableName }));
    client.destroy();
    expect(records[0]).toEqual({
      eventID: expect.any(String),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'eu-central-1',
      eventSourceARN: description.Table?.LatestStreamArn,
      dynamodb: {
        ApproximateCreationDateTime: expect.any(Number),
        Keys: { pk: { S: 'outbox' }, sk: { S: 'a' } },
        NewImage: {
          pk: { S: 'outbox' },
          sk: { S: 'a' },
          payload: { M: { n: { N: '42' }, raw: { B: Buffer.from('hi').toString('base64') } } },
        },
        SequenceNumber: expect.stringMatching(/^\d+$/),
        SizeBytes: expect.any(Number),
        StreamViewType: 'NEW_IMAGE',
      },
    });
    // Epoch seconds, not milliseconds.
    expect(Math.abs(records[0]!.dynamodb!.ApproximateCreationDateTime! - Date.now() / 1000)).toBeLessThan(
      600,
    );
    expect(logs).toEqual([]);
  });

  it('reads a write at once when woken, however long its idle pause', async () => {
    // Prepare: a poller that, once idle, would not poll again for 20 s.
    const table = await freshTable('wake');
    let signal = () => {};
    const { batches } = poll({
      tableName: table.tableName,
      checkpointFile: null,
      intervalMs: 20_000,
      idleIntervalMs: 60_000,
      wakeOn: (wake) => {
        signal = wake;
        return () => {
          signal = () => {};
        };
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // Act: a write, and its signal (the local stack's: a write of the process).
    await table.put('woken');
    signal();

    // Assert: read within seconds, not at the end of the pause.
    await vi.waitFor(() => expect(sortKeys(batches.flat())).toEqual(['woken']), {
      timeout: 5_000,
      interval: 50,
    });
  });

  it('delivers a nested empty map as an empty map, not as a record it cannot convert', async () => {
    // An update that changes no visible key has `previous_attributes: {}` in its event.
    const table = await freshTable('empty-map');
    const { poller, batches, logs } = poll({
      tableName: table.tableName,
      checkpointFile: join(dir, 'empty-map.json'),
    });
    await table.put('a', { M: { previous_attributes: { M: {} }, object: { M: { id: { S: 'x' } } } } });
    await poller.drained();
    await poller.stop();

    expect(batches.flat()[0]?.dynamodb?.NewImage?.payload).toEqual({
      M: { previous_attributes: { M: {} }, object: { M: { id: { S: 'x' } } } },
    });
    expect(logs).toEqual([]);
  });

  it('resumes after the last processed record when restarted with the same checkpoint file', async () => {
    const table = await freshTable('restart');
    const checkpointFile = join(dir, 'restart', 'checkpoint.json');
    const first = poll({ tableName: table.tableName, checkpointFile });
    for (const sk of ['1', '2', '3']) await table.put(sk);
    await first.poller.drained();
    await first.poller.stop();
    const saved = JSON.parse(await readFile(checkpointFile, 'utf8')) as { streamArn: string; shards: object };
    expect(saved.streamArn).toContain(table.tableName);
    expect(Object.values(saved.shards)).toEqual([first.batches.flat().at(-1)?.dynamodb?.SequenceNumber]);

    // Records written while nobody polls, and DynamoDB Local restarted on its persisted data (as `npm start` does).
    for (const sk of ['4', '5']) await table.put(sk);
    await ddb.stop();
    ddb = await startDynamoDbLocal({ dataDir: join(dir, 'dynamodb') });

    const second = poll({ tableName: table.tableName, checkpointFile });
    await table.put('6');
    await second.poller.drained();
    await second.poller.stop();

    expect(sortKeys(first.batches.flat())).toEqual(['1', '2', '3']);
    expect(sortKeys(second.batches.flat())).toEqual(['4', '5', '6']);
  }, 30_000);

  it('hands a record reported in batchItemFailures back, retrying from that record on', async () => {
    const table = await freshTable('partial');
    for (const sk of ['x', 'y', 'z']) await table.put(sk);
    const calls: Array<Array<string | undefined>> = [];
    const { poller, logs } = poll({
      tableName: table.tableName,
      checkpointFile: null,
      onRecords: async (event) => {
        calls.push(sortKeys(event.Records));
        const y = event.Records.find((record) => record.dynamodb?.Keys?.sk?.S === 'y');
        if (calls.length === 1 && y)
          return { batchItemFailures: [{ itemIdentifier: y.dynamodb!.SequenceNumber! }] };
        return { batchItemFailures: [] };
      },
    });
    await poller.drained();
    await poller.stop();
    expect(calls).toEqual([
      ['x', 'y', 'z'],
      ['y', 'z'],
    ]);
    expect(logs).toEqual([]);
  });

  it('retries a batch whose callback throws', async () => {
    const table = await freshTable('throws');
    for (const sk of ['p', 'q']) await table.put(sk);
    const calls: Array<Array<string | undefined>> = [];
    const { poller } = poll({
      tableName: table.tableName,
      checkpointFile: null,
      onRecords: async (event) => {
        calls.push(sortKeys(event.Records));
        if (calls.length === 1) throw new Error('downstream unavailable');
      },
    });
    await poller.drained();
    await poller.stop();
    expect(calls).toEqual([
      ['p', 'q'],
      ['p', 'q'],
    ]);
  });

  it('gives up on a record after three retries, logs it, and goes on with the next ones', async () => {
    const table = await freshTable('poison');
    for (const sk of ['ok-1', 'poison', 'ok-2']) await table.put(sk);
    const calls: Array<Array<string | undefined>> = [];
    const { poller, logs } = poll({
      tableName: table.tableName,
      checkpointFile: join(dir, 'poison.json'),
      onRecords: async (event) => {
        calls.push(sortKeys(event.Records));
        const poison = event.Records.find((record) => record.dynamodb?.Keys?.sk?.S === 'poison');
        return { batchItemFailures: poison ? [{ itemIdentifier: poison.dynamodb!.SequenceNumber! }] : [] };
      },
    });
    await poller.drained();
    await poller.stop();
    expect(calls).toEqual([
      ['ok-1', 'poison', 'ok-2'],
      ['poison', 'ok-2'],
      ['poison', 'ok-2'],
      ['poison', 'ok-2'],
      ['ok-2'],
    ]);
    expect(logs).toEqual([
      {
        message: expect.stringContaining('failed after retries'),
        details: expect.objectContaining({ keys: { pk: { S: 'outbox' }, sk: { S: 'poison' } }, attempts: 4 }),
      },
    ]);

    // The skipped record is behind the checkpoint: a restart does not bring it back.
    const again = poll({ tableName: table.tableName, checkpointFile: join(dir, 'poison.json') });
    await again.poller.drained();
    await again.poller.stop();
    expect(again.batches).toEqual([]);
  }, 20_000);
});
