/**
 * `npm run bench:devices`: what the devices feature costs on a fresh local stack (temporary
 * DATA_DIR, two seeded workspaces, each with an admin API client).
 *
 * 1. Telemetry intake: `--devices` (200) TRACKING_DEVICE devices created through the API, a setup
 *    code (intake secret) for each; then a warm-up and a measured phase of `--seconds` (10) with
 *    `--concurrency` (32) requests in flight on keep-alive connections: POST
 *    /api/v2/device-intake/{device_id}, each a new report (increasing recorded_at, a moving
 *    location, connectivity, battery), the devices taken round robin. Requests/s, p50/p95/p99,
 *    the answers other than 202 by status, the DynamoDB calls of one report. Goal ≥ 500/s on two
 *    cores, p99 ≤ 50 ms.
 * 2. Lists at 1,000 and 10,000 devices of the other workspace (`--sizes`): a bounding box holding
 *    about 1 % of the devices (Berlin and its surroundings inside locations spread over Germany)
 *    and `kind=TRACKING_DEVICE` (page 0, default order), each also with `include=current_state`;
 *    `--samples` (30) requests, one in flight: p50, p95, total_elements (and the total the loaded
 *    data implies), the DynamoDB calls and read units of one page (FSM_REPORT_DYNAMODB_CALLS).
 *    Goal ≤ 100 ms at 10,000, growth ≤ 3× from 1,000. The devices are loaded straight into the
 *    service's DynamoDB Local through the data layer (the item with its list declaration's index
 *    attributes, tokens and summed counters, as bench/cases.bench.ts loads cases; the outbox is
 *    skipped, no consumer needs those events here), and each located device's state item through
 *    device-state.store.ts (storeSecret, then replaceState with its location, which writes its
 *    geographic index entry), because 10,000 API creates plus intake reports take long locally.
 * Prints figures; asserts nothing.
 */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { type BenchClient, startSeededService } from './support/seeded-service.ts';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    devices: { type: 'string', default: '200' },
    sizes: { type: 'string', default: '1000,10000' },
    samples: { type: 'string', default: '30' },
  },
});
const concurrency = Number(values.concurrency);
const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);
const intakeDevices = Number(values.devices);
const sizes = values.sizes.split(',').map(Number);
const samples = Number(values.samples);

const clients = {
  intake: { client_id: 'devices-intake-bench', client_secret: 'devices-intake-bench-secret' },
  lists: { client_id: 'devices-lists-bench', client_secret: 'devices-lists-bench-secret' },
};

const bench = await startSeededService('devices', [
  { name: 'Device intake bench', clients: [clients.intake] },
  // Its devices are loaded through the data layer only: no API create takes a natural_id.
  { name: 'Device list bench', clients: [clients.lists] },
]);
const { service } = bench;
const { deviceList } = await import('../shared/domain/devices/device.list.ts');
const { keys } = await import('../shared/data/keys.ts');
const { deviceStore } = await import('../shared/domain/devices/device.store.ts');
const { incrementCounter } = await import('../shared/data/table.ts');
const { DirectLoad } = await import('./support/direct-load.ts');
const { deviceStateStore, hashSecret, newIntakeSecret } = await import(
  '../shared/domain/devices/device-state.store.ts'
);
type StoredDevice = import('../shared/domain/devices/device.schema.ts').StoredDevice;
type DeviceKind = import('../shared/domain/devices/device.schema.ts').DeviceKind;

const agent = new Agent({ keepAlive: true, maxSockets: Math.max(concurrency, 8) });
const base = new URL(service.baseUrl);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on the keep-alive agent. */
function call(method: string, path: string, authorization: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: {
          authorization,
          ...(payload !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const token = (client: BenchClient) => bench.token(client);

function workspaceOf(jwt: string): string {
  const claims = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
  const id = String(claims.tenant_id ?? claims.workspace_id ?? '');
  if (!id) throw new Error(`no workspace id in the token: ${Object.keys(claims).join(', ')}`);
  return id;
}

/** An API call that waits out 503 (Retry-After) as a client should; anything but `expected` throws. */
async function apiCall(
  method: string,
  path: string,
  bearer: string,
  expected: number,
  body?: unknown,
): Promise<Record<string, unknown>> {
  for (;;) {
    const answer = await call(method, path, `Bearer ${bearer}`, body);
    if (answer.status === expected) return JSON.parse(answer.body) as Record<string, unknown>;
    if (answer.status !== 503)
      throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers['retry-after'] ?? 1) * 1000));
  }
}

