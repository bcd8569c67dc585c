/**
 * `npm run bench:webhook-crash`: does every webhook event arrive when the service crashes?
 * 1,000 area writes (8 concurrent clients) on a service subscribed by one endpoint to
 * `area.created`, while the service is killed with SIGKILL 10 times and restarted on the same
 * DATA_DIR and port. The kill takes the whole process group (`node bin/start.ts` and its
 * DynamoDB Local child), as a crashing machine or container would; the SQS/S3 emulator runs
 * inside the node process and dies with it. Kill k falls due when k × 1,000/11 distinct events
 * have been delivered and is made mid-batch: by the receiver, at the delivery that crosses the
 * mark, before it answers, so the worker holds an unacknowledged batch of queue messages; the
 * writers stay at most 150 areas ahead of the deliveries, so writes go on between every two
 * kills and the stream poller always has a backlog to be in the middle of.
 *
 * The receiver runs in this process and records webhook-ids and object ids throughout. A write
 * counts as written only when its 201 arrived; a POST that got no answer (connection reset by
 * the kill, 503) may or may not have created its area, so those are tracked apart, by name;
 * at the end the area list tells which exist, and their events must arrive as well. Writers
 * wait while the service is down; a write refused anyway is retried. At the end it waits (up to
 * 5 minutes; the delivery queue's visibility timeout is 20 s, so messages in flight at a kill
 * come back after that) until every written area's event arrived.
 * Prints: events written, delivered at least once, missing (must be 0; their ids if any),
 * duplicates (allowed), the restarts' durations and the total time. The service's output of all
 * runs is kept in a log file; a run with missing events keeps its DATA_DIR and log for
 * investigation. The service inherits this process's environment, e.g.
 * `FSM_STREAM_BATCH=50 npm run bench:webhook-crash` (the stream poller checkpoints once per
 * page, so its page size bounds what a crash replays). Prints figures; asserts nothing; exits
 * non-zero only when the run itself broke.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type ReceivedWebhook, startReceiver } from '../test/doubles/webhook-receiver.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    kills: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    'wait-seconds': { type: 'string', default: '300' },
  },
});
const target = Number(values.events);
const kills = Number(values.kills);
const concurrency = Number(values.concurrency);
const waitMs = Number(values['wait-seconds']) * 1000;
const clientId = 'webhook-crash';
const clientSecret = 'webhook-crash-secret';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dataDir = await mkdtemp(join(tmpdir(), 'fsm-webhook-crash-'));
const logFile = join(dataDir, 'service.log');
const seedFile = join(dataDir, 'seed.json');
await writeFile(
  seedFile,
  JSON.stringify({
    workspaces: [
      {
        name: 'Webhook crash bench',
        realm: 'shared',
        status: 'ACTIVE',
        users: [{ email: 'owner@crash.example', firstname: 'Olga', lastname: 'Owner', roles: ['owner'] }],
        clients: [{ client_id: clientId, client_secret: clientSecret, roles: ['admin'] }],
      },
    ],
  }),
);
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;

/**
 * The service as its own process group (detached), so one SIGKILL takes node and its Java
 * child together; its output goes to the log file, each run headed by a marker.
 */
interface Instance {
  child: ChildProcess;
  exited: Promise<void>;
}
let current: Instance | undefined;
let run = 0;
/** Resolves while the service is up; replaced by a pending promise while it is down. */
let up: Promise<void> = Promise.resolve();
let markUp: () => void = () => {};

