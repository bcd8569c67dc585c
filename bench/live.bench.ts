/**
 * `npm run bench:live` (issue 38): the live day under telemetry on a fresh local stack. `--technicians`
 * (1,000) technicians, each with a phone (a device with their user_id) and a tour on the road
 * through two cases 3 and 6 km away. Phases:
 *
 * 1. **Following**: every technician reports every `--every` seconds (10) for `--seconds` (60),
 *    jumping between two positions 6 km apart every `--moving-every`th report (30: 3 % of reports,
 *    three times a real day's share, shared/data/README.md), so their first stop's ETA moves by
 *    more than 5 minutes and a tour.updated is due (`--moving-every 3`: a third of all reports). A dispatcher holds the event stream; each
 *    TOUR_UPDATED:V1 is matched with the report that caused it: report-to-event latency p50/p99
 *    (goal ≤ 1 s / ≤ 3 s), and how many such reports got their event.
 * 2. **Intake throughput**: reports as fast as 32 clients send them, detection on: accepted
 *    reports per second (goal ≥ 500/s).
 * 3. **Write units per report** (FSM_REPORT_DYNAMODB_CALLS): a report that changes no stop, and one
 *    that writes the tour.
 * 4. **The local ceiling**: DynamoDB Local alone, 32 clients each making the one conditional write
 *    a report makes: what intake on the local stack can reach at most on this machine.
 *
 * Prints figures only.
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbClient } from '../shared/aws/clients.ts';
import { startSeededService } from './support/seeded-service.ts';

const { values } = parseArgs({
  options: {
    technicians: { type: 'string', default: '1000' },
    every: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '60' },
    'moving-every': { type: 'string', default: '30' },
  },
});
const technicians = Number(values.technicians);
const everyMs = Number(values.every) * 1000;
const followMs = Number(values.seconds) * 1000;
const movingEvery = Number(values['moving-every']);

const client = { client_id: 'live-bench', client_secret: 'live-bench-secret' };
const bench = await startSeededService('live', [{ name: 'Live bench', clients: [client] }]);
const { service } = bench;
let admin = await bench.token(client);

async function api(
  method: string,
  path: string,
  body?: unknown,
): Promise<{
  status: number;
  headers: Headers;
  body: any;
  text: string;
}> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  // Setting up a thousand technicians on a busy machine outlasts a token: take a new one.
  if (response.status === 401 && text.includes('token_expired')) {
    admin = await bench.token(client);
    return api(method, path, body);
  }
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
    text,
  };
}

async function inParallel<T>(
  count: number,
  width: number,
  make: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await make(index);
      }
    }),
  );
  return results;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const origin = { latitude: 52.52, longitude: 13.405 };
const east = (km: number, north = 0) => ({
  latitude: origin.latitude + north / 111.32,
  longitude: origin.longitude + km / 67.8,
});

interface Technician {
  deviceId: string;
  secret: string;
  tourId: string;
  base: { latitude: number; longitude: number };
}

/** Users one at a time: concurrent creates meet on the workspace's shared user items and time out locally. */
async function users(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const user = await api('POST', '/api/v2/users', {
      email: `live-${index}-${Date.now()}@bench.test`,
      firstname: 'Live',
      lastname: `Tech ${index}`,
      role_ids: [technicianRole],
    });
    if (user.status !== 201) throw new Error(`user: ${user.status} ${user.text}`);
    ids.push(user.body.id);
  }
  return ids;
}

