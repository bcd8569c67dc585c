/**
 * `npm run bench:cases`: what a page of the case list costs at 1,000 and at 100,000 cases in one
 * workspace (issue 11: ≤ 30 ms at 100,000, growth ≤ 1.5×). A fresh service; the cases are loaded
 * straight into its DynamoDB Local through the data layer's own list declaration (the item with
 * its index attributes, and the list counters summed), because 100,000 API writes take about
 * 25 minutes locally; the outbox is skipped, no consumer needs those events here. Then, one
 * request in flight: GET /api/v2/cases page 0 (default order), filtered by one status, and a
 * deep page, p50/p95 with the DynamoDB calls and read units of one page. Prints figures only.
 */
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { startSeededService } from './support/seeded-service.ts';
import { printWriteFigures, writeUnitsOf } from './support/write-units.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000' },
    samples: { type: 'string', default: '30' },
    /** Only the write units of creates and updates (no load, no pages). */
    'writes-only': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map(Number);
const samples = Number(values.samples);

const client = { client_id: 'cases-bench', client_secret: 'cases-bench-secret' };
const bench = await startSeededService('cases', [{ name: 'Case bench', clients: [client] }]);
const { service } = bench;
const { caseList } = await import('../shared/domain/cases/case.list.ts');
const { caseStore } = await import('../shared/domain/cases/case.store.ts');
const { DirectLoad } = await import('./support/direct-load.ts');
type Case = import('../shared/domain/cases/case.schema.ts').Case;

const token = () => bench.token(client);

const statuses = ['NEW', 'SCHEDULED', 'IN_PROGRESS', 'ON_HOLD', 'DONE', 'CANCELLED'] as const;
const priorities = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const;

async function load(workspaceId: string, count: number): Promise<void> {
  const load = new DirectLoad<Case>(workspaceId, caseList, 'case', (id) => caseStore.of(workspaceId).key(id));
  for (let start = 0; start < count; start += 5000) {
    for (let i = start; i < Math.min(count, start + 5000); i++) {
      const at = Date.now() - (count - i) * 60_000;
      const now = new Date(at).toISOString();
      load.add({
        id: uuidv7(),
        title: `Case ${i}`,
        status: statuses[i % statuses.length] ?? 'NEW',
        priority: priorities[i % priorities.length] ?? 'NORMAL',
        created_at: now,
        updated_at: now,
        // Scheduled a day after their creation, for an hour: the newest cases are the latest.
        scheduled_start: new Date(at + 86_400_000).toISOString(),
        scheduled_end: new Date(at + 90_000_000).toISOString(),
        lock_version: 0,
      } as Case);
    }
    await load.flush();
  }
  await load.addCounters();
}

interface Figures {
  p50: number;
  p95: number;
  calls: string;
  readUnits: string;
  total: number;
}

