/**
 * `npm run bench:event-stream`: what event-stream connections cost the process that holds them,
 * and how fast an event reaches its subscribers (issue 36; docs/operations.md, "The event
 * stream's memory"). For each connection count (default 1,000 and 5,000), a fresh `npm start`
 * service (temporary DATA_DIR, started as package.json starts it: shared/local-stack/
 * lean-runtime.ts) seeded with one workspace and one API client per 5 connections:
 *
 * 1. Resting: the service process's RSS and JS heap after a full collection, before any request.
 * 2. Connections: every token issued first (the identity provider's work, not the stream's),
 *    then the count held (raw HTTP clients in this process); RSS and heap used after a full
 *    collection, per connection. Goal ≤ 15 KB of RSS per connection at 5,000.
 * 3. Delivery (in the last run): 200 subscribers, case writes one at a time; p50/p99 from a
 *    write's response to each subscriber's receipt. Goal p99 ≤ 500 ms.
 * 4. The container at rest: bin/serve-container.ts (the process that holds the connections on
 *    AWS) against the same stack, with the stream subscribed; its RSS and heap after a full
 *    collection. Goal ≤ 150 MB.
 * Prints figures; asserts nothing.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ListTopicsCommand, SNSClient } from '@aws-sdk/client-sns';
import { freePort } from '../shared/local-stack/free-port.ts';
import { leanRuntime } from '../shared/local-stack/lean-runtime.ts';
import { type RunningService, startService } from '../shared/local-stack/service-process.ts';
import { localStreamTopic } from '../shared/local-stack/stream-topic.ts';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '1000,5000' },
    subscribers: { type: 'string', default: '200' },
    writes: { type: 'string', default: '50' },
  },
});
const connectionSteps = values.connections.split(',').map(Number);
const subscriberCount = Number(values.subscribers);
const writeCount = Number(values.writes);
const perClient = 5;

interface Memory {
  rssKb: number;
  heapUsedKb: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

/** A process's RSS and JS heap used after a full collection in it (SIGUSR2, --expose-gc). */
async function memoryOf(pid: number, output: () => string): Promise<Memory> {
  const before = output().length;
  process.kill(pid, 'SIGUSR2');
  let line: string | undefined;
  for (let i = 0; i < 50 && !line; i++) {
    await pause(100);
    line = /memory after collection (\{.*\})/.exec(output().slice(before))?.[1];
  }
  const usage = line ? (JSON.parse(line) as { heapUsed: number }) : undefined;
  const rss = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  return { rssKb: rss, heapUsedKb: usage ? usage.heapUsed / 1024 : Number.NaN };
}

async function freshService(clients: number): Promise<{ service: RunningService; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fsm-stream-bench-'));
  const seedFile = join(dataDir, 'seed.json');
  await writeFile(
    seedFile,
    JSON.stringify({
      workspaces: [
        {
          name: 'Stream bench',
          realm: 'shared',
          status: 'ACTIVE',
          clients: Array.from({ length: clients }, (_, i) => ({
            client_id: `stream-${i}`,
            client_secret: `stream-secret-${i}`,
            roles: ['admin'],
          })),
        },
      ],
    }),
  );
  const service = await startService(
    {
      DATA_DIR: join(dataDir, 'data'),
      FSM_SEED: seedFile,
      FSM_ADMIN_CLIENT_SECRET: randomBytes(16).toString('hex'),
      LOG_LEVEL: 'error',
      NODE_OPTIONS: '--expose-gc',
    },
    600_000,
  );
  return { service, dataDir };
}

async function tokensOf(service: RunningService, clients: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let start = 0; start < clients; start += 50) {
    const batch = Array.from({ length: Math.min(50, clients - start) }, async (_, k) => {
      const response = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: `stream-${start + k}`,
          client_secret: `stream-secret-${start + k}`,
        }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    });
    tokens.push(...(await Promise.all(batch)));
  }
  return tokens;
}

interface Subscriber {
  close(): void;
  /** Receipt times by event id. */
  received: Map<string, number>;
}

/** One raw SSE connection (no client library: thousands of them in one process). */
function connect(baseUrl: string, token: string): Promise<Subscriber> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const received = new Map<string, number>();
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path: '/api/v2/events/stream',
        headers: { authorization: `Bearer ${token}` },
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const id = /^id: (.+)$/m.exec(buffer.slice(0, end))?.[1];
            if (id) received.set(id, Date.now());
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
          }
        });
        res.on('error', () => {});
        resolve({ close: () => req.destroy(), received });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function hold(baseUrl: string, tokens: readonly string[], count: number): Promise<Subscriber[]> {
  const held: Subscriber[] = [];
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, (_, k) => start + k);
    held.push(
      ...(await Promise.all(batch.map((n) => connect(baseUrl, tokens[Math.floor(n / perClient)] as string)))),
    );
  }
  return held;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** p50/p99 from each case write's answer to each subscriber's receipt, and missing receipts. */
