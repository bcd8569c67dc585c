/**
 * `npm run bench:sync` (issue 37): offline sync on a fresh local stack. Two technicians, one with
 * `--small` records in scope (200) and one with `--large` (2,000): cases assigned to them in the
 * window (four of five) and comments on them (one in five), all made through the API so the sync
 * indexer builds their scope from the stream as it would in service. Then:
 *
 * - full pull of the large scope: wall time from the first page to the last, pages, the largest
 *   page in bytes (goal ≤ 3 s, every page ≤ 1 MB);
 * - incremental pull after 10 changes to the scope (dispatch edits 10 cases), the same cursor
 *   pulled `--samples` times: p50/p95 and the read units of one pull (FSM_REPORT_DYNAMODB_CALLS),
 *   at both scope sizes (goal ≤ 50 ms p50, units independent of the scope);
 * - push of 100 mutations (50 status updates, 50 comments) in one request (goal ≤ 1 s), and the
 *   same 100 operations as REST requests one at a time, for comparison.
 *
 * Prints figures only.
 */
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { startSeededService } from './support/seeded-service.ts';

const { values } = parseArgs({
  options: {
    small: { type: 'string', default: '200' },
    large: { type: 'string', default: '2000' },
    samples: { type: 'string', default: '30' },
  },
});
const samples = Number(values.samples);

const client = { client_id: 'sync-bench', client_secret: 'sync-bench-secret' };
const bench = await startSeededService('sync', [{ name: 'Sync bench', clients: [client] }]);
const { service } = bench;
const admin = await bench.token(client);

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? JSON.parse(text) : undefined,
  };
}

/** A user's access token, signed with the service's own key (as the identity provider would). */
function userToken(userId: string): string {
  const jwks = JSON.parse(readFileSync(join(bench.dataDir, 'identity', 'signing-key.json'), 'utf8'));
  const jwk = jwks.keys[0];
  const { tenant_id } = JSON.parse(Buffer.from(admin.split('.')[1] as string, 'base64url').toString());
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid })}.${encode({
    iss: `${service.baseUrl}/realms/shared`,
    aud: 'fsm-api',
    sub: userId,
    tenant_id,
    iat: now,
    exp: now + 3600,
    jti: randomUUID(),
  })}`;
  return `${input}.${sign('sha256', Buffer.from(input), createPrivateKey({ key: jwk, format: 'jwk' })).toString('base64url')}`;
}

async function inParallel<T>(
  count: number,
  width: number,
  make: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    results.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(width, count - start) }, (_, i) => make(start + i)),
      )),
    );
  }
  return results;
}

const roles = await api('GET', '/api/v2/roles', admin);
const technicianRole = (roles.body.items as Array<{ id: string; name: string }>).find(
  (r) => r.name === 'technician',
)?.id;

/** A technician with `records` in scope: cases (4 of 5) and comments on them (1 of 5). */
async function technicianWith(records: number) {
  const user = await api('POST', '/api/v2/users', admin, {
    email: `tech-${randomUUID().slice(0, 8)}@bench.test`,
    firstname: 'Bench',
    lastname: 'Technician',
    role_ids: [technicianRole],
  });
  if (user.status !== 201) throw new Error(`user: ${user.status} ${user.text}`);
  const caseCount = Math.round((records * 4) / 5);
  const started = performance.now();
  const cases = await inParallel(caseCount, 8, async (index) => {
    const start = new Date(Date.now() + ((index % 20) - 6) * 86_400_000).toISOString();
    const created = await api('POST', '/api/v2/cases', admin, {
      title: `Service visit ${index}`,
      description: 'Annual maintenance of the heating system, check the pressure and the burner.',
      status: 'SCHEDULED',
      assignee_id: user.body.id,
      scheduled_start: start,
      scheduled_end: new Date(Date.parse(start) + 3600_000).toISOString(),
    });
    if (created.status !== 201) throw new Error(`case: ${created.status} ${created.text}`);
    return created.body as { id: string; lock_version: number };
  });
  await inParallel(records - caseCount, 8, async (index) => {
    const created = await api('POST', '/api/v2/comments', admin, {
      target_type: 'core:case',
      target_id: cases[index % cases.length]?.id,
      body_markdown: `Note ${index}: the customer asks for a call 30 minutes ahead.`,
    });
    if (created.status !== 201) throw new Error(`comment: ${created.status} ${created.text}`);
  });
  console.log(
    `loaded ${records} records for a technician in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { id: user.body.id as string, token: userToken(user.body.id), cases };
}

async function pull(token: string, installation: string, cursor?: string, limit = 1000) {
  const response = await api('POST', '/api/v2/sync/pull', token, {
    installation_id: installation,
    limit,
    ...(cursor ? { cursor } : {}),
  });
  if (response.status !== 200) throw new Error(`pull: ${response.status} ${response.text}`);
  return response;
}