/** Runs `work(i)` for i in 0..count-1 with `inFlight` at a time. */
async function pool(count: number, inFlight: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Seconds of CPU the service process has used (Linux /proc; undefined elsewhere). */
async function serviceCpuSeconds(): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${service.child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return undefined;
  }
}

/**
 * Waits until the service is quiet (below 10 % of a core for a second; at most 120 s): the local
 * stream poller has worked through what the previous phase wrote, so it does not share the
 * machine with what is measured next.
 */
async function settle(): Promise<void> {
  const t0 = Date.now();
  let before = await serviceCpuSeconds();
  if (before === undefined) return void (await new Promise((resolve) => setTimeout(resolve, 3000)));
  while (Date.now() - t0 < 120_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = (await serviceCpuSeconds()) ?? 0;
    if (now - before < 0.1) break;
    before = now;
  }
  console.log(`service quiet after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** A deterministic pseudo-random sequence (mulberry32), so every run creates the same tracks. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The Halton sequence (radical inverse of `index` in `base`): locations from bases 2 and 3 are
 * spread evenly at every size, so a box holds its share of the area at 1,000 as at 10,000.
 */
function halton(index: number, base: number): number {
  let result = 0;
  let fraction = 1 / base;
  for (let i = index; i > 0; i = Math.floor(i / base), fraction /= base) result += (i % base) * fraction;
  return result;
}

// Germany, roughly; the box is Berlin and its surroundings, about 1 % of that area.
const germany = { minLat: 47.3, maxLat: 55, minLon: 5.9, maxLon: 15 };
const berlin = { minLat: 52.2, maxLat: 52.9, minLon: 12.9, maxLon: 13.9 };

// ---------------------------------------------------------------------------------------------
// 1. Telemetry intake
// ---------------------------------------------------------------------------------------------

interface IntakeDevice {
  id: string;
  secret: string;
  lastRecorded: number;
  latitude: number;
  longitude: number;
  heading: number;
  battery: number;
}

async function prepareIntake(): Promise<IntakeDevice[]> {
  const bearer = await token(clients.intake);
  const t0 = Date.now();
  const devices: IntakeDevice[] = [];
  const next = random(1);
  await pool(intakeDevices, 8, async (i) => {
    const device = await apiCall('POST', '/api/v2/devices', bearer, 201, {
      kind: 'TRACKING_DEVICE',
      device_model: ['Teltonika FMB920', 'Queclink GV300', 'Concox GT06N'][i % 3],
      description: `Intake bench tracker ${i}`,
    });
    const id = String(device.id);
    const code = await apiCall('POST', `/api/v2/devices/${id}/setup-codes`, bearer, 200);
    const secret = String((code.payload as { intake_secret?: string } | undefined)?.intake_secret ?? '');
    if (!secret)
      throw new Error(`setup code of ${id} without payload.intake_secret: ${JSON.stringify(code)}`);
    devices.push({
      id,
      secret,
      lastRecorded: Date.now() - 60_000,
      latitude: germany.minLat + next() * (germany.maxLat - germany.minLat),
      longitude: germany.minLon + next() * (germany.maxLon - germany.minLon),
      heading: next() * 2 * Math.PI,
      battery: 100,
    });
  });
  console.log(
    `created ${devices.length} tracking devices with setup codes in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  return devices;
}

/** The device's next report: 1 s later than its last (never ahead of now), about 15 m further. */
function reportOf(device: IntakeDevice): Record<string, unknown> {
  device.lastRecorded = Math.max(device.lastRecorded + 1, Math.min(Date.now(), device.lastRecorded + 1000));
  device.heading += 0.05;
  device.latitude += 0.000135 * Math.cos(device.heading);
  device.longitude += 0.000222 * Math.sin(device.heading);
  device.battery = device.battery > 5 ? device.battery - 0.01 : 100;
  return {
    recorded_at: new Date(device.lastRecorded).toISOString(),
    location: {
      latitude: Number(device.latitude.toFixed(6)),
      longitude: Number(device.longitude.toFixed(6)),
    },
    connectivity: 'LTE',
    battery_level: Math.round(device.battery),
  };
}

interface IntakeRun {
  requests: number;
  elapsedMs: number;
  times: number[];
  statuses: Map<string, number>;
  firstProblem?: string;
  calls?: string;
}

/** Reports for `durationMs`, and at least `minRequests` of them. */
async function runIntake(devices: IntakeDevice[], durationMs: number, minRequests = 0): Promise<IntakeRun> {
  const run: IntakeRun = { requests: 0, elapsedMs: 0, times: [], statuses: new Map() };
  let turn = 0;
  const t0 = performance.now();
  const end = t0 + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end || turn < minRequests) {
        const device = devices[turn++ % devices.length] as IntakeDevice;
        const started = performance.now();
        let status: string;
        try {
          const answer = await call(
            'POST',
            `/api/v2/device-intake/${device.id}`,
            `Bearer ${device.secret}`,
            reportOf(device),
          );
          status = String(answer.status);
          if (answer.status === 202) run.calls = String(answer.headers['x-dynamodb-calls'] ?? '?');
          else run.firstProblem ??= `${answer.status} ${answer.body.slice(0, 300)}`;
        } catch (error) {
          status = `error ${(error as Error).message}`;
          run.firstProblem ??= status;
        }
        run.times.push(performance.now() - started);
        run.requests++;
        if (status !== '202') run.statuses.set(status, (run.statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  run.elapsedMs = performance.now() - t0;
  run.times.sort((a, b) => a - b);
  return run;
}

function printIntake(name: string, run: IntakeRun): void {
  const nonAccepted = [...run.statuses].map(([status, count]) => `${status}×${count}`).join(', ');
  console.log(
    `  ${name}: ${run.requests} requests in ${(run.elapsedMs / 1000).toFixed(1)} s = ` +
      `${((run.requests * 1000) / run.elapsedMs).toFixed(0)}/s; p50 ${quantile(run.times, 0.5).toFixed(1)} ms, ` +
      `p95 ${quantile(run.times, 0.95).toFixed(1)} ms, p99 ${quantile(run.times, 0.99).toFixed(1)} ms; ` +
      `non-202: ${nonAccepted ? `${[...run.statuses.values()].reduce((a, b) => a + b, 0)} (${nonAccepted})` : '0'}`,
  );
  if (run.firstProblem) console.log(`    first non-202: ${run.firstProblem}`);
}

// ---------------------------------------------------------------------------------------------
// 2. Lists
// ---------------------------------------------------------------------------------------------

const kinds: readonly DeviceKind[] = ['SERVICE_APP', 'THIRD_PARTY_APP', 'TRACKING_DEVICE'];
const modelsOf: Record<DeviceKind, readonly string[]> = {
  SERVICE_APP: ['iPhone 15', 'Pixel 8', 'Galaxy A54'],
  THIRD_PARTY_APP: ['Fleet Connect', 'RouteLogger'],
  TRACKING_DEVICE: ['Teltonika FMB920', 'Queclink GV300', 'Concox GT06N'],
};
const platformOf = { 'iPhone 15': 'IOS', 'Pixel 8': 'ANDROID', 'Galaxy A54': 'ANDROID' } as Record<
  string,
  'IOS' | 'ANDROID' | undefined
>;

/** What the loaded data implies, to compare with the service's totals. */
const expected = { tracking: 0, inBox: 0 };

/** Devices `from`..`to`-1 of the list workspace (natural_id i + 1), 90 % of them located. */
async function loadDevices(workspaceId: string, from: number, to: number): Promise<void> {
  const load = new DirectLoad<StoredDevice>(workspaceId, deviceList, 'device', (id) =>
    deviceStore.of(workspaceId).key(id),
  );
  const secretExpires = new Date(Date.now() + 86_400_000).toISOString();
  for (let start = from; start < to; start += 1000) {
    const end = Math.min(to, start + 1000);
    const located: Array<{ id: string; latitude: number; longitude: number; at: string }> = [];
    for (let i = start; i < end; i++) {
      const kind = kinds[i % kinds.length] as DeviceKind;
      const models = modelsOf[kind];
      const model = models[Math.floor(i / kinds.length) % models.length] as string;
      const createdAt = new Date(Date.now() - (to - i) * 60_000).toISOString();
      const hasLocation = i % 10 !== 9;
      const device: StoredDevice = {
        id: uuidv7(),
        natural_id: i + 1,
        kind,
        device_model: model,
        provisioning_state: 'PROVISIONED',
        platform: platformOf[model] ?? 'UNKNOWN',
        has_location: hasLocation,
        created_at: createdAt,
        updated_at: createdAt,
        lock_version: 0,
      };
      if (kind === 'TRACKING_DEVICE') expected.tracking++;
      load.add(device);
      if (hasLocation) {
        // The how-manieth located device this is (every tenth device has no location).
        const spot = i - Math.floor(i / 10) + 1;
        const latitude = Number(
          (germany.minLat + halton(spot, 2) * (germany.maxLat - germany.minLat)).toFixed(6),
        );
        const longitude = Number(
          (germany.minLon + halton(spot, 3) * (germany.maxLon - germany.minLon)).toFixed(6),
        );
        if (
          latitude >= berlin.minLat &&
          latitude <= berlin.maxLat &&
          longitude >= berlin.minLon &&
          longitude <= berlin.maxLon
        )
          expected.inBox++;
        located.push({ id: device.id, latitude, longitude, at: createdAt });
      }
    }
    await load.flush();
    await load.addCounters();
    await pool(located.length, 16, async (j) => {
      const { id, latitude, longitude, at } = located[j] as (typeof located)[number];
      const states = deviceStateStore.of(workspaceId);
      await states.storeSecret(id, hashSecret(newIntakeSecret(workspaceId)), secretExpires);
      const current = await states.get(id);
      if (!current) throw new Error(`state of ${id} not written`);
      await states.replace(
        { ...current, latitude, longitude, location_recorded_at: at, last_seen_at: at },
        current,
      );
    });
    console.log(`  loaded ${end} devices`);
  }
  // The sequence moves past the loaded natural_ids, as if they had been created.
  await incrementCounter(keys.deviceSequence(workspaceId), 'sequence', 'value', to - from);
}

interface ListFigures {
  p50: number;
  p95: number;
  calls: string;
  readUnits: string;
  total: number;
  items: number;
}

async function measureList(bearer: string, path: string): Promise<ListFigures> {
  const times: number[] = [];
  let last: Answer | undefined;
  let body: { items?: unknown[]; page?: { total_elements: number } } = {};
  for (let i = 0; i < samples + 3; i++) {
    const t0 = performance.now();
    last = await call('GET', path, `Bearer ${bearer}`);
    body = JSON.parse(last.body) as typeof body;
    if (last.status !== 200) throw new Error(`${path}: ${last.status} ${last.body.slice(0, 500)}`);
    if (i >= 3) times.push(performance.now() - t0); // the first ones warm caches
  }
  times.sort((a, b) => a - b);
  return {
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    calls: String(last?.headers['x-dynamodb-calls'] ?? '?'),
    readUnits: /read=([\d.]+)/.exec(String(last?.headers['x-dynamodb-capacity'] ?? ''))?.[1] ?? '?',
    total: body.page?.total_elements ?? -1,
    items: body.items?.length ?? -1,
  };
}

// ---------------------------------------------------------------------------------------------

try {
  console.log(`service ready at ${service.baseUrl}`);
  // 1. Intake
  if (concurrency > intakeDevices)
    console.log(
      `note: ${concurrency} in flight over ${intakeDevices} devices: a device reports concurrently`,
    );
  const devices = await prepareIntake();
  await settle();
  console.log(`\nintake: ${concurrency} in flight, ${devices.length} devices round robin, keep-alive`);
  const logFrom = service.output().length;
  // Every device reports once at least: its first location (has_location) is not in the measured phase.
  const warmup = await runIntake(devices, warmupSeconds * 1000, devices.length);
  printIntake(`warm-up ${warmupSeconds} s`, warmup);
  const measured = await runIntake(devices, seconds * 1000);
  printIntake(`measured ${seconds} s`, measured);
  if (warmup.statuses.size + measured.statuses.size > 0) {
    // What the service logged meanwhile (LOG_LEVEL error): the cause of the answers other than 202.
    const logged = service
      .output()
      .slice(logFrom)
      .split('\n')
      .filter((line) => line.trim());
    for (const line of logged.slice(0, 3)) console.log(`    service log: ${line.slice(0, 400)}`);
    if (logged.length > 3) console.log(`    service log: … ${logged.length - 3} more lines`);
  }
  console.log(`    DynamoDB calls of one report: ${measured.calls ?? '?'}`);
  console.log('    goal ≥ 500/s on 2 cores, p99 ≤ 50 ms');
  await settle();

  // 2. Lists
  const listWorkspace = workspaceOf(await token(clients.lists));
  const boxQuery = `min_lat=${berlin.minLat}&min_lon=${berlin.minLon}&max_lat=${berlin.maxLat}&max_lon=${berlin.maxLon}`;
  const lists: Array<[string, string, () => number]> = [
    ['bounding box (Berlin area)', `/api/v2/devices?${boxQuery}`, () => expected.inBox],
    [
      'bounding box (Berlin area), include=current_state',
      `/api/v2/devices?${boxQuery}&include=current_state`,
      () => expected.inBox,
    ],
    ['kind=TRACKING_DEVICE, page 0', '/api/v2/devices?kind=TRACKING_DEVICE', () => expected.tracking],
    [
      'kind=TRACKING_DEVICE, page 0, include=current_state',
      '/api/v2/devices?kind=TRACKING_DEVICE&include=current_state',
      () => expected.tracking,
    ],
  ];
  const rows = new Map<string, Map<number, ListFigures & { expected: number }>>();
  let loaded = 0;
  for (const size of sizes) {
    const t0 = Date.now();
    console.log(`\nloading devices ${loaded + 1}..${size}`);
    await loadDevices(listWorkspace, loaded, size);
    loaded = size;
    console.log(`loaded ${size} devices in total (${((Date.now() - t0) / 1000).toFixed(0)} s for this step)`);
    await settle();
    const bearer = await token(clients.lists);
    for (const [name, path, expectedTotal] of lists) {
      const figures = await measureList(bearer, path);
      const row = rows.get(name) ?? new Map();
      row.set(size, { ...figures, expected: expectedTotal() });
      rows.set(name, row);
    }
  }
  console.log(
    `\nlists: p50 (p95) per page, ${samples} samples, one request in flight; total_elements (expected from the ` +
      'loaded data), items on the page, DynamoDB calls and read units of one page',
  );
  const [small, large] = [sizes[0] ?? 0, sizes.at(-1) ?? 0];
  for (const [name, row] of rows) {
    console.log(`\n${name}`);
    for (const [size, f] of row) {
      console.log(
        `  ${String(size).padStart(6)}: ${f.p50.toFixed(1).padStart(6)} ms (${f.p95.toFixed(1)} ms)  total ${f.total}` +
          ` (expected ${f.expected})  items ${f.items}  calls ${f.calls}  read units ${f.readUnits}`,
      );
    }
    console.log(
      `  growth ${small} → ${large}: ${((row.get(large)?.p50 ?? 0) / (row.get(small)?.p50 ?? 1)).toFixed(2)}× ` +
        '(goal ≤ 3×, ≤ 100 ms at 10,000)',
    );
  }
} finally {
  agent.destroy();
  await bench.stop();
}
