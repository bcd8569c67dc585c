/**
 * `npm run bench:lists`: what a page of a list costs at 1,000 and at 10,000 records (issue 28),
 * on a fresh local stack: workspaces seeded with that many users (names from 100 first and 100
 * last names; e-mail words that 10 % and 50 % of them share, and a domain all share), as many
 * areas created through the API, and a workspace whose cases (10,000 then 100,000) are loaded
 * straight through the data layer (as bench:cases does: 100,000 API writes take ~25 minutes).
 *
 * Per list: page 0 and the page 90 % deep, for searches (users) and filters (cases) matching one
 * record, 10 %, 50 % and 100 % of the collection. For each: p50 and p95 over the samples (one
 * request in flight), the DynamoDB calls and read units of one warm request, and of the first
 * request (`first`: the cold one, before anything a list keeps between requests could help; for
 * a deep page the cold jump). Slow rows stop sampling after --budget seconds (at least 3
 * samples). Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from '../shared/local-stack/service-process.ts';
import { loadCases } from './support/case-load.ts';
import { printWriteFigures, writeUnitsOf } from './support/write-units.ts';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '20' },
    sizes: { type: 'string', default: '1000,10000' },
    cases: { type: 'string', default: '10000,100000' },
    budget: { type: 'string', default: '10' },
    /** Skips the areas, which are created through the API (12 minutes at 10,000 on two cores). */
    'no-areas': { type: 'boolean', default: false },
    /** Only the write units of user and area creates and updates (with --sizes 10 --cases ''). */
    'writes-only': { type: 'boolean', default: false },
  },
});
const samples = Number(values.samples);
const sizes = values.sizes.split(',').filter(Boolean).map(Number);
const caseSizes = values.cases.split(',').filter(Boolean).map(Number);
const budgetMs = Number(values.budget) * 1000;

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

function emailOf(size: number, i: number): string {
  return `user-${size}-${i}@${i % 10 === 0 ? 'tenth' : 'most'}-${i % 2 === 0 ? 'half' : 'odd'}.lists.example`;
}

const caseClient = { client_id: 'lists-cases', client_secret: 'lists-cases-secret' };