async function technician(index: number, userId: string): Promise<Technician> {
  const north = (index % 100) * 0.5;
  const user = { body: { id: userId } };
  const device = await api('POST', '/api/v2/devices', { user_id: user.body.id });
  if (device.status !== 201) throw new Error(`device: ${device.status} ${device.text}`);
  const code = await api('POST', `/api/v2/devices/${device.body.id}/setup-codes`);
  if (code.status !== 200) throw new Error(`setup code: ${code.status} ${code.text}`);
  const cases = await Promise.all(
    [3, 6].map((km) =>
      api('POST', '/api/v2/cases', {
        title: `Live ${index}/${km}`,
        duration: 'PT30M',
        assignee_id: user.body.id,
        location: east(km, north),
      }),
    ),
  );
  for (const created of cases)
    if (created.status !== 201) throw new Error(`case: ${created.status} ${created.text}`);
  const tour = await api('POST', '/api/v2/tours', {
    date: new Date().toISOString().slice(0, 10),
    driver_id: user.body.id,
    stops: cases.map((c) => ({ case_id: c.body.id })),
    status: 'IN_PROGRESS',
  });
  if (tour.status !== 201) throw new Error(`tour: ${tour.status} ${tour.text}`);
  return {
    deviceId: device.body.id,
    secret: code.body.payload.intake_secret,
    tourId: tour.body.id,
    base: east(0, north),
  };
}

