/**
 * `npm run bench:webhooks`: how fast webhook deliveries flow through the local pipeline
 * (POST /api/v2/areas → outbox → stream poller → dispatcher → SQS emulator → queue poller →
 * delivery worker → receiver), on a fresh service (temporary DATA_DIR, a seed with one workspace
 * and an admin client, FSM_WEBHOOK_ALLOW_LOCAL=true) and a receiver in this process answering
 * 204 that records when each delivery arrived, per `data.object.id` and `webhook-id`.
 *
 * After a sentinel area's delivery (the seed's stream records are processed by then) and a
 * warm-up of 100 writes (a fresh JVM and service are slow at first), not measured:
 *
 * Phase 1: one endpoint subscribed to `area.created`; 500 area writes from 8 concurrent clients,
 * each write's 201 time recorded. Prints deliveries/s (over the whole run from the first write's
 * start, and steady state over the middle 80 % of receipts), the latency from a write's 201 to
 * its delivery (p50/p95/p99), deliveries missing 60 s after the last write, duplicates (a
 * webhook-id received twice) and the write rate, which bounds deliveries/s in this phase; then
 * deliveries/s split into while the writes ran and after them (the backlog drain: the pipeline
 * alone, on events that already exist, with no writes competing for DynamoDB Local).
 * Phase 2 (only when the write rate is below the 200 deliveries/s goal): 5 endpoints on the same
 * receiver, so each write is 5 deliveries and the pipeline, not the writers, is the bound.
 * Phase 3: the delivery worker alone: 2,000 delivery messages of the dispatcher's format sent
 * straight to the service's delivery queue, so what remains is queue poller → worker →
 * receiver; its deliveries/s beside phase 2's shows which half of the pipeline bounds it.
 * Goals (printed beside the figures): ≥ 200 deliveries/s on 2 cores, p50 ≤ 250 ms, p99 ≤ 1 s,
 * 0 missing.
 *
 * The service inherits this process's environment, so a setting's effect can be shown without
 * code changes, e.g. `FSM_STREAM_POLL_MS=20 npm run bench:webhooks`. Prints figures; asserts
 * nothing; exits non-zero only when the run itself broke.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GetQueueUrlCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type RunningService, startService } from '../shared/local-stack/service-process.ts';
import type { DeliveryMessage } from '../shared/webhooks/delivery-queue.ts';
import { type Receiver, startReceiver } from '../test/doubles/webhook-receiver.ts';

const { values } = parseArgs({
  options: {
    writes: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '8' },
    fanout: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '100' },
    'worker-messages': { type: 'string', default: '2000' },
    'wait-seconds': { type: 'string', default: '60' },
  },
});
const writes = Number(values.writes);
const concurrency = Number(values.concurrency);
const fanout = Number(values.fanout);
const warmup = Number(values.warmup);
const workerMessages = Number(values['worker-messages']);
const waitMs = Number(values['wait-seconds']) * 1000;

const goals = { deliveriesPerSecond: 200, p50: 250, p99: 1000 };
const clientId = 'webhook-bench';
const clientSecret = 'webhook-bench-secret';

/** A write (or a message put on the queue): Date.now() when sent and answered (the receiver stamps Date.now() too). */
interface Input {
  /** The data.object.id its deliveries carry. */
  id: string;
  start: number;
  at: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

/** Items per second between the 10th and the 90th percentile of the (sorted) times. */
function middle80Rate(sorted: number[]): number {
  if (sorted.length < 10) return Number.NaN;
  const from = Math.floor(sorted.length * 0.1);
  const to = Math.ceil(sorted.length * 0.9) - 1;
  return ((to - from) * 1000) / ((sorted[to] ?? 0) - (sorted[from] ?? 0));
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

const deliveriesOf = (receiver: Receiver, ids: Set<string>) =>
  receiver.received.filter((r) => ids.has(String(r.json?.data?.object?.id)));

/** Waits until `perItem` distinct deliveries of every item arrived, or `ms` passed. */
async function settle(receiver: Receiver, ids: Set<string>, perItem: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const webhookIds = new Set(deliveriesOf(receiver, ids).map((r) => String(r.headers['webhook-id'])));
    if (webhookIds.size >= ids.size * perItem) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Prints the figures of one phase. `inputs` are the writes (or queued messages): when each
 * started and when it was answered (the 201, or the send to the queue), by data.object.id.
 */
async function report(
  receiver: Receiver,
  title: string,
  inputs: Input[],
  perItem: number,
  inputName: 'write' | 'message',
): Promise<number> {
  const lastInput = Math.max(...inputs.map((w) => w.at));
  const ids = new Set(inputs.map((w) => w.id));
  await settle(receiver, ids, perItem, waitMs - (Date.now() - lastInput));

  const firstStart = Math.min(...inputs.map((w) => w.start));
  const inputAt = new Map(inputs.map((w) => [w.id, w.at]));
  const firstByWebhookId = new Map<string, { at: number; id: string }>();
  let duplicates = 0;
  for (const r of deliveriesOf(receiver, ids)) {
    const webhookId = String(r.headers['webhook-id']);
    if (firstByWebhookId.has(webhookId)) duplicates++;
    else firstByWebhookId.set(webhookId, { at: r.at, id: String(r.json?.data?.object?.id) });
  }
  const firsts = [...firstByWebhookId.values()];
  const receipts = firsts.map((f) => f.at).sort((a, b) => a - b);
  const latencies = firsts.map((f) => f.at - (inputAt.get(f.id) ?? Number.NaN)).sort((a, b) => a - b);
  const lastReceipt = receipts.at(-1) ?? Number.NaN;
  const expected = ids.size * perItem;
  const delivered = firstByWebhookId.size;
  const rate = (delivered * 1000) / (lastReceipt - firstStart);
  const steady = middle80Rate(receipts);
  const inputRate = (inputs.length * 1000) / (lastInput - firstStart);
  const inputSteady = middle80Rate(inputs.map((w) => w.at).sort((a, b) => a - b));
  const p50 = percentile(latencies, 0.5);
  const p99 = percentile(latencies, 0.99);
  const goal = goals.deliveriesPerSecond;

  console.log(`\n${title}`);
  console.log(`  expected deliveries:          ${expected} (${inputs.length} ${inputName}s × ${perItem})`);
  console.log(
    `  ${`${inputName} rate:`.padEnd(29)} ${fmt(inputRate)}/s (middle 80 %: ${fmt(inputSteady)}/s)`,
  );
  console.log(
    `  deliveries/s, whole run:      ${fmt(rate)} = distinct deliveries / (last receipt − first ${inputName} start) = ${delivered} / ${fmt((lastReceipt - firstStart) / 1000, 1)} s   goal ≥ ${goal}: ${verdict(rate >= goal)}`,
  );
  console.log(
    `  deliveries/s, steady state:   ${fmt(steady)} (middle 80 % of receipts)   goal ≥ ${goal}: ${verdict(steady >= goal)}`,
  );
  const latency = `p50 ${fmt(p50)} ms, p95 ${fmt(percentile(latencies, 0.95))} ms, p99 ${fmt(p99)} ms, max ${fmt(latencies.at(-1) ?? Number.NaN)} ms`;
  if (inputName === 'write') {
    console.log(
      `  latency 201 → receipt:        ${latency}   goals p50 ≤ ${goals.p50}: ${verdict(p50 <= goals.p50)}, p99 ≤ ${goals.p99}: ${verdict(p99 <= goals.p99)}`,
    );
  } else {
    console.log(
      `  latency sent → receipt:       ${latency} (the queue is flooded on purpose: mostly queueing)`,
    );
  }
  console.log(
    `  last receipt after last ${inputName}: ${fmt(lastReceipt - lastInput)} ms (how far deliveries lagged behind)`,
  );
  const during = receipts.filter((at) => at <= lastInput).length;
  console.log(
    `  deliveries/s while the ${inputName}s ran: ${fmt((during * 1000) / (lastInput - firstStart))} (${during} deliveries in ${fmt((lastInput - firstStart) / 1000, 1)} s)`,
  );
  // Once the inputs stop, what is left is a backlog of events that already exist: its drain
  // rate is the pipeline's own, with nothing competing for DynamoDB Local or the CPU.
  const backlog = receipts.filter((at) => at > lastInput).length;
  console.log(
    `  backlog drain after the last ${inputName}: ${backlog} deliveries in ${fmt((lastReceipt - lastInput) / 1000, 1)} s = ${backlog >= 50 ? fmt((backlog * 1000) / (lastReceipt - lastInput)) : 'n/a (under 50)'} deliveries/s (${inputName === 'write' ? 'the pipeline alone, on events that already exist' : 'the worker alone, on messages already queued'})`,
  );
  console.log(
    `  missing ${waitMs / 1000} s after the last ${inputName}: ${expected - delivered} (goal 0: ${verdict(expected === delivered)})`,
  );
  console.log(`  duplicates (a webhook-id received again): ${duplicates}`);
  return inputRate;
}

async function main(service: RunningService, receiver: Receiver): Promise<void> {
  const { baseUrl } = service;
  let token = '';
  async function refreshToken(): Promise<void> {
    const response = await fetch(`${baseUrl}/realms/shared/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }),
    });
    if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
    token = ((await response.json()) as { access_token: string }).access_token;
  }
  await refreshToken();

  async function post(path: string, body: unknown): Promise<Response> {
    for (;;) {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status === 401) {
        await response.arrayBuffer();
        await refreshToken(); // expired during a long run
        continue;
      }
      if (response.status === 503) {
        // As a client should: an overloaded store answers 503 with Retry-After.
        await response.arrayBuffer();
        const seconds = Number(response.headers.get('retry-after') ?? 1);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        continue;
      }
      return response;
    }
  }

  async function createEndpoint(n: number): Promise<string> {
    const response = await post('/api/v2/webhook-endpoints', {
      display_name: `Bench receiver ${n}`,
      endpoint_url: `${receiver.url}/hook/${n}`,
      subscriptions: ['area.created'],
    });
    if (response.status !== 201) throw new Error(`endpoint: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  }

  async function createArea(name: string): Promise<Input> {
    const start = Date.now();
    const response = await post('/api/v2/areas', { name, color: '#336699' });
    const at = Date.now();
    if (response.status !== 201) throw new Error(`area: ${response.status} ${await response.text()}`);
    const { id } = (await response.json()) as { id: string };
    return { id, start, at };
  }

  async function writeAreas(count: number, prefix: string): Promise<Input[]> {
    const done: Input[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          done.push(await createArea(`${prefix} ${i} ${randomUUID().slice(0, 8)}`));
        }
      }),
    );
    return done;
  }

  /** One area whose deliveries show that everything written before it has been processed. */
  async function sentinel(perArea: number): Promise<{ ms: number; tenantId: string }> {
    const t0 = Date.now();
    const area = await createArea(`Sentinel ${randomUUID().slice(0, 8)}`);
    const [first] = await receiver.waitFor(perArea, (r) => r.json?.data?.object?.id === area.id, 300_000);
    return { ms: Date.now() - t0, tenantId: String(first?.json?.tenant_id) };
  }

  const endpointIds = [await createEndpoint(1)];
  const { ms: seedMs, tenantId } = await sentinel(1);
  console.log(`seed's stream records and the endpoint processed: sentinel delivered after ${seedMs} ms`);
  if (warmup > 0) {
    // A fresh JVM (DynamoDB Local) and a fresh service are slow for their first few hundred calls.
    const ids = new Set((await writeAreas(warmup, 'Warmup')).map((w) => w.id));
    await settle(receiver, ids, 1, 120_000);
    console.log(`warm-up: ${warmup} area writes delivered (not measured)`);
  }

  const writeRate = await report(
    receiver,
    `Phase 1: ${writes} area writes from ${concurrency} clients, 1 endpoint (deliveries bounded by the write rate)`,
    await writeAreas(writes, 'Phase1'),
    1,
    'write',
  );

  if (writeRate < goals.deliveriesPerSecond && fanout > 1) {
    for (let n = 2; n <= fanout; n++) endpointIds.push(await createEndpoint(n));
    console.log(
      `\n${fanout} endpoints processed: sentinel delivered ${fanout}× after ${(await sentinel(fanout)).ms} ms`,
    );
    await report(
      receiver,
      `Phase 2: ${writes} area writes from ${concurrency} clients, ${fanout} endpoints on the same receiver (each event is ${fanout} deliveries: the pipeline is loaded beyond the write rate)`,
      await writeAreas(writes, 'Phase2'),
      fanout,
      'write',
    );
  } else if (fanout > 1) {
    console.log('\nPhase 2 skipped: the write rate alone reaches the deliveries/s goal.');
  }

  if (workerMessages > 0) {
    await report(
      receiver,
      `Phase 3: the delivery worker alone: ${workerMessages} delivery messages sent straight to the delivery queue (no writes, no outbox, no dispatcher), spread over the ${endpointIds.length} endpoint(s)`,
      await enqueueDirectly(service, tenantId, endpointIds, workerMessages),
      1,
      'message',
    );
  }

  const warnings = service
    .output()
    .split('\n')
    .filter((line) => /"level":"(warn|error)"/.test(line));
  console.log(`\nservice warnings/errors logged during the run: ${warnings.length}`);
  for (const line of warnings.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
}

/**
 * Sends delivery messages as the dispatcher would (same format, 10 per SendMessageBatch) to the
 * service's delivery queue, 4 batches at a time. Each message is its own item: its body's
 * data.object.id is unique, so it is counted like an area.
 */
async function enqueueDirectly(
  service: RunningService,
  tenantId: string,
  endpointIds: string[],
  count: number,
): Promise<Input[]> {
  const endpoint = /SQS\/S3 emulator at (http:\/\/\S+)/.exec(service.output())?.[1];
  if (!endpoint) throw new Error('the service did not print the SQS emulator endpoint');
  const sqs = new SQSClient({
    endpoint,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    // The queue the local stack creates (shared/local-stack/local-stack.ts, localQueues).
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'fsm-webhook-delivery' }));
    const messages: DeliveryMessage[] = Array.from({ length: count }, (_, i) => {
      const objectId = randomUUID();
      const deliveryId = randomUUID();
      return {
        v: 1,
        delivery_id: deliveryId,
        workspace_id: tenantId,
        endpoint_id: endpointIds[i % endpointIds.length] ?? '',
        event_id: objectId,
        event_type: 'area.created',
        request_id: objectId,
        attempt: 1,
        body: JSON.stringify({
          type: 'area.created',
          id: deliveryId,
          event_id: objectId,
          timestamp: new Date().toISOString(),
          payload_version: 1,
          tenant_id: tenantId,
          data: { object: { id: objectId, name: `Queued ${i}`, color: '#336699' } },
        }),
      };
    });
    const inputs: Input[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < messages.length) {
          const chunk = messages.slice(next, next + 10);
          next += 10;
          const start = Date.now();
          const { Failed } = await sqs.send(
            new SendMessageBatchCommand({
              QueueUrl,
              Entries: chunk.map((message, i) => ({ Id: String(i), MessageBody: JSON.stringify(message) })),
            }),
          );
          if (Failed?.length) throw new Error(`SendMessageBatch failed: ${JSON.stringify(Failed)}`);
          const at = Date.now();
          for (const message of chunk) inputs.push({ id: message.event_id, start, at });
        }
      }),
    );
    return inputs;
  } finally {
    sqs.destroy();
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'fsm-webhooks-'));
const seedFile = join(dataDir, 'seed.json');
await writeFile(
  seedFile,
  JSON.stringify({
    workspaces: [
      {
        name: 'Webhook bench',
        realm: 'shared',
        status: 'ACTIVE',
        users: [{ email: 'owner@webhooks.example', firstname: 'Olga', lastname: 'Owner', roles: ['owner'] }],
        clients: [{ client_id: clientId, client_secret: clientSecret, roles: ['admin'] }],
      },
    ],
  }),
);
const overrides = ['FSM_STREAM_POLL_MS', 'FSM_STREAM_BATCH'].filter((name) => process.env[name]);
console.log(
  `\nwebhook delivery bench: ${writes} writes, ${concurrency} clients` +
    (overrides.length ? `; service env ${overrides.map((n) => `${n}=${process.env[n]}`).join(' ')}` : ''),
);
let service: RunningService | undefined;
let receiver: Receiver | undefined;
try {
  service = await startService(
    {
      DATA_DIR: join(dataDir, 'data'),
      FSM_SEED: seedFile,
      FSM_WEBHOOK_ALLOW_LOCAL: 'true',
      LOG_LEVEL: 'warn',
    },
    120_000,
  );
  receiver = await startReceiver();
  await main(service, receiver);
} catch (error) {
  console.error('webhook bench broke:', error);
  if (service) console.error(`service output (tail):\n${service.output().slice(-4000)}`);
  process.exitCode = 1;
} finally {
  await receiver?.stop();
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
