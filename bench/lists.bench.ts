/**
 * `npm run bench:lists`: what a page of a list costs at 1,000 and at 10,000 records, on a fresh
 * local stack: two workspaces seeded with that many users (names from 100 first and 100 last
 * names, so a last name matches about 1 % of users), and as many areas created through the API.
 * For each list: p50 and p95 latency over the samples (one request in flight), the DynamoDB calls
 * and read units one page costs (as the service reports them, FSM_REPORT_DYNAMODB_CALLS), and
 * the growth from 1,000 to 10,000. Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from '../shared/local-stack/service-process.ts';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '30' },
    sizes: { type: 'string', default: '1000,10000' },
    search: { type: 'string', default: 'brandt' },
  },
});
const samples = Number(values.samples);
const sizes = values.sizes.split(',').map(Number);

const firstNames = (
  'Lukas Jana Anna Paul Marie Felix Emma Jonas Mia Leon Sophie Finn Lena Elias Hannah Noah Lea Ben Laura ' +
  'Luca Lina Max Clara Henry Emilia Tim Ida Moritz Nele Jakob Greta David Frieda Julian Ella Niklas Zoe ' +
  'Tom Mila Simon Lotta Erik Johanna Oskar Sarah Jan Amelie Leo Paula Fabian Luisa Philipp Maja Samuel Ronja ' +
  'Anton Carla Theo Alina Vincent Jule Matteo Pia Emil Romy Mats Malia Linus Thea Levi Nora Rafael Elif ' +
  'Yusuf Ayla Mehmet Zeynep Ali Lara Can Selin Omar Yara Ole Svea Henrik Smilla Torben Merle Sönke Imke ' +
  'Björn Frauke Jörg Ute'
).split(' ');
const lastNames = (
  'Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter ' +
  'Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Schmitz ' +
  'Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber Kaiser Fuchs Peters ' +
  'Lang Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther Frank Berger Winkler Roth Beck ' +
  'Lorenz Baumann Franke Albrecht Schuster Simon Ludwig Böhm Winter Kraus Martin Schumacher Krämer Vogt ' +
  'Stein Jäger Otto Sommer Groß Seidel Heinrich Brandt Haas Schreiber Graf Schulte Dietrich Ziegler Kuhn ' +
  'Kühn Pohl Engel Horn Busch Bergmann Thomas Voigt Sauer Arnold Wolff Pfeiffer'
).split(' ');
const roles = ['technician', 'technician', 'technician', 'driver', 'driver', 'dispatcher', 'admin'];

function seedOf(size: number) {
  return {
    name: `Lists ${size}`,
    realm: 'shared',
    status: 'ACTIVE',
    users: Array.from({ length: size }, (_, i) => ({
      email: `user-${size}-${i}@lists.example`,
      // Last names vary fastest: each is about 1 % of the users at every size.
      lastname: lastNames[i % lastNames.length],
      firstname: firstNames[Math.floor(i / lastNames.length) % firstNames.length],
      roles: [roles[i % roles.length]],
    })),
    clients: [{ client_id: `lists-${size}`, client_secret: `lists-secret-${size}`, roles: ['admin'] }],
  };
}

const dataDir = await mkdtemp(join(tmpdir(), 'fsm-lists-'));
const seedFile = join(dataDir, 'seed.json');
await writeFile(seedFile, JSON.stringify({ workspaces: sizes.map(seedOf) }));
console.log(`seeding ${sizes.join(' and ')} users…`);
const started = Date.now();
const service = await startService(
  {
    DATA_DIR: join(dataDir, 'data'),
    FSM_SEED: seedFile,
    FSM_REPORT_DYNAMODB_CALLS: 'true',
    FSM_ADMIN_CLIENT_SECRET: randomBytes(16).toString('hex'),
    LOG_LEVEL: 'error',
  },
  600_000,
);
console.log(`service ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);

async function tokenOf(size: number): Promise<string> {
  const response = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: `lists-${size}`,
      client_secret: `lists-secret-${size}`,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function createAreas(size: number, count: number, prefix = ''): Promise<number> {
  let token = await tokenOf(size);
  let next = 0;
  let retried = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        for (;;) {
          const response = await fetch(`${service.baseUrl}/api/v2/areas`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              name: `${prefix}${lastNames[i % lastNames.length]} ${Math.floor(i / lastNames.length)}`,
              color: `#${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')}`,
              zip_ranges: [{ from: String(10000 + (i % 80000)), to: String(10000 + (i % 80000) + 99) }],
            }),
          });
          if (response.status === 201) break;
          if (response.status === 401) {
            token = await tokenOf(size); // expired while creating
            continue;
          }
          // As a client should: an overloaded store answers 503 with Retry-After.
          if (response.status !== 503)
            throw new Error(`area ${i}: ${response.status} ${await response.text()}`);
          retried++;
          await new Promise((resolve) =>
            setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000),
          );
        }
      }
    }),
  );
  return retried;
}

/**
 * Waits until the audit log shows `count` entries made since `since`: the local stream poller has
 * caught up, so its work does not share the machine with what comes next.
 */
