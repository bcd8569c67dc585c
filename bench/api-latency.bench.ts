/**
 * `npm run bench`: latency and throughput of a read and a write through the whole local stack
 * (HTTP → kernel → auth → DynamoDB Local), the same read handler invoked in-process as Lambda
 * invokes it, and the bare GetItem / PutItem / 2-put transaction on the same DynamoDB Local,
 * plus the DynamoDB calls each API operation makes (reported by the service itself with
 * FSM_REPORT_DYNAMODB_CALLS). Samples of all operations are interleaved round by round, so
 * they see the same machine load and table size. Goals: read = 1 call warm, write = 1
 * transaction, GET p50 within 1.5x of the bare GetItem and POST within 2x of the bare PutItem
 * (beside it the bare transaction of the same three writes a create makes),
 * and the CPU one GET costs the service's node process (from /proc, its idle work subtracted)
 * at most 0.5 ms. Ends with the performance issue's table. Prints figures; asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { startService } from '../shared/local-stack/service-process.ts';

const samples = Number(process.env.BENCH_SAMPLES ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const throughputSeconds = Number(process.env.BENCH_SECONDS ?? 3);

const median = (values: number[]) => percentile(values, 0.5);
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
const ms = (n: number) => `${n.toFixed(2)} ms`;

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

/** CPU time (ms) a process has used so far, from /proc (Linux): user + system clock ticks. */
async function cpuMsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

/** DynamoDB Local: the service's java child process. */
async function jvmPid(parent: number): Promise<number | undefined> {
  const tasks = await readdir(`/proc/${parent}/task`);
  for (const task of tasks) {
    const children = (await readFile(`/proc/${parent}/task/${task}/children`, 'utf8')).trim().split(/\s+/);
    for (const child of children.filter(Boolean)) {
      const cmdline = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.includes('java')) return Number(child);
    }
  }
  return undefined;
}

/**
 * CPU per GET of the service's own node process (and of the JVM beside it): both processes'
 * CPU over 2,000 sequential GETs, less what they burn idle at the same rate (stream and queue
 * pollers, timers), measured over 3 s just before.
 */
async function cpuPerGet(
  run: () => Promise<void>,
): Promise<{ service: number; jvm?: number; idleMsPerSecond: number }> {
  const pid = service.child.pid;
  if (!pid || process.platform !== 'linux') return { service: Number.NaN, idleMsPerSecond: 0 };
  const jvm = await jvmPid(pid);
  const sample = async () => ({
    at: performance.now(),
    node: await cpuMsOf(pid),
    jvm: jvm ? await cpuMsOf(jvm) : 0,
  });
  const idleStart = await sample();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idleEnd = await sample();
  const idleSeconds = (idleEnd.at - idleStart.at) / 1000;
  const requests = 2000;
  const start = await sample();
  for (let i = 0; i < requests; i++) await run();
  const end = await sample();
  const seconds = (end.at - start.at) / 1000;
  const net = (key: 'node' | 'jvm') =>
    (end[key] - start[key] - ((idleEnd[key] - idleStart[key]) / idleSeconds) * seconds) / requests;
  return {
    service: net('node'),
    ...(jvm ? { jvm: net('jvm') } : {}),
    idleMsPerSecond: (idleEnd.node - idleStart.node) / idleSeconds,
  };
}

/**
 * Waits until the service has done the work its last requests set off: its CPU over half a
 * second stays under 10% (pollers and timers alone use about 4%), at most 30 s.
 */