/** Pulls to the end; the changes, pages, the largest page and the time it took. */
async function fullPull(token: string) {
  const installation = `bench-${randomUUID()}`;
  const started = performance.now();
  let cursor: string | undefined;
  let changes = 0;
  let pages = 0;
  let largest = 0;
  for (;;) {
    const page = await pull(token, installation, cursor);
    pages += 1;
    changes += page.body.changes.length;
    largest = Math.max(largest, Buffer.byteLength(page.text));
    cursor = page.body.cursor;
    if (!page.body.has_more) break;
  }
  return { ms: performance.now() - started, changes, pages, largest, cursor: cursor as string, installation };
}

/** Waits until a full pull sends `expected` changes (the indexer follows the stream). */
async function settled(token: string, expected: number) {
  for (let attempt = 0; attempt < 120; attempt++) {
    const full = await fullPull(token);
    if (full.changes >= expected) return full;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the scope never reached its size');
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function incremental(tech: Awaited<ReturnType<typeof technicianWith>>, records: number) {
  const base = await settled(tech.token, records);
  await Promise.all(
    tech.cases
      .slice(0, 10)
      .map((job, index) => api('PATCH', `/api/v2/cases/${job.id}`, admin, { title: `Changed ${index}` })),
  );
  // Until the 10 changes are in the change log.
  for (let attempt = 0; ; attempt++) {
    const page = await pull(tech.token, base.installation, base.cursor);
    if (page.body.changes.length >= 10 || attempt > 100) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const times: number[] = [];
  let units = '?';
  let calls = '?';
  for (let i = 0; i < samples + 3; i++) {
    const started = performance.now();
    const page = await pull(tech.token, base.installation, base.cursor);
    if (i >= 3) times.push(performance.now() - started);
    units = /read=([\d.]+)/.exec(page.headers.get('x-dynamodb-capacity') ?? '')?.[1] ?? '?';
    calls = page.headers.get('x-dynamodb-calls') ?? '?';
  }
  times.sort((a, b) => a - b);
  console.log(
    `incremental pull after 10 changes, scope ${records}: p50 ${quantile(times, 0.5).toFixed(1)} ms, ` +
      `p95 ${quantile(times, 0.95).toFixed(1)} ms, read units ${units}, DynamoDB calls ${calls}`,
  );
  return base;
}

try {
  const small = await technicianWith(Number(values.small));
  const large = await technicianWith(Number(values.large));
  // Both scopes indexed before anything is timed: the indexer's catching up would share the cores.
  await settled(small.token, Number(values.small));
  await settled(large.token, Number(values.large));
  await incremental(small, Number(values.small));
  await incremental(large, Number(values.large));
  const fulls = [];
  for (let run = 0; run < 3; run++) fulls.push(await fullPull(large.token));
  for (const full of fulls) {
    console.log(
      `full pull of ${full.changes} changes: ${full.ms.toFixed(0)} ms, ${full.pages} pages, largest page ` +
        `${(full.largest / 1024).toFixed(0)} KB`,
    );
  }
  const device = `bench-push-${randomUUID()}`;
  const mutations = Array.from({ length: 100 }, (_, index) => {
    const job = large.cases[index % 50] as { id: string };
    return index < 50
      ? { id: index + 1, type: 'case', record_id: job.id, op: 'update', data: { status: 'IN_PROGRESS' } }
      : {
          id: index + 1,
          type: 'comment',
          record_id: uuidv7(),
          op: 'create',
          data: { target_type: 'core:case', target_id: job.id, body_markdown: `Offline note ${index}` },
        };
  });
  const started = performance.now();
  const pushed = await api('POST', '/api/v2/sync/push', large.token, { installation_id: device, mutations });
  const ms = performance.now() - started;
  const statuses = new Map<string, number>();
  for (const result of pushed.body.results ?? [])
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
  console.log(
    `push of 100 mutations: ${ms.toFixed(0)} ms (${pushed.status}; ${JSON.stringify(Object.fromEntries(statuses))})`,
  );
  // The same 100 operations as REST requests, one at a time (what the push does in-process).
  const restStarted = performance.now();
  for (const [index, job] of large.cases.slice(50, 100).entries()) {
    await api('PATCH', `/api/v2/cases/${job.id}`, large.token, { status: 'IN_PROGRESS' });
    await api('POST', '/api/v2/comments', large.token, {
      target_type: 'core:case',
      target_id: job.id,
      body_markdown: `Online note ${index}`,
    });
  }
  console.log(
    `the same 100 operations over REST, one at a time: ${(performance.now() - restStarted).toFixed(0)} ms`,
  );
} finally {
  await bench.stop();
}