async function outboxDrained(size: number, since: string, count: number): Promise<void> {
  const token = await tokenOf(size);
  for (;;) {
    const response = await fetch(
      `${service.baseUrl}/api/v2/audit-logs?size=1&created_from=${encodeURIComponent(since)}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const body = (await response.json()) as { page?: { total_elements: number } };
    if ((body.page?.total_elements ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The seed's stream records come first: one area's audit entry shows the poller is past them. */
async function seedDrained(size: number): Promise<void> {
  const since = new Date(Date.now() - 1000).toISOString();
  await createAreas(size, 1, 'sentinel');
  await outboxDrained(size, since, 1);
}

interface Figures {
  p50: number;
  p95: number;
  calls: string;
  readUnits: string;
  total: number;
}

async function measure(token: string, path: string): Promise<Figures> {
  const times: number[] = [];
  let last: Response | undefined;
  let body: { page?: { total_elements: number } } = {};
  for (let i = 0; i < samples + 3; i++) {
    const t0 = performance.now();
    last = await fetch(`${service.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    body = (await last.json()) as typeof body;
    if (last.status !== 200) throw new Error(`${path}: ${last.status} ${JSON.stringify(body)}`);
    if (i >= 3) times.push(performance.now() - t0); // the first ones warm caches
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    p50: at(0.5),
    p95: at(0.95),
    calls: last?.headers.get('x-dynamodb-calls') ?? '?',
    readUnits: /read=([\d.]+)/.exec(last?.headers.get('x-dynamodb-capacity') ?? '')?.[1] ?? '?',
    total: body.page?.total_elements ?? 0,
  };
}

try {
  const rows = new Map<string, Map<number, Figures>>();
  const record = (name: string, size: number, figures: Figures) => {
    const row = rows.get(name) ?? new Map<number, Figures>();
    row.set(size, figures);
    rows.set(name, row);
  };
  for (const size of sizes) {
    const t0 = Date.now();
    await seedDrained(size);
    console.log(`seed's stream records processed after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    // Tokens live five minutes: each phase takes its own.
    const t1 = Date.now();
    const since = new Date(t1 - 1000).toISOString();
    const retried = await createAreas(size, size - 1);
    await outboxDrained(size, since, size - 1);
    console.log(
      `created ${size - 1} more areas in ${((Date.now() - t1) / 1000).toFixed(0)} s (${retried} retried after 503)`,
    );
    const token = await tokenOf(size);
    const search = `search=${encodeURIComponent(values.search)}&sort=last_name:asc`;
    const first = await measure(token, `/api/v2/users?${search}`);
    const lastPage = Math.max(0, Math.ceil(first.total / 20) - 1);
    record(`users, search=${values.search} + sort=last_name:asc, page 0`, size, first);
    record(
      'users, the same, its last page',
      size,
      await measure(token, `/api/v2/users?${search}&page=${lastPage}`),
    );
    record('users, default order, page 0', size, await measure(token, '/api/v2/users'));
    record('users, default order, page 25', size, await measure(token, '/api/v2/users?page=25'));
    record('areas, sort=name:asc, page 0', size, await measure(token, '/api/v2/areas?sort=name:asc'));
  }
  const [small, large] = [sizes[0] ?? 0, sizes.at(-1) ?? 0];
  console.log(
    `\np50 (p95) per page, ${samples} samples, one request in flight; DynamoDB calls and read units of one page`,
  );
  for (const [name, row] of rows) {
    console.log(`\n${name}`);
    for (const [size, f] of row) {
      console.log(
        `  ${String(size).padStart(6)}: ${f.p50.toFixed(1).padStart(6)} ms (${f.p95.toFixed(1)} ms)  total ${f.total}  calls ${f.calls}  read units ${f.readUnits}`,
      );
    }
    const growth = (row.get(large)?.p50 ?? 0) / (row.get(small)?.p50 ?? 1);
    console.log(`  growth ${small} → ${large}: ${growth.toFixed(2)}×`);
  }
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