function killGroup(instance: Instance | undefined, signal: NodeJS.Signals): void {
  if (!instance?.child.pid || instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  try {
    process.kill(-instance.child.pid, signal);
  } catch {
    // Already gone.
  }
}
// Whatever happens to this process, no service (or Java) is left behind.
process.on('exit', () => killGroup(current, 'SIGKILL'));
process.on('SIGINT', () => {
  // Ctrl-C reaches only this process group, not the detached service's.
  killGroup(current, 'SIGKILL');
  process.exit(130);
});

async function startInstance(): Promise<number> {
  run++;
  const t0 = Date.now();
  appendFileSync(logFile, `\n===== run ${run} started ${new Date().toISOString()} =====\n`);
  const child = spawn(process.execPath, ['bin/start.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: join(dataDir, 'data'),
      FSM_SEED: seedFile,
      FSM_WEBHOOK_ALLOW_LOCAL: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  current = { child, exited };
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service run ${run} not ready after 120 s`)), 120_000);
    const onData = (chunk: Buffer) => {
      appendFileSync(logFile, chunk);
      if (output.length < 100_000) output += chunk.toString();
      if (/ready at http:\/\/\S+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`service run ${run} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  markUp();
  return Date.now() - t0;
}

async function crash(): Promise<void> {
  const instance = current;
  up = new Promise((resolve) => {
    markUp = resolve;
  });
  killGroup(instance, 'SIGKILL');
  await instance?.exited;
}

async function stopGracefully(): Promise<void> {
  const instance = current;
  if (!instance) return;
  killGroup(instance, 'SIGINT');
  const timer = setTimeout(() => killGroup(instance, 'SIGKILL'), 15_000);
  await instance.exited;
  clearTimeout(timer);
}

// --- state ------------------------------------------------------------------------------

const receiver = await startReceiver();
/** Areas whose 201 arrived: id → name. */
const written = new Map<string, string>();
/** Names of areas whose POST got no answer (or a 503): they may exist or not. */
const uncertain = new Set<string>();
const unexpected: string[] = [];
let refused = 0;
let killsDone = 0;
let killRequested = false;
const restartMs: number[] = [];
const killLog: string[] = [];
const started = Date.now();

const isArea = (r: ReceivedWebhook) => r.json?.type === 'area.created';

/**
 * Kill k falls due when k × target / (kills + 1) distinct events have been delivered, so the
 * kills are spread over the deliveries. It is made by the receiver at the delivery that crosses
 * the mark, before answering it (a restart's replay of events delivered before does not count).
 * A kill due for 15 s without a new delivery is made anyway.
 */
const delivered = new Set<string>();
const killMark = () => Math.ceil(((killsDone + 1) * target) / (kills + 1));
const killDue = () => killsDone < kills && delivered.size >= killMark();
let dueSince: number | undefined;

async function crashAndRestart(how: string): Promise<void> {
  killRequested = true;
  killsDone++;
  const at = Date.now() - started;
  await crash();
  killLog.push(
    `kill ${killsDone} at ${seconds(at)} (${how}): ${written.size} written, ${delivered.size} distinct events delivered`,
  );
  try {
    restartMs.push(await startInstance());
  } catch (error) {
    // The run itself broke: nothing more to measure (the exit handler kills what is left).
    console.error(`webhook crash bench broke: restart after kill ${killsDone} failed:`, error);
    console.error(`DATA_DIR and service log kept for investigation: ${dataDir}`);
    process.exit(1);
  }
  dueSince = undefined;
  killRequested = false;
}

receiver.answer = (request) => {
  if (!isArea(request)) return { status: 204 };
  const id = String(request.json?.data?.object?.id);
  const isNew = !delivered.has(id);
  delivered.add(id);
  if (!killRequested && isNew && killDue()) {
    // Synchronously, before this delivery is answered: the worker's batch stays unacknowledged.
    void crashAndRestart('mid-delivery, before answering it');
  }
  return { status: 204 };
};
const fallback = setInterval(() => {
  if (killRequested || !killDue()) return;
  dueSince ??= Date.now();
  if (Date.now() - dueSince > 15_000) void crashAndRestart('due for 15 s without a new delivery');
}, 250);

// --- writers ----------------------------------------------------------------------------

let token = '';
async function refreshToken(): Promise<void> {
  for (;;) {
    await up;
    try {
      const response = await fetch(`${baseUrl}/realms/shared/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status === 200) {
        token = ((await response.json()) as { access_token: string }).access_token;
        return;
      }
      await response.arrayBuffer();
    } catch {
      // Down (again); wait for the next start.
    }
    await sleep(200);
  }
}

function isRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}

type Outcome = 'written' | 'refused' | 'uncertain' | 'retry';

async function postArea(name: string): Promise<Outcome> {
  await up;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/api/v2/areas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, color: '#993366' }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    // Refused: the service was down, nothing was sent. Anything else (reset, timeout): unknown.
    return isRefused(error) ? 'refused' : 'uncertain';
  }
  if (response.status === 201) {
    try {
      const { id } = (await response.json()) as { id: string };
      written.set(id, name);
      return 'written';
    } catch {
      return 'uncertain'; // the connection died while the body was read
    }
  }
  const text = await response.text().catch(() => '');
  if (response.status === 401) {
    await refreshToken();
    return 'retry';
  }
  // 503 on a write means "outcome unknown" (shared/aws/client-deadlines.ts).
  if (response.status !== 503) unexpected.push(`${response.status} ${text.slice(0, 200)}`);
  return 'uncertain';
}

/**
 * Writers stay at most `maxAhead` areas ahead of the deliveries: the stream poller always has a
 * backlog to be in the middle of, and writes go on between every two kills (without the limit
 * they would finish long before the pipeline, which lags behind them).
 */
const maxAhead = 150;
const writeLimit = () => Math.min(target, delivered.size + maxAhead);

async function writer(state: { claimed: number }): Promise<void> {
  while (state.claimed < target) {
    if (state.claimed >= writeLimit()) {
      await sleep(100);
      continue;
    }
    state.claimed++;
    let name = `Crash ${randomUUID()}`;
    for (;;) {
      const outcome = await postArea(name);
      if (outcome === 'written') break;
      if (outcome === 'refused') {
        refused++;
        await sleep(100);
      } else if (outcome === 'uncertain') {
        uncertain.add(name);
        name = `Crash ${randomUUID()}`;
        await sleep(100);
      }
    }
  }
}

/** Every area of the workspace, by name (pages of 100). */
async function areasByName(): Promise<Map<string, string>> {
  const byName = new Map<string, string>();
  for (let page = 0; ; page++) {
    const response = await fetch(`${baseUrl}/api/v2/areas?size=100&page=${page}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status === 401) {
      await refreshToken();
      page--;
      continue;
    }
    if (response.status !== 200) throw new Error(`areas: ${response.status} ${await response.text()}`);
    const { items } = (await response.json()) as { items: Array<{ id: string; name: string }> };
    for (const area of items) byName.set(area.name, area.id);
    if (items.length < 100) return byName;
  }
}

// --- run --------------------------------------------------------------------------------

let broke = false;
let missingCount = 0;
let progress: NodeJS.Timeout | undefined;
try {
  const overrides = ['FSM_STREAM_POLL_MS', 'FSM_STREAM_BATCH'].filter((name) => process.env[name]);
  console.log(
    `webhook crash bench: ${target} area writes, ${kills} SIGKILLs of the service's process group, ${concurrency} clients` +
      (overrides.length ? `; service env ${overrides.map((n) => `${n}=${process.env[n]}`).join(' ')}` : ''),
  );
  const firstStart = await startInstance();
  console.log(`service up in ${seconds(firstStart)} (data in ${dataDir})`);
  await refreshToken();
  const endpoint = await fetch(`${baseUrl}/api/v2/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      display_name: 'Crash bench receiver',
      endpoint_url: `${receiver.url}/hook`,
      subscriptions: ['area.created'],
    }),
  });
  if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status} ${await endpoint.text()}`);

  progress = setInterval(() => {
    const delivered = new Set(receiver.received.filter(isArea).map((r) => r.json?.data?.object?.id));
    const arrived = [...written.keys()].filter((id) => delivered.has(id)).length;
    console.log(
      `  ${seconds(Date.now() - started)}: ${written.size} written, ${arrived} of them delivered, ${killsDone} kills`,
    );
  }, 10_000);
  const state = { claimed: 0 };
  await Promise.all(Array.from({ length: concurrency }, () => writer(state)));
  const writesDone = Date.now();
  console.log(`all ${written.size} writes answered 201 after ${seconds(writesDone - started)}`);
  // The last kills fall due as the remaining events are delivered; a restart under way finishes.
  const killsDeadline = Date.now() + waitMs;
  while ((killsDone < kills && Date.now() < killsDeadline) || killRequested) await sleep(100);
  clearInterval(fallback);

  // Writes without an answer that did create their area: their events must arrive as well.
  const existing = await areasByName();
  const uncertainCreated = new Map(
    [...uncertain].flatMap((name) => {
      const id = existing.get(name);
      return id ? [[id, name] as const] : [];
    }),
  );
  const mustArrive = [...written.keys(), ...uncertainCreated.keys()];
  const deadline = Date.now() + waitMs;
  let missing: string[] = [];
  for (;;) {
    const delivered = new Set(receiver.received.filter(isArea).map((r) => String(r.json?.data?.object?.id)));
    missing = mustArrive.filter((id) => !delivered.has(id));
    if (missing.length === 0 || Date.now() > deadline) break;
    await sleep(250);
  }
  clearInterval(progress);
  const allDelivered = Date.now();

  const areaDeliveries = receiver.received.filter(isArea);
  const byWebhookId = new Map<string, number>();
  for (const r of areaDeliveries) {
    const id = String(r.headers['webhook-id']);
    byWebhookId.set(id, (byWebhookId.get(id) ?? 0) + 1);
  }
  const deliveredIds = new Set(areaDeliveries.map((r) => String(r.json?.data?.object?.id)));
  const deliveredNames = new Set(areaDeliveries.map((r) => String(r.json?.data?.object?.name)));
  const writtenDelivered = [...written.keys()].filter((id) => deliveredIds.has(id)).length;
  const uncertainArrived = [...uncertain].filter((name) => deliveredNames.has(name)).length;
  const uncertainCreatedArrived = [...uncertainCreated.keys()].filter((id) => deliveredIds.has(id)).length;
  const duplicateIds = [...byWebhookId.values()].filter((n) => n > 1).length;
  const knownNames = new Set([...written.values(), ...uncertain]);
  const strangers = areaDeliveries.filter((r) => !knownNames.has(String(r.json?.data?.object?.name))).length;
  missingCount = missing.length;

  console.log('\nkills (SIGKILL of node + DynamoDB Local, restart on the same DATA_DIR and port):');
  for (const line of killLog) console.log(`  ${line}`);
  const avgRestart = restartMs.reduce((a, b) => a + b, 0) / Math.max(1, restartMs.length);
  console.log(
    `  restarts until ready: ${restartMs.length}, average ${seconds(avgRestart)}, max ${seconds(Math.max(0, ...restartMs))}`,
  );
  console.log('\nresults');
  console.log(`  events written (201 received):         ${written.size}`);
  console.log(`  delivered at least once:               ${writtenDelivered}`);
  console.log(`  missing:                               ${missing.length} (must be 0)`);
  console.log(
    `  duplicates:                            ${areaDeliveries.length - byWebhookId.size} extra deliveries of ${duplicateIds} webhook-ids (allowed: at-least-once)`,
  );
  console.log(
    `  writes without an answer (may exist):  ${uncertain.size}, of which delivered: ${uncertainArrived}, not delivered: ${uncertain.size - uncertainArrived}`,
  );
  console.log(
    `    of these, areas that exist:          ${uncertainCreated.size}, their events delivered: ${uncertainCreatedArrived} (counted in "missing" when not)`,
  );
  console.log(`  writes refused while down (retried):   ${refused}`);
  console.log(`  deliveries of areas never written:     ${strangers} (must be 0)`);
  if (unexpected.length) console.log(`  unexpected answers: ${unexpected.length}, e.g. ${unexpected[0]}`);
  console.log(
    `  total time:                            ${seconds(allDelivered - started)} (writes done after ${seconds(writesDone - started)}, last event delivered ${seconds(allDelivered - writesDone)} later)`,
  );

  const log = await readFile(logFile, 'utf8');
  const warnings = new Map<string, number>();
  for (const line of log.split('\n')) {
    const message = /"level":"(?:warn|error)".*?"message":"([^"]*)"/.exec(line)?.[1];
    if (message) warnings.set(message, (warnings.get(message) ?? 0) + 1);
  }
  console.log(`\nservice warnings/errors over all runs (${logFile}):`);
  for (const [message, count] of warnings) console.log(`  ${count}× ${message}`);
  if (missing.length > 0) {
    console.log(`\nMISSING area ids (${missing.length}):`);
    for (const id of missing)
      console.log(`  ${id} ${written.get(id) ?? `${uncertainCreated.get(id)} (no answer)`}`);
  }
} catch (error) {
  broke = true;
  console.error('webhook crash bench broke:', error);
  console.error(`service log: ${logFile}`);
  process.exitCode = 1;
} finally {
  clearInterval(progress);
  clearInterval(fallback);
  await stopGracefully();
  await receiver.stop();
  if (!broke && missingCount === 0) await rm(dataDir, { recursive: true, force: true });
  else console.log(`DATA_DIR and service log kept for investigation: ${dataDir}`);
}
