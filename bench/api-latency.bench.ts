/**
 * `npm run bench`: latency and throughput of a read and a write through the whole local stack
 * (HTTP → kernel → auth → DynamoDB Local), against the bare GetItem/PutItem on the same
 * DynamoDB Local, and the DynamoDB calls each operation makes (reported by the service itself
 * with FSM_REPORT_DYNAMODB_CALLS). Goals: read = 1 call warm, write = 1 transaction, API p50
 * within 1.5x of the bare call. Prints figures; asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { startService } from '../test/support/service-process.ts';

const samples = Number(process.env.BENCH_SAMPLES ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const throughputSeconds = Number(process.env.BENCH_SECONDS ?? 3);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function timeEach(n: number, run: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function throughput(run: () => Promise<void>): Promise<number> {
  let done = 0;
  const deadline = performance.now() + throughputSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await run();
        done++;
      }
    }),
  );
  return done / throughputSeconds;
}

const dataDir = await mkdtemp(join(tmpdir(), 'fsm-bench-'));
const service = await startService({
  DATA_DIR: dataDir,
  FSM_REPORT_DYNAMODB_CALLS: 'true',
  LOG_LEVEL: 'error',
});
try {
  const { baseUrl } = service;
  const tokenResponse = await fetch(`${baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'demo-integration',
      client_secret: 'demo-secret-1',
    }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const createArea = () =>
    fetch(`${baseUrl}/api/v2/areas`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: `Bench ${randomUUID()}`,
        color: '#336699',
        zip_ranges: [{ from: '10000', to: '19999' }],
      }),
    });
  const area = (await (await createArea()).json()) as { id: string };
  const getArea = () => fetch(`${baseUrl}/api/v2/areas/${area.id}`, { headers });

  // Warm caches (JWKS, workspace, principal, connections) before measuring.
  for (let i = 0; i < 50; i++) await (await getArea()).arrayBuffer();

  const readCalls = (await getArea()).headers.get('x-dynamodb-calls');
  const writeResponse = await createArea();
  const writeCalls = writeResponse.headers.get('x-dynamodb-calls');

  const read = await timeEach(samples, async () => void (await (await getArea()).arrayBuffer()));
  const write = await timeEach(samples, async () => void (await (await createArea()).arrayBuffer()));
  const readRps = await throughput(async () => void (await (await getArea()).arrayBuffer()));
  const writeRps = await throughput(async () => void (await (await createArea()).arrayBuffer()));

  const dynamo = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: service.dynamodbEndpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const bareKey = { pk: `BENCH#${randomUUID()}`, sk: 'item' };
  await dynamo.send(new PutCommand({ TableName: 'fsm', Item: { ...bareKey, name: 'x' } }));
  for (let i = 0; i < 50; i++) await dynamo.send(new GetCommand({ TableName: 'fsm', Key: bareKey }));
  const bareGet = await timeEach(
    samples,
    async () => void (await dynamo.send(new GetCommand({ TableName: 'fsm', Key: bareKey }))),
  );
  const barePut = await timeEach(samples, async (i) => {
    await dynamo.send(
      new PutCommand({ TableName: 'fsm', Item: { pk: bareKey.pk, sk: `put-${i}`, name: 'x' } }),
    );
  });

  // What the write costs at minimum: the resource and its outbox event in one transaction.
  const bareTransact = await timeEach(samples, async (i) => {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: 'fsm',
              Item: { pk: bareKey.pk, sk: `tx-${i}`, name: 'x' },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: 'fsm', Item: { pk: bareKey.pk, sk: `tx-event-${i}`, name: 'x' } } },
        ],
      }),
    );
  });

  const rows = [
    [
      'GET /api/v2/areas/{area_id}',
      ms(percentile(read, 0.5)),
      ms(percentile(read, 0.99)),
      readRps.toFixed(0),
      readCalls,
    ],
    [
      'POST /api/v2/areas',
      ms(percentile(write, 0.5)),
      ms(percentile(write, 0.99)),
      writeRps.toFixed(0),
      writeCalls,
    ],
    ['bare GetItem', ms(percentile(bareGet, 0.5)), ms(percentile(bareGet, 0.99)), '', 'GetItem=1'],
    ['bare PutItem', ms(percentile(barePut, 0.5)), ms(percentile(barePut, 0.99)), '', 'PutItem=1'],
    [
      'bare 2-put transaction',
      ms(percentile(bareTransact, 0.5)),
      ms(percentile(bareTransact, 0.99)),
      '',
      'TransactWriteItems=1',
    ],
  ];
  console.log(
    `\nAPI latency (${samples} sequential samples; throughput with ${concurrency} concurrent clients for ${throughputSeconds} s)`,
  );
  console.log(['operation', 'p50', 'p99', 'req/s', 'DynamoDB calls'].join(' | '));
  for (const row of rows) console.log(row.join(' | '));
  console.log(
    `read p50 / bare GetItem p50:  ${(percentile(read, 0.5) / percentile(bareGet, 0.5)).toFixed(2)}x (goal <= 1.5x)`,
  );
  console.log(
    `write p50 / bare PutItem p50: ${(percentile(write, 0.5) / percentile(barePut, 0.5)).toFixed(2)}x (goal <= 1.5x)`,
  );
  console.log(
    `write p50 / bare 2-put transaction p50: ${(percentile(write, 0.5) / percentile(bareTransact, 0.5)).toFixed(2)}x`,
  );
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