async function report(tech: Technician, place: { latitude: number; longitude: number }, at: number) {
  const response = await fetch(`${service.baseUrl}/api/v2/device-intake/${tech.deviceId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tech.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ recorded_at: new Date(at).toISOString(), location: place }),
  });
  const capacity = response.headers.get('x-dynamodb-capacity') ?? '';
  await response.arrayBuffer();
  return { status: response.status, writeUnits: Number(/write=([\d.]+)/.exec(capacity)?.[1] ?? Number.NaN) };
}

/** The dispatcher's event stream: when each tour's TOUR_UPDATED:V1 events arrived. */
function holdStream(token: string): Promise<{ events: Map<string, number[]>; close(): void }> {
  const base = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const events = new Map<string, number[]>();
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path: '/api/v2/events/stream',
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!/^event: TOUR_UPDATED:V1$/m.test(block)) continue;
            const data = /^data: (.*)$/m.exec(block)?.[1];
            const tourId = data ? (JSON.parse(data) as { tourId?: string }).tourId : undefined;
            if (tourId) events.set(tourId, [...(events.get(tourId) ?? []), Date.now()]);
          }
        });
        res.on('error', () => {});
        resolve({ events, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const roles = await api('GET', '/api/v2/roles');
const technicianRole = (roles.body.items as Array<{ id: string; name: string }>).find(
  (r) => r.name === 'technician',
)?.id;

try {
  const started = performance.now();
  const userIds = await users(technicians);
  const techs = await inParallel(technicians, 8, (index) => technician(index, userIds[index] as string));
  console.log(
    `${technicians} technicians on the road in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  // Each technician on the road already: a first report sets their first stop EN_ROUTE with an
  // ETA (a tour write each, not measured), at the place their cycle below starts from.
  const placeOf = (tech: Technician, index: number, n: number) =>
    Math.floor((n + index) / movingEvery) % 2 === 1
      ? { ...tech.base, longitude: tech.base.longitude - 6 / 67.8 }
      : tech.base;
  await inParallel(technicians, 16, (index) => {
    const tech = techs[index] as Technician;
    return report(tech, placeOf(tech, index, -1), Date.now());
  });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  admin = await bench.token(client);
  const stream = await holdStream(admin);

  // 1. Following: every technician every `every` seconds, jumping 6 km every `moving-every`th report.
  const caused: Array<{ tourId: string; sentAt: number }> = [];
  const statuses = new Map<number, number>();
  const followStart = Date.now();
  await Promise.all(
    techs.map(async (tech, index) => {
      await new Promise((resolve) => setTimeout(resolve, (index / technicians) * everyMs));
      for (let n = 0; Date.now() - followStart < followMs; n++) {
        const place = placeOf(tech, index, n);
        const sentAt = Date.now();
        const { status } = await report(tech, place, sentAt);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        // Technicians take turns: each report round, one in `moving-every` moves its ETA.
        if ((n + index) % movingEvery === 0) caused.push({ tourId: tech.tourId, sentAt });
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - sentAt))));
      }
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const latencies: number[] = [];
  for (const { tourId, sentAt } of caused) {
    const arrival = (stream.events.get(tourId) ?? []).find((at) => at >= sentAt && at - sentAt < 30_000);
    if (arrival !== undefined) latencies.push(arrival - sentAt);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `following: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')} reports in ${followMs / 1000} s; ` +
      `report → TOUR_UPDATED:V1: ${latencies.length} of ${caused.length} ETA-moving reports matched, ` +
      `p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms`,
  );
  stream.close();

  // 2. Intake throughput with detection on. Every technician at their base first (not timed): the
  // ETA moves that a return from the far place causes are phase 1's and 3's to measure; this one
  // measures what following a position costs on intake.
  await inParallel(technicians, 16, (index) => {
    const tech = techs[index] as Technician;
    return report(tech, tech.base, Date.now());
  });
  let accepted = 0;
  const blastStart = Date.now();
  await inParallel(32, 32, async (worker) => {
    for (let n = 0; Date.now() - blastStart < 20_000; n++) {
      // Each worker its own devices: reports of one device queue on its state's version.
      const tech = techs[(worker + 32 * n) % techs.length] as Technician;
      if ((await report(tech, tech.base, Date.now())).status === 202) accepted++;
    }
  });
  console.log(
    `intake throughput, detection on: ${(accepted / ((Date.now() - blastStart) / 1000)).toFixed(0)} reports/s`,
  );
  // The same with devices that speak for nobody: intake as it was before the live day.
  const plain = await inParallel(32, 8, async () => {
    const device = await api('POST', '/api/v2/devices', {});
    const code = await api('POST', `/api/v2/devices/${device.body.id}/setup-codes`);
    return {
      deviceId: device.body.id,
      secret: code.body.payload.intake_secret,
      tourId: '',
      base: origin,
    } as Technician;
  });
  let plainAccepted = 0;
  const plainStart = Date.now();
  await inParallel(32, 32, async (worker) => {
    const device = plain[worker] as Technician;
    while (Date.now() - plainStart < 20_000) {
      if ((await report(device, device.base, Date.now())).status === 202) plainAccepted++;
    }
  });
  const plainRate = plainAccepted / ((Date.now() - plainStart) / 1000);
  console.log(`intake throughput, devices that speak for nobody: ${plainRate.toFixed(0)} reports/s`);

  // 3. Write units of a report that changes nothing, and of one that moves the ETA.
  const tech = techs[0] as Technician;
  const quiet: number[] = [];
  for (let n = 0; n < 10; n++) quiet.push((await report(tech, tech.base, Date.now())).writeUnits);
  const moved = (await report(tech, { ...tech.base, longitude: tech.base.longitude - 12 / 67.8 }, Date.now()))
    .writeUnits;
  console.log(
    `write units per report: ${quiet.at(-1)} when no stop changes, ${moved} when the tour is written`,
  );

  // 4. The local ceiling: DynamoDB Local alone, 32 clients writing conditionally (each report
  // makes one such write), with the service idle. Intake locally cannot beat this.
  const table = dynamoDbClient();
  let writes = 0;
  const ceilingStart = Date.now();
  await inParallel(32, 32, async (worker) => {
    for (let n = 0; Date.now() - ceilingStart < 10_000; n++) {
      await table.send(
        new PutItemCommand({
          TableName: 'fsm',
          Item: {
            pk: { S: `BENCH#ceiling#${worker}` },
            sk: { S: 'state' },
            lock_version: { N: String(n + 1) },
            latitude: { N: '52.52' },
            longitude: { N: '13.405' },
            location_recorded_at: { S: new Date().toISOString() },
          },
          ConditionExpression: 'attribute_not_exists(pk) OR lock_version = :v',
          ExpressionAttributeValues: { ':v': { N: String(n) } },
        }),
      );
      writes++;
    }
  });
  console.log(
    `DynamoDB Local alone: ${(writes / ((Date.now() - ceilingStart) / 1000)).toFixed(0)} conditional writes/s (32 clients)`,
  );
} finally {
  await bench.stop();
}