function seedOf(size: number) {
  return {
    name: `Lists ${size}`,
    realm: 'shared',
    status: 'ACTIVE',
    users: Array.from({ length: size }, (_, i) => ({
      // Searchable e-mail words: `tenth` (10 %), `half` (50 %), `lists` (everyone), the whole
      // address (one user).
      email: emailOf(size, i),
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
const casesWorkspace = {
  name: 'Lists cases',
  realm: 'shared',
  status: 'ACTIVE',
  clients: [{ ...caseClient, roles: ['admin'] }],
};
await writeFile(
  seedFile,
  JSON.stringify({ workspaces: [...sizes.map(seedOf), ...(caseSizes.length > 0 ? [casesWorkspace] : [])] }),
);
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
  /** The first request's figures: before anything a list keeps between requests could help. */
  first: { ms: number; calls: string; readUnits: string };
}

const callsOf = (response: Response | undefined) => response?.headers.get('x-dynamodb-calls') ?? '?';
const unitsOf = (response: Response | undefined) =>
  /read=([\d.]+)/.exec(response?.headers.get('x-dynamodb-capacity') ?? '')?.[1] ?? '?';

async function measure(token: string, path: string): Promise<Figures> {
  const times: number[] = [];
  let last: Response | undefined;
  let body: { page?: { total_elements: number } } = {};
  let first: Figures['first'] | undefined;
  const started = performance.now();
  for (let i = 0; i < samples + 2; i++) {
    const t0 = performance.now();
    last = await fetch(`${service.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    body = (await last.json()) as typeof body;
    if (last.status !== 200) throw new Error(`${path}: ${last.status} ${JSON.stringify(body)}`);
    const ms = performance.now() - t0;
    if (i === 0) first = { ms, calls: callsOf(last), readUnits: unitsOf(last) };
    if (i >= 2) times.push(ms); // the first ones warm caches
    if (times.length >= 3 && performance.now() - started > budgetMs) break;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    p50: at(0.5),
    p95: at(0.95),
    calls: callsOf(last),
    readUnits: unitsOf(last),
    total: body.page?.total_elements ?? 0,
    first: first ?? { ms: 0, calls: '?', readUnits: '?' },
  };
}

const rows = new Map<string, Map<number, Figures>>();
const record = (name: string, size: number, figures: Figures) => {
  const row = rows.get(name) ?? new Map<number, Figures>();
  row.set(size, figures);
  rows.set(name, row);
  console.log(
    `${name} at ${size}: ${figures.p50.toFixed(1)} ms, calls ${figures.calls}, read units ${figures.readUnits}, total ${figures.total}`,
  );
};

/** Page 0 and the page 90 % deep of one list query. */
async function pages(name: string, size: number, token: string, path: string): Promise<void> {
  const first = await measure(token, path);
  record(`${name}, page 0`, size, first);
  const deep = Math.floor(0.9 * Math.ceil(first.total / 20));
  const join = path.includes('?') ? '&' : '?';
  record(`${name}, page 90 % deep`, size, await measure(token, `${path}${join}page=${deep}`));
}

const searches = (size: number) => [
  { matching: '1', word: emailOf(size, Math.floor(size / 2)) },
  { matching: '10 %', word: 'tenth' },
  { matching: '50 %', word: 'half' },
  { matching: '100 %', word: 'lists' },
];

async function users(size: number): Promise<void> {
  const t0 = Date.now();
  await seedDrained(size);
  console.log(`seed's stream records processed after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const token = await tokenOf(size);
  for (const { matching, word } of searches(size)) {
    const path = `/api/v2/users?search=${encodeURIComponent(word)}&sort=last_name:asc`;
    await pages(`users, search matching ${matching}, sort=last_name:asc`, size, token, path);
  }
  await pages('users, default order', size, token, '/api/v2/users');
  if (values['no-areas']) return;
  // Tokens live five minutes: each phase takes its own.
  const t1 = Date.now();
  const since = new Date(t1 - 1000).toISOString();
  const retried = await createAreas(size, size - 1);
  await outboxDrained(size, since, size - 1);
  console.log(
    `created ${size - 1} more areas in ${((Date.now() - t1) / 1000).toFixed(0)} s (${retried} retried after 503)`,
  );
  await pages('areas, sort=name:asc', size, await tokenOf(size), '/api/v2/areas?sort=name:asc');
}

const areaIds = ['one', 'tenth', 'half', 'rest'].map(
  (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
);
const [areaOne = '', areaTenth = '', areaHalf = '', areaRest = ''] = areaIds;
/** Case 0 alone in one area, 10 % in another, 50 % in a third, the rest in a fourth. */
const areaOf = (i: number) =>
  i === 0 ? areaOne : i % 10 === 1 ? areaTenth : i % 2 === 0 ? areaHalf : areaRest;

async function caseToken(): Promise<string> {
  const response = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', ...caseClient }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function cases(): Promise<void> {
  Object.assign(process.env, {
    FSM_DYNAMODB_ENDPOINT: service.dynamodbEndpoint,
    FSM_TABLE_NAME: 'fsm',
    AWS_REGION: 'eu-central-1',
  });
  const { resetConfig } = await import('../shared/config.ts');
  resetConfig();
  const token = await caseToken();
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
  const workspaceId = String(claims.tenant_id ?? claims.workspace_id ?? '');
  let loaded = 0;
  for (const size of caseSizes) {
    const t0 = Date.now();
    await loadCases(workspaceId, loaded, size, areaOf);
    loaded = size;
    console.log(`loaded ${size} cases (${((Date.now() - t0) / 1000).toFixed(0)} s for this step)`);
    const bearer = await caseToken();
    for (const [matching, query] of [
      ['1', `area_id=${areaOne}`],
      ['10 %', `area_id=${areaTenth}`],
      ['50 %', `area_id=${areaHalf}`],
      ['100 %', 'scheduled_from=2000-01-01T00:00:00Z'],
    ] as const) {
      await pages(
        `cases, filter matching ${matching} (${query.split('=')[0]})`,
        size,
        bearer,
        `/api/v2/cases?${query}`,
      );
    }
  }
}

function print(): void {
  console.log(
    `\np50 (p95) per page, up to ${samples} samples, one request in flight; DynamoDB calls and read units of a warm request; first: the first request (cold)`,
  );
  for (const [name, row] of rows) {
    console.log(`\n${name}`);
    for (const [size, f] of row) {
      console.log(
        `  ${String(size).padStart(6)}: ${f.p50.toFixed(1).padStart(6)} ms (${f.p95.toFixed(1)} ms)  total ${f.total}  calls ${f.calls}  read units ${f.readUnits}  | first ${f.first.ms.toFixed(1)} ms, calls ${f.first.calls}, read units ${f.first.readUnits}`,
      );
    }
    const sizesOfRow = [...row.keys()];
    const [small, large] = [sizesOfRow[0] ?? 0, sizesOfRow.at(-1) ?? 0];
    if (small !== large) {
      const growth = (row.get(large)?.p50 ?? 0) / (row.get(small)?.p50 ?? 1);
      console.log(`  growth ${small} → ${large}: ${growth.toFixed(2)}×`);
    }
  }
}

/** Write units of a user's and an area's create and update (every listed value moved). */
async function writes(size: number): Promise<void> {
  const token = await tokenOf(size);
  const roles = (await (
    await fetch(`${service.baseUrl}/api/v2/roles`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { items: Array<{ id: string; name: string }> };
  const roleId = (name: string) => roles.items.find((role) => role.name === name)?.id;
  const count = 20;
  const run = randomBytes(3).toString('hex');
  const users = await writeUnitsOf(
    service.baseUrl,
    token,
    Array.from({ length: count }, (_, i) => ({
      method: 'POST' as const,
      path: '/api/v2/users',
      body: {
        email: `w${run}-${i}@writes.example`,
        firstname: 'Wren',
        lastname: `Writer ${i}`,
        role_ids: [roleId('technician')],
      },
    })),
  );
  const userUpdates = await writeUnitsOf(
    service.baseUrl,
    token,
    users.answers.map((answer) => {
      const user = answer as { id: string; lock_version: number };
      return {
        method: 'PATCH' as const,
        path: `/api/v2/users/${user.id}`,
        body: { lastname: 'Moved', role_ids: [roleId('driver')], lock_version: user.lock_version },
      };
    }),
  );
  const areas = await writeUnitsOf(
    service.baseUrl,
    token,
    Array.from({ length: count }, (_, i) => ({
      method: 'POST' as const,
      path: '/api/v2/areas',
      body: { name: `Write area ${run} ${i}`, color: '#336699' },
    })),
  );
  const areaUpdates = await writeUnitsOf(
    service.baseUrl,
    token,
    areas.answers.map((answer) => {
      const area = answer as { id: string; lock_version: number };
      return {
        method: 'PATCH' as const,
        path: `/api/v2/areas/${area.id}`,
        body: { name: `Renamed ${area.id.slice(-6)}`, lock_version: area.lock_version },
      };
    }),
  );
  console.log('\nwrite units (the request, the tally it applies included)');
  printWriteFigures('user create', users);
  printWriteFigures('user update (last name, role)', userUpdates);
  printWriteFigures('area create', areas);
  printWriteFigures('area update (name)', areaUpdates);
}

try {
  await writes(sizes[0] ?? 0);
  if (!values['writes-only']) {
    for (const size of sizes) await users(size);
    if (caseSizes.length > 0) await cases();
    print();
  }
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