async function measure(bearer: string, path: string): Promise<Figures> {
  const times: number[] = [];
  let last: Response | undefined;
  let body: { page?: { total_elements: number } } = {};
  for (let i = 0; i < samples + 3; i++) {
    const t0 = performance.now();
    last = await fetch(`${service.baseUrl}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    body = (await last.json()) as typeof body;
    if (last.status !== 200) throw new Error(`${path}: ${last.status} ${JSON.stringify(body)}`);
    if (i >= 3) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    p50: at(0.5),
    p95: at(0.95),
    calls: `${last?.headers.get('x-dynamodb-calls') ?? '?'}${last?.headers.get('x-total-elements-estimated') ? ' (total estimated)' : ''}`,
    readUnits: /read=([\d.]+)/.exec(last?.headers.get('x-dynamodb-capacity') ?? '')?.[1] ?? '?',
    total: body.page?.total_elements ?? 0,
  };
}

/**
 * Write units of a case create, and of an update that moves its status, priority and title (every
 * listed value and counter it has), one request at a time (shared/data/tally.ts).
 */
async function writes(bearer: string): Promise<void> {
  const count = 30;
  const created = await writeUnitsOf(
    service.baseUrl,
    bearer,
    Array.from({ length: count }, (_, i) => ({
      method: 'POST' as const,
      path: '/api/v2/cases',
      body: { title: `Write ${i}`, status: 'NEW', priority: 'NORMAL' },
    })),
  );
  const updated = await writeUnitsOf(
    service.baseUrl,
    bearer,
    created.answers.map((answer) => {
      const item = answer as { id: string; lock_version: number };
      return {
        method: 'PATCH' as const,
        path: `/api/v2/cases/${item.id}`,
        body: { status: 'ON_HOLD', priority: 'HIGH', title: 'Moved', lock_version: item.lock_version },
      };
    }),
  );
  console.log('\nwrite units (the request, the tally it applies included)');
  printWriteFigures('case create', created);
  printWriteFigures('case update (status, priority, title)', updated);
}

/** What a request the read bound refuses answers and reads (no samples: it reads the bound). */
async function refused(bearer: string, path: string): Promise<void> {
  const t0 = performance.now();
  const response = await fetch(`${service.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  const body = (await response.json()) as { type?: string };
  console.log(
    `  ${path}: ${response.status} ${body.type ?? ''} in ${(performance.now() - t0).toFixed(0)} ms, read units ${/read=([\d.]+)/.exec(response.headers.get('x-dynamodb-capacity') ?? '')?.[1] ?? '?'}`,
  );
}

try {
  const me = await fetch(`${service.baseUrl}/api/v2/cases?size=1`, {
    headers: { authorization: `Bearer ${await token()}` },
  });
  if (me.status !== 200) throw new Error(`GET /api/v2/cases answered ${me.status}`);
  const claims = JSON.parse(
    Buffer.from((await token()).split('.')[1] ?? '', 'base64url').toString(),
  ) as Record<string, unknown>;
  const workspaceId = String(claims.tenant_id ?? claims.workspace_id ?? '');
  if (!workspaceId) throw new Error(`no workspace id in the token: ${Object.keys(claims).join(', ')}`);
  await writes(await token());
  const rows = new Map<string, Map<number, Figures>>();
  let loaded = 0;
  for (const size of values['writes-only'] ? [] : sizes) {
    const t0 = Date.now();
    await load(workspaceId, size - loaded);
    loaded = size;
    console.log(`loaded ${size} cases in total (${((Date.now() - t0) / 1000).toFixed(0)} s for this step)`);
    const bearer = await token();
    const record = (name: string, figures: Figures) => {
      const row = rows.get(name) ?? new Map<number, Figures>();
      row.set(size, figures);
      rows.set(name, row);
    };
    record('cases, default order, page 0', await measure(bearer, '/api/v2/cases'));
    record(
      'cases, statuses=IN_PROGRESS, page 0',
      await measure(bearer, '/api/v2/cases?statuses=IN_PROGRESS'),
    );
    record('cases, sort=priority:desc, page 0', await measure(bearer, '/api/v2/cases?sort=priority:desc'));
    record('cases, default order, page 25', await measure(bearer, '/api/v2/cases?page=25'));
    // The worst a case list can be asked (shared/data/README.md, "The read bound"): a filter no
    // counter counts, whose count reads every entry of the wanted statuses. The last 2,000
    // cases' schedules end after `from`.
    const from = encodeURIComponent(new Date(Date.now() + 86_400_000 - 2_000 * 60_000).toISOString());
    record(
      'cases, scheduled_from (last 2,000), sort=scheduled_start:desc, page 0',
      await measure(bearer, `/api/v2/cases?scheduled_from=${from}&sort=scheduled_start:desc`),
    );
    await refused(bearer, `/api/v2/cases?scheduled_from=${from}&sort=scheduled_start:asc`);
  }
  console.log(
    `\np50 (p95) per page, ${samples} samples, one request in flight; DynamoDB calls and read units of one page`,
  );
  const [small, large] = [sizes[0] ?? 0, sizes.at(-1) ?? 0];
  for (const [name, row] of rows) {
    console.log(`\n${name}`);
    for (const [size, f] of row) {
      console.log(
        `  ${String(size).padStart(7)}: ${f.p50.toFixed(1).padStart(6)} ms (${f.p95.toFixed(1)} ms)  total ${f.total}  calls ${f.calls}  read units ${f.readUnits}`,
      );
    }
    console.log(
      `  growth ${small} → ${large}: ${((row.get(large)?.p50 ?? 0) / (row.get(small)?.p50 ?? 1)).toFixed(2)}× (goal ≤ 1.5×, ≤ 30 ms at 100,000)`,
    );
  }
} finally {
  await bench.stop();
}
