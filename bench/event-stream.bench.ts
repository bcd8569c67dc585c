/**
 * `npm run bench:stream`: what event-stream connections cost one local node, and how fast an
 * event reaches its subscribers. A fresh service (temporary DATA_DIR) seeded with one
 * workspace and 1,000 API clients (5 connections each at most, as the cap allows).
 *
 * 1. Connections: the service process's RSS (after a full collection; tokens issued before the
 *    baseline) before and after holding 1,000 and then 5,000
 *    connections (raw HTTP clients in this process), in KB per connection. Goal ≤ 25 KB.
 * 2. Delivery: 200 subscribers (40 clients × 5); writes that produce stream events, one at a
 *    time; p50/p99 from a write's response to each subscriber's receipt, and missing receipts.
 *    Goal p99 ≤ 500 ms. The event is a case write when cases exist (POST /api/v2/cases), else it
 *    says so and stops.
 * Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from '../shared/local-stack/service-process.ts';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    connections: { type: 'string', default: '1000,5000' },
    subscribers: { type: 'string', default: '200' },
    writes: { type: 'string', default: '50' },
  },
});
const clientCount = Number(values.clients);
const connectionSteps = values.connections.split(',').map(Number);
const subscriberCount = Number(values.subscribers);
const writeCount = Number(values.writes);

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
        clients: Array.from({ length: clientCount }, (_, i) => ({
          client_id: `stream-${i}`,
          client_secret: `stream-secret-${i}`,
          roles: ['admin'],
        })),
      },
    ],
  }),
);
console.log(`seeding ${clientCount} API clients…`);
const service = await startService(
  {
    DATA_DIR: join(dataDir, 'data'),
    FSM_SEED: seedFile,
    FSM_ADMIN_CLIENT_SECRET: randomBytes(16).toString('hex'),
    LOG_LEVEL: 'error',
    // SIGUSR2 then collects garbage (bin/start.ts), so RSS counts what connections hold.
    NODE_OPTIONS: '--expose-gc',
  },
  600_000,
);
const base = new URL(service.baseUrl);

interface Memory {
  rssKb: number;
  heapKb: number;
}

/** The service's RSS and JS heap (used + external) after a full garbage collection in it. */
async function memory(): Promise<Memory> {
  const before = service.output().length;
  service.child.kill('SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const line = /memory after collection (\{.*\})/.exec(service.output().slice(before))?.[1];
  const usage = line ? (JSON.parse(line) as { heapUsed: number; external: number }) : undefined;
  const rss = Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(service.child.pid)], { encoding: 'utf8' }).trim(),
  );
  return { rssKb: rss, heapKb: usage ? (usage.heapUsed + usage.external) / 1024 : Number.NaN };
}

const tokens = new Map<number, string>();
async function tokenOf(i: number): Promise<string> {
  const cached = tokens.get(i);
  if (cached) return cached;
  const response = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: `stream-${i}`,
      client_secret: `stream-secret-${i}`,
    }),
  });
  const token = ((await response.json()) as { access_token: string }).access_token;
  tokens.set(i, token);
  return token;
}

interface Subscriber {
  close(): void;
  /** Receipt times by event id. */
  received: Map<string, number>;
}

/** One raw SSE connection (no client library: thousands of them in one process). */
function connect(token: string): Promise<Subscriber> {
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

async function hold(count: number): Promise<Subscriber[]> {
  const held: Subscriber[] = [];
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, (_, k) => start + k);
    held.push(...(await Promise.all(batch.map(async (n) => connect(await tokenOf(Math.floor(n / 5)))))));
  }
  return held;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

try {
  console.log(
    '\nconnections held by one local node (the service process: server, DynamoDB client, emulators in process)',
  );
  // Every token is issued first: issuing them is the identity provider's work, not the stream's.
  const needed = Math.ceil(Math.min(Math.max(...connectionSteps), clientCount * 5) / 5);
  for (let start = 0; start < needed; start += 50) {
    await Promise.all(Array.from({ length: Math.min(50, needed - start) }, (_, k) => tokenOf(start + k)));
  }
  const baseline = await memory();
  console.log(
    `  baseline RSS ${(baseline.rssKb / 1024).toFixed(1)} MB, JS heap ${(baseline.heapKb / 1024).toFixed(1)} MB`,
  );
  for (const count of connectionSteps) {
    if (count > clientCount * 5) {
      console.log(`  ${count}: needs ${Math.ceil(count / 5)} clients (have ${clientCount}); skipped`);
      continue;
    }
    const held = await hold(count);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const now = await memory();
    const perConnection = (kb: number) => (kb / count).toFixed(1);
    console.log(
      `  ${String(count).padStart(5)} connections: RSS ${(now.rssKb / 1024).toFixed(1)} MB ` +
        `(+${perConnection(now.rssKb - baseline.rssKb)} KB per connection, goal ≤ 25 KB), ` +
        `JS heap +${perConnection(now.heapKb - baseline.heapKb)} KB per connection`,
    );
    for (const subscriber of held) subscriber.close();
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }

  console.log(`\ndelivery to ${subscriberCount} subscribers`);
  const subscribers = await hold(subscriberCount);
  const writer = await tokenOf(clientCount - 1);
  const probe = await fetch(`${service.baseUrl}/api/v2/cases?size=1`, {
    headers: { authorization: `Bearer ${writer}` },
  });
  if (probe.status === 404) {
    console.log('  POST /api/v2/cases does not exist yet: no event with a stream kind to write; skipped');
  } else {
    const latencies: number[] = [];
    let missing = 0;
    const written: Array<{ at: number; id?: string; caseId: string }> = [];
    for (let i = 0; i < writeCount; i++) {
      const response = await fetch(`${service.baseUrl}/api/v2/cases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Bench case ${i}` }),
      });
      const body = (await response.json()) as { id: string };
      written.push({ at: Date.now(), caseId: body.id });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // The event id of each write: the newest id every subscriber saw after it, matched by order.
    const ids = [...(subscribers[0]?.received.keys() ?? [])];
    written.forEach((write, i) => {
      const id = ids[i];
      for (const subscriber of subscribers) {
        const at = id ? subscriber.received.get(id) : undefined;
        if (at === undefined) missing++;
        else latencies.push(at - write.at);
      }
    });
    latencies.sort((a, b) => a - b);
    console.log(
      `  ${writeCount} case writes: p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms, max ${latencies.at(-1)} ms (goal p99 ≤ 500 ms); missing receipts ${missing}`,
    );
  }
  for (const subscriber of subscribers) subscriber.close();
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