async function delivery(service: RunningService, tokens: readonly string[]) {
  const subscribers = await hold(service.baseUrl, tokens, subscriberCount);
  const writer = tokens.at(-1) as string;
  const latencies: number[] = [];
  let missing = 0;
  const written: number[] = [];
  for (let i = 0; i < writeCount; i++) {
    await fetch(`${service.baseUrl}/api/v2/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Bench case ${i}` }),
    }).then((response) => response.text());
    written.push(Date.now());
    await pause(50);
  }
  await pause(3000);
  // The event id of each write: the ids every subscriber saw, matched by order.
  const ids = [...(subscribers[0]?.received.keys() ?? [])];
  written.forEach((at, i) => {
    const id = ids[i];
    for (const subscriber of subscribers) {
      const seen = id ? subscriber.received.get(id) : undefined;
      if (seen === undefined) missing++;
      else latencies.push(seen - at);
    }
  });
  for (const subscriber of subscribers) subscriber.close();
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), missing };
}

/** bin/serve-container.ts against the service's stack, subscribed to its stream; its memory at rest. */
async function containerAtRest(service: RunningService, dataDir: string): Promise<Memory> {
  const dynamodb = /DynamoDB Local at (\S+)/.exec(service.output())?.[1] ?? '';
  const aws = /SQS\/S3 emulator at (\S+)/.exec(service.output())?.[1] ?? '';
  const credentials = {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  const sns = new SNSClient({
    endpoint: aws,
    region: credentials.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { Topics = [] } = await sns.send(new ListTopicsCommand({}));
  sns.destroy();
  const topicArn = Topics.find((topic) => topic.TopicArn?.endsWith(`:${localStreamTopic}`))?.TopicArn ?? '';
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [...leanRuntime.nodeFlags, '--expose-gc', 'bin/serve-container.ts'],
    {
      env: {
        ...process.env,
        ...leanRuntime.env,
        ...credentials,
        PORT: String(port),
        LOG_LEVEL: 'error',
        FSM_BASE_URL: service.baseUrl,
        FSM_AUTH_URL: service.baseUrl,
        FSM_TABLE_NAME: 'fsm',
        FSM_DYNAMODB_ENDPOINT: dynamodb,
        FSM_SQS_ENDPOINT: aws,
        FSM_STREAM_TOPIC_ARN: topicArn,
        FSM_STREAM_QUEUE_PREFIX: 'fsm-bench-container',
        FSM_SIGNING_JWKS: await readFile(join(dataDir, 'data', 'identity', 'signing-key.json'), 'utf8'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      await pause(100);
    }
    await pause(2000);
    return await memoryOf(child.pid as number, () => output);
  } finally {
    child.kill('SIGTERM');
    await pause(500);
  }
}

interface Row {
  count: number;
  resting: Memory;
  baseline: Memory;
  loaded: Memory;
}

const rows: Row[] = [];
let deliveryFigures: Awaited<ReturnType<typeof delivery>> | undefined;
let container: Memory | undefined;
for (const [index, count] of connectionSteps.entries()) {
  const clients = Math.ceil(Math.max(count, subscriberCount + perClient) / perClient);
  console.log(`${count} connections: a fresh service with ${clients} API clients…`);
  const { service, dataDir } = await freshService(clients);
  const pid = service.child.pid as number;
  try {
    await pause(2000);
    const resting = await memoryOf(pid, service.output);
    const tokens = await tokensOf(service, clients);
    const baseline = await memoryOf(pid, service.output);
    const held = await hold(service.baseUrl, tokens, count);
    await pause(3000);
    const loaded = await memoryOf(pid, service.output);
    rows.push({ count, resting, baseline, loaded });
    for (const subscriber of held) subscriber.close();
    if (index === connectionSteps.length - 1) {
      await pause(2000);
      deliveryFigures = await delivery(service, tokens);
      container = await containerAtRest(service, dataDir);
    }
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log('\nThe npm start process (it holds the connections locally), started as package.json starts it');
for (const { count, resting, baseline, loaded } of rows) {
  const perConnection = (before: number, after: number) => ((after - before) / count).toFixed(1);
  console.log(
    `  ${String(count).padStart(5)} connections: resting RSS ${mb(resting.rssKb)} (heap used ${mb(resting.heapUsedKb)}); ` +
      `with tokens ${mb(baseline.rssKb)}; held ${mb(loaded.rssKb)}: ` +
      `+${perConnection(baseline.rssKb, loaded.rssKb)} KB RSS per connection (goal ≤ 15 KB at 5,000), ` +
      `+${perConnection(baseline.heapUsedKb, loaded.heapUsedKb)} KB heap used per connection`,
  );
}
if (deliveryFigures) {
  console.log(
    `\ndelivery to ${subscriberCount} subscribers, ${writeCount} case writes: p50 ${deliveryFigures.p50} ms, ` +
      `p99 ${deliveryFigures.p99} ms (goal ≤ 500 ms); missing receipts ${deliveryFigures.missing}`,
  );
}
if (container) {
  console.log(
    `\nthe container process (bin/serve-container.ts) at rest, subscribed to the stream: RSS ${mb(container.rssKb)} ` +
      `(goal ≤ 150 MB), heap used ${mb(container.heapUsedKb)}`,
  );
}