async function settled(): Promise<void> {
  const pid = service.child.pid;
  if (!pid || process.platform !== 'linux') return new Promise((resolve) => setTimeout(resolve, 3000));
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const before = await cpuMsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    if ((await cpuMsOf(pid)) - before < 50) return;
  }
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

  // The same handler in this process, as Lambda invokes it: the kernel's own cost (auth,
  // validation, serialisation) over the DynamoDB call, without the loopback HTTP hop.
  Object.assign(process.env, {
    FSM_BASE_URL: baseUrl,
    FSM_AUTH_URL: baseUrl,
    FSM_DYNAMODB_ENDPOINT: service.dynamodbEndpoint,
    FSM_TABLE_NAME: 'fsm',
    AWS_REGION: 'eu-central-1',
  });
  const { handler: areasHandler } = await import('../functions/areas/handler.ts');
  const { lambdaContext } = await import('../shared/server/lambda-http-adapter.ts');
  const getEvent = () =>
    ({
      version: '2.0',
      routeKey: 'GET /api/v2/areas/{area_id}',
      rawPath: `/api/v2/areas/${area.id}`,
      rawQueryString: '',
      headers: { authorization: `Bearer ${token}` },
      pathParameters: { area_id: area.id },
      requestContext: { http: { method: 'GET', path: `/api/v2/areas/${area.id}` } },
      isBase64Encoded: false,
    }) as never;

  const dynamo = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: service.dynamodbEndpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const bareKey = { pk: `BENCH#${randomUUID()}`, sk: 'item' };
  await dynamo.send(new PutCommand({ TableName: 'fsm', Item: { ...bareKey, name: 'x' } }));

  // DynamoDB calls per API request, summed from the service's x-dynamodb-calls answers: the
  // steady state includes the auth cache refreshing every FSM_AUTH_CACHE_SECONDS.
  const readCalls = { requests: 0, calls: new Map<string, number>(), waits: [] as number[] };
  const writeCalls = { requests: 0, calls: new Map<string, number>(), waits: [] as number[] };
  async function tally(into: typeof readCalls, response: Response): Promise<void> {
    await response.arrayBuffer();
    into.requests++;
    into.waits.push(Number(response.headers.get('x-dynamodb-ms') ?? Number.NaN));
    for (const part of (response.headers.get('x-dynamodb-calls') ?? '').split(', ')) {
      const [name, count] = part.split('=');
      if (name && count) into.calls.set(name, (into.calls.get(name) ?? 0) + Number(count));
    }
  }
  const perRequest = (tallied: typeof readCalls) =>
    [...tallied.calls].map(([name, count]) => `${name}=${(count / tallied.requests).toFixed(3)}`).join(', ');

  let n = 0;
  const operations: Record<string, () => Promise<void>> = {
    'GET /api/v2/areas/{area_id}': async () => tally(readCalls, await getArea()),
    'POST /api/v2/areas': async () => tally(writeCalls, await createArea()),
    // The loopback HTTP hop alone: the same server and kernel, a route that reads nothing.
    'GET /health (no DynamoDB)': async () => void (await (await fetch(`${baseUrl}/health`)).arrayBuffer()),
    'GET handler in-process (as on Lambda)': async () => {
      const result = await areasHandler(getEvent(), lambdaContext('areas'));
      if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
    },
    'bare GetItem': async () => void (await dynamo.send(new GetCommand({ TableName: 'fsm', Key: bareKey }))),
    'bare PutItem': async () =>
      void (await dynamo.send(
        new PutCommand({ TableName: 'fsm', Item: { pk: bareKey.pk, sk: `put-${n++}`, name: 'x' } }),
      )),
    // What a create costs at minimum: the resource and its outbox event in one transaction.
    'bare 2-put transaction': async () => {
      const i = n++;
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
    },
    // What POST /areas writes, without the service: the area with its four list-index keys
    // (name, color, created_at, updated_at: four GSI entries), its outbox event and the list's
    // counter, in one transaction. DynamoDB Local writes each GSI entry inside the call.
    'bare area-create transaction': async () => {
      const i = n++;
      const at = new Date().toISOString();
      const id = randomUUID();
      const sk = (value: string) => `${value}#${id}`;
      await dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: 'fsm',
                Item: {
                  pk: bareKey.pk,
                  sk: `area-${i}`,
                  id,
                  name: `Bench ${id}`,
                  color: '#336699',
                  zip_ranges: [{ from: '10000', to: '19999' }],
                  lock_version: 0,
                  created_at: at,
                  updated_at: at,
                  gsi1pk: `${bareKey.pk}#L`,
                  gsi1sk: sk(`bench ${id}`),
                  gsi2pk: `${bareKey.pk}#L`,
                  gsi2sk: sk('#336699'),
                  gsi4pk: `${bareKey.pk}#L`,
                  gsi4sk: sk(at),
                  gsi5pk: `${bareKey.pk}#L`,
                  gsi5sk: sk(at),
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: 'fsm',
                Item: { pk: `${bareKey.pk}#OUTBOX`, sk: `area-${i}`, event: { type: 'area.created', id } },
              },
            },
            {
              Update: {
                TableName: 'fsm',
                Key: { pk: `${bareKey.pk}#COUNT`, sk: 'AREA#all' },
                UpdateExpression: 'ADD #count :one',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        }),
      );
    },
  };

  // Warm caches (JWKS, verified token, workspace, principal, connections, JIT) before measuring.
  for (let i = 0; i < 50; i++) for (const run of Object.values(operations)) await run();
  for (const tallied of [readCalls, writeCalls]) {
    tallied.requests = 0;
    tallied.calls.clear();
    tallied.waits.length = 0;
  }

  // Reads and writes are measured in separate phases, each with its own baselines interleaved:
  // a create sets off work after its answer (the stream processor reads its outbox event and
  // writes the audit log entry), which would otherwise land in the middle of the reads measured
  // after it. The reads run first, once that work of the warm-up has settled.
  const reads = [
    'GET /api/v2/areas/{area_id}',
    'GET /health (no DynamoDB)',
    'GET handler in-process (as on Lambda)',
    'bare GetItem',
  ];
  const writes = Object.keys(operations).filter((name) => !reads.includes(name));
  const times = new Map<string, number[]>(Object.keys(operations).map((name) => [name, []]));
  async function measure(names: string[]): Promise<void> {
    for (let round = 0; round < samples; round++) {
      for (const name of names) {
        const start = performance.now();
        await operations[name]!();
        times.get(name)?.push(performance.now() - start);
      }
    }
  }
  await settled();
  await measure(reads);
  const cpu = await cpuPerGet(operations['GET /api/v2/areas/{area_id}']!);
  const readRps = await throughput(operations['GET /api/v2/areas/{area_id}']!);
  await measure(writes);
  const writeRps = await throughput(operations['POST /api/v2/areas']!);

  const calls: Record<string, string> = {
    'GET /api/v2/areas/{area_id}': `${perRequest(readCalls)} per request`,
    'POST /api/v2/areas': `${perRequest(writeCalls)} per request`,
    'GET /health (no DynamoDB)': 'none',
    'GET handler in-process (as on Lambda)': 'GetItem=1',
    'bare GetItem': 'GetItem=1',
    'bare PutItem': 'PutItem=1',
    'bare 2-put transaction': 'TransactWriteItems=1',
    'bare area-create transaction': 'TransactWriteItems=1 (3 items, 4 GSI entries)',
  };
  const rps: Record<string, string> = {
    'GET /api/v2/areas/{area_id}': readRps.toFixed(0),
    'POST /api/v2/areas': writeRps.toFixed(0),
  };
  console.log(
    `\nAPI latency (${samples} interleaved rounds; throughput with ${concurrency} concurrent clients for ${throughputSeconds} s)`,
  );
  console.log(['operation', 'p50', 'p99', 'req/s', 'DynamoDB calls'].join(' | '));
  for (const [name, values] of times) {
    console.log(
      [name, ms(median(values)), ms(percentile(values, 0.99)), rps[name] ?? '', calls[name]].join(' | '),
    );
  }
  const p50 = (name: string) => median(times.get(name) ?? []);
  const ratio = (a: string, b: string) => `${(p50(a) / p50(b)).toFixed(2)}x`;
  console.log(
    `read p50 / bare GetItem p50:                 ${ratio('GET /api/v2/areas/{area_id}', 'bare GetItem')} (goal <= 1.5x)`,
  );
  console.log(
    `in-process read handler p50 / bare GetItem:  ${ratio('GET handler in-process (as on Lambda)', 'bare GetItem')}`,
  );
  console.log(
    `(GET /health p50 + bare GetItem p50) / bare GetItem: ${((p50('GET /health (no DynamoDB)') + p50('bare GetItem')) / p50('bare GetItem')).toFixed(2)}x (the floor with one HTTP hop on this machine)`,
  );
  console.log(
    `write p50 / bare PutItem p50:                ${ratio('POST /api/v2/areas', 'bare PutItem')} (goal <= 2x)`,
  );
  console.log(
    `write p50 / bare 2-put transaction p50:      ${ratio('POST /api/v2/areas', 'bare 2-put transaction')}`,
  );
  console.log(
    `write p50 / bare area-create transaction:    ${ratio('POST /api/v2/areas', 'bare area-create transaction')}`,
  );
  // The service's own share: each request's time less the time it waited for DynamoDB (from
  // the service's x-dynamodb-ms answer), p50 over the measured rounds.
  const ownShare = (tallied: typeof readCalls, name: string) => {
    const walls = times.get(name) ?? [];
    return median(walls.map((wall, i) => wall - (tallied.waits[i] ?? Number.NaN)).filter(Number.isFinite));
  };
  console.log(
    `service's own time per request (p50 of time less its DynamoDB wait): GET ${ms(ownShare(readCalls, 'GET /api/v2/areas/{area_id}'))}, POST ${ms(ownShare(writeCalls, 'POST /api/v2/areas'))}`,
  );
  console.log(
    `CPU per GET, service node process:           ${ms(cpu.service)} (goal <= 0.5 ms; its idle work, ${cpu.idleMsPerSecond.toFixed(0)} ms/s of pollers and timers, subtracted)`,
  );
  console.log(`CPU per GET, DynamoDB Local's JVM:           ${cpu.jvm === undefined ? 'n/a' : ms(cpu.jvm)}`);
  console.log("\nSummary (the issue's table):");
  console.log('| figure | measured | goal |');
  console.log('|---|---|---|');
  console.log(
    `| GET one area p50 / bare GetItem p50 | ${ms(p50('GET /api/v2/areas/{area_id}'))} / ${ms(p50('bare GetItem'))} = ${ratio('GET /api/v2/areas/{area_id}', 'bare GetItem')} | <= 1.5x |`,
  );
  console.log(
    `| POST area p50 / bare PutItem p50 | ${ms(p50('POST /api/v2/areas'))} / ${ms(p50('bare PutItem'))} = ${ratio('POST /api/v2/areas', 'bare PutItem')} | <= 2x |`,
  );
  console.log(
    `| (beside it) POST area p50 / bare transaction of the same 3 writes | ${ms(p50('POST /api/v2/areas'))} / ${ms(p50('bare area-create transaction'))} = ${ratio('POST /api/v2/areas', 'bare area-create transaction')} | |`,
  );
  console.log(`| CPU per GET of the service's node process | ${ms(cpu.service)} | <= 0.5 ms |`);
  console.log(
    '| largest bundle / slowest cold import | `npm run bench:bundles` (next in `npm run bench`) | <= 250 KB / <= 60 ms |',
  );
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
