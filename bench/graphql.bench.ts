/**
 * `npm run bench:graphql`: what the per-workspace GraphQL API costs on a fresh local stack
 * (temporary DATA_DIR, one seeded workspace with an admin API client, FSM_REPORT_DYNAMODB_CALLS).
 *
 * Types (created through the API): customer, account, invoice (amount indexed) and line; relations
 * invoice → customer (to-one; customer.invoices to-many), invoice → account (one to one) and
 * line → invoice (to-one; invoice.lines to-many). Records are loaded straight into the service's
 * DynamoDB Local through the data layer (the item with its list declaration's index attributes,
 * its link sets and the summed counters, as bench/cases.bench.ts loads cases), because 100,000 API
 * writes take too long locally: 100 customers, 1,000 invoices (10 per customer, each with its own
 * account and 3 lines), later 99,000 more invoices without links.
 *
 * Measured, one request in flight, `--samples` (30) each, p50/p95, the p50 of the time spent
 * waiting for DynamoDB (the rest is the service's own) and the DynamoDB calls of one request:
 * 1. 1,000 invoices with a to-one relation: to their 1,000 distinct accounts (the worst case:
 *    every row a different record) and to their 100 customers; goal ≤ 12 calls whatever the
 *    row count;
 * 2. a 3-level nested query: 20 customers → 10 invoices each → their lines;
 * 3. the first query after a definition change (a PATCH adds a property to `line`, so the model
 *    is read again and a new schema built) next to the same query warm: 100 invoices, and 100
 *    invoices with their customer; goal first ≤ 150 ms, warm ≤ 30 ms;
 * 4. a root query filtered and ordered on the indexed amount (`_gte`, asc, first 20) at 1,000 and
 *    at 100,000 invoices; goal ≤ 50 ms at 100,000, growth ≤ 2×.
 * Prints figures only.
 */
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { startSeededService } from './support/seeded-service.ts';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '30' },
    large: { type: 'string', default: '100000' },
    changes: { type: 'string', default: '10' },
  },
});
const samples = Number(values.samples);
const large = Number(values.large);
const changes = Number(values.changes);

const client = { client_id: 'graphql-bench', client_secret: 'graphql-bench-secret' };
const bench = await startSeededService('graphql', [{ name: 'GraphQL bench', clients: [client] }]);
const { service } = bench;
const { workspaceScope } = await import('../shared/data/list-patterns.ts');
const { indexedItem, listWrites } = await import('../shared/data/list-index.ts');
const { instanceList } = await import('../shared/domain/custom-objects/instance-list.ts');
const { instanceStore, linkAttribute } = await import('../shared/domain/custom-objects/instance.store.ts');
const { incrementCounter, putRecords } = await import('../shared/data/table.ts');
type Definition = import('../shared/domain/custom-objects/definition.schema.ts').CustomObjectDefinition;

const token = () => bench.token(client);

async function api(bearer: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined
        ? {}
        : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

interface Row {
  definition: Definition;
  id: string;
  data: Record<string, unknown>;
  links: Record<string, string[]>;
}

/** Instances written as the data layer writes them, without their events; counters summed. */
async function load(workspaceId: string, rows: Row[]): Promise<void> {
  const scope = workspaceScope(workspaceId);
  const counters = new Map<string, { key: { pk: string; sk: string }; by: number }>();
  for (let start = 0; start < rows.length; start += 5000) {
    const items = [];
    for (const row of rows.slice(start, start + 5000)) {
      const spec = instanceList(row.definition);
      const now = new Date().toISOString();
      const instance = {
        id: row.id,
        definition_id: row.definition.id,
        data: row.data,
        created_at: now,
        updated_at: now,
        lock_version: 0,
      };
      const links = Object.fromEntries(Object.entries(row.links).map(([name, ids]) => [name, new Set(ids)]));
      items.push({
        key: instanceStore.of(workspaceId).key(row.definition.id, row.id),
        entity: 'custom_object_instance',
        record: { ...indexedItem(spec, scope, instance), ...links },
      });
      for (const write of listWrites(spec, scope, undefined, instance)) {
        if (write.kind === 'add') {
          const id = `${write.key.pk}\u0000${write.key.sk}`;
          const counter = counters.get(id) ?? { key: write.key, by: 0 };
          counter.by += write.by;
          counters.set(id, counter);
        } else if (write.kind === 'put') {
          items.push({ key: write.key, entity: write.entity, record: write.record });
        }
      }
    }
    await putRecords(items);
  }
  for (const { key, by } of counters.values()) await incrementCounter(key, 'counter', 'count', by);
}

interface Figures {
  p50: number;
  p95: number;
  /** p50 of the time the request waited for DynamoDB (x-dynamodb-ms): the rest is the service. */
  dynamoP50: number;
  calls: string;
  total: number;
}

const sumCalls = (header: string) =>
  header
    .split(',')
    .map((part) => Number(part.split('=')[1] ?? 0))
    .reduce((sum, count) => sum + count, 0);

async function post(
  bearer: string,
  query: string,
): Promise<{ ms: number; dynamoMs: number; calls: string; body: any }> {
  const t0 = performance.now();
  const response = await fetch(`${service.baseUrl}/api/v2/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  const ms = performance.now() - t0;
  if (response.status !== 200 || body.errors)
    throw new Error(`${query}: ${JSON.stringify(body).slice(0, 500)}`);
  const header = response.headers.get('x-dynamodb-calls') ?? '?';
  const dynamoMs = Number(response.headers.get('x-dynamodb-ms') ?? Number.NaN);
  return { ms, dynamoMs, calls: `${sumCalls(header)} (${header})`, body };
}

function percentiles(times: number[]): { p50: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

async function measure(bearer: string, query: string, count: (body: any) => number): Promise<Figures> {
  const times: number[] = [];
  const waits: number[] = [];
  let last: Awaited<ReturnType<typeof post>> | undefined;
  for (let i = 0; i < samples + 3; i++) {
    last = await post(bearer, query);
    if (i >= 3) {
      times.push(last.ms);
      waits.push(last.dynamoMs);
    }
  }
  return {
    ...percentiles(times),
    dynamoP50: percentiles(waits).p50,
    calls: last?.calls ?? '?',
    total: last ? count(last.body) : 0,
  };
}

const print = (name: string, f: Figures, goal = '') =>
  console.log(
    `${name}\n  p50 ${f.p50.toFixed(1)} ms (p95 ${f.p95.toFixed(1)} ms, DynamoDB ${f.dynamoP50.toFixed(1)} ms)  rows ${f.total}  DynamoDB calls ${f.calls}${goal ? `  goal: ${goal}` : ''}`,
  );

try {
  let bearer = await token();
  const claims = JSON.parse(Buffer.from(bearer.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
  const workspaceId = String(claims.tenant_id ?? claims.workspace_id ?? '');
  if (!workspaceId) throw new Error(`no workspace id in the token: ${Object.keys(claims).join(', ')}`);

  const define = (slug: string, properties: Record<string, unknown>, indexed?: string[]) =>
    api(bearer, 'POST', '/api/v2/custom-objects/definitions', {
      slug,
      title: slug,
      type: 'object',
      properties,
      ...(indexed ? { indexed_properties: indexed } : {}),
    }) as Promise<Definition>;
  const customer = await define('customer', { name: { type: 'string' } });
  const account = await define('account', { code: { type: 'string' } });
  const invoice = await define(
    'invoice',
    {
      number: { type: 'string' },
      amount: { type: 'number' },
      status: { type: 'string', enum: ['OPEN', 'PAID'] },
    },
    ['amount'],
  );
  const line = await define('line', { sku: { type: 'string' }, quantity: { type: 'integer' } });
  const side = (definition_slug: string, cardinality: 'ONE' | 'MANY', slug: string) => ({
    definition_slug,
    cardinality,
    slug,
    title: slug,
  });
  const created = (await api(bearer, 'POST', '/api/v2/custom-objects/relations', {
    relations: [
      { a: side('invoice', 'ONE', 'invoices'), b: side('customer', 'MANY', 'customer') },
      { a: side('invoice', 'ONE', 'invoice'), b: side('account', 'ONE', 'account') },
      { a: side('line', 'ONE', 'lines'), b: side('invoice', 'MANY', 'invoice') },
    ],
  })) as { items: Array<{ id: string }> };
  const [billedTo, owns, partOf] = created.items.map((item) => item.id) as [string, string, string];

  const amountOf = (i: number) => ((i * 7919) % 100_000) / 100;
  const customers: Row[] = [];
  const accounts: Row[] = [];
  const invoices: Row[] = [];
  const lines: Row[] = [];
  for (let c = 0; c < 100; c++) {
    customers.push({ definition: customer, id: uuidv7(), data: { name: `Customer ${c}` }, links: {} });
  }
  for (let i = 0; i < 1000; i++) {
    const owner = customers[i % 100] as Row;
    const own: Row = { definition: account, id: uuidv7(), data: { code: `A-${i}` }, links: {} };
    const row: Row = {
      definition: invoice,
      id: uuidv7(),
      data: { number: `INV-${i}`, amount: amountOf(i), status: i % 3 ? 'OPEN' : 'PAID' },
      links: { [linkAttribute(billedTo, 'a')]: [owner.id], [linkAttribute(owns, 'a')]: [own.id] },
    };
    own.links[linkAttribute(owns, 'b')] = [row.id];
    owner.links[linkAttribute(billedTo, 'b')] = [
      ...(owner.links[linkAttribute(billedTo, 'b')] ?? []),
      row.id,
    ];
    const mine: string[] = [];
    for (let l = 0; l < 3; l++) {
      const item: Row = {
        definition: line,
        id: uuidv7(),
        data: { sku: `SKU-${l}`, quantity: l + 1 },
        links: { [linkAttribute(partOf, 'a')]: [row.id] },
      };
      mine.push(item.id);
      lines.push(item);
    }
    row.links[linkAttribute(partOf, 'b')] = mine;
    accounts.push(own);
    invoices.push(row);
  }
  const t0 = Date.now();
  await load(workspaceId, [...customers, ...accounts, ...invoices, ...lines]);
  console.log(`loaded 100 customers, 1,000 accounts, 1,000 invoices, 3,000 lines (${Date.now() - t0} ms)\n`);

  const toAccounts = '{ invoice(first: 1000) { edges { node { number amount account { code } } } } }';
  const toCustomers = '{ invoice(first: 1000) { edges { node { number amount customer { name } } } } }';
  const nested =
    '{ customer(first: 20) { edges { node { name invoices(first: 10) { edges { node { number lines(first: 10) { edges { node { sku quantity } } } } } } } } } }';
  const hundred = '{ invoice(first: 100) { edges { node { number amount customer { name } } } } }';
  const indexed =
    '{ invoice(where: { amount: { _gte: 500 } }, order_by: [{ amount: asc }], first: 20) { edges { node { number amount } } } }';
  const edgesOf = (name: string) => (body: any) => body.data[name].edges.length as number;

  // DynamoDB Local's JVM compiles its hot paths during the first few hundred calls: every query
  // runs 10 times before anything is measured, so the first figures are not the JIT's.
  for (const query of [toAccounts, toCustomers, nested, hundred, indexed]) {
    for (let i = 0; i < 10; i++) await post(bearer, query);
  }
  console.log(`one request in flight, ${samples} samples each (after 3 warm-ups)\n`);
  print(
    '1a. 1,000 invoices with a to-one relation to 1,000 distinct accounts',
    await measure(bearer, toAccounts, edgesOf('invoice')),
    '≤ 12 calls',
  );
  print(
    '1b. 1,000 invoices with a to-one relation to their 100 customers',
    await measure(bearer, toCustomers, edgesOf('invoice')),
    '≤ 12 calls',
  );
  print(
    '2.  3 levels: 20 customers → 10 invoices each → their lines',
    await measure(bearer, nested, (body) =>
      body.data.customer.edges.reduce(
        (sum: number, c: any) =>
          sum +
          1 +
          c.node.invoices.edges.reduce((inner: number, i: any) => inner + 1 + i.node.lines.edges.length, 0),
        0,
      ),
    ),
  );

  // 3. First query after a definition change, next to the same query warm: 100 rows, and
  //    100 rows with a to-one relation (100 distinct customers: one BatchGetItem of 100).
  const plainHundred = '{ invoice(first: 100) { edges { node { number amount status } } } }';
  for (const [name, query] of [
    ['100 invoices', plainHundred],
    ['100 invoices with their customer', hundred],
  ] as const) {
    const firsts: number[] = [];
    const warms: number[] = [];
    const warmWaits: number[] = [];
    let firstCalls = '';
    let warmCalls = '';
    for (let change = 0; change < changes; change++) {
      await api(bearer, 'PATCH', '/api/v2/custom-objects/definitions/line', {
        properties: { [`note_${name.length}_${change}`]: { type: 'string' } },
      });
      const first = await post(bearer, query);
      firsts.push(first.ms);
      firstCalls = first.calls;
      for (let i = 0; i < 6; i++) {
        const warm = await post(bearer, query);
        if (i > 0) {
          warms.push(warm.ms);
          warmWaits.push(warm.dynamoMs);
        }
        warmCalls = warm.calls;
      }
    }
    const first = percentiles(firsts);
    const warm = percentiles(warms);
    console.log(
      `3.  ${name}: the first query after a definition change (${changes} changes) and warm\n` +
        `  first: p50 ${first.p50.toFixed(1)} ms (p95 ${first.p95.toFixed(1)} ms)  DynamoDB calls ${firstCalls}  goal ≤ 150 ms\n` +
        `  warm:  p50 ${warm.p50.toFixed(1)} ms (p95 ${warm.p95.toFixed(1)} ms, DynamoDB ${percentiles(warmWaits).p50.toFixed(1)} ms)  DynamoDB calls ${warmCalls}  goal ≤ 30 ms`,
    );
  }

  // 4. Filtered and ordered on the indexed amount, at 1,000 and at `large` invoices.
  const small = await measure(bearer, indexed, edgesOf('invoice'));
  print('4.  invoices where amount ≥ 500 order by amount asc first 20, at 1,000 invoices', small);
  const more: Row[] = [];
  for (let i = 1000; i < large; i++) {
    more.push({
      definition: invoice,
      id: uuidv7(),
      data: { number: `INV-${i}`, amount: amountOf(i), status: i % 3 ? 'OPEN' : 'PAID' },
      links: {},
    });
  }
  const t1 = Date.now();
  await load(workspaceId, more);
  console.log(`    (loaded ${more.length} more invoices in ${((Date.now() - t1) / 1000).toFixed(0)} s)`);
  // Loading outlives an access token.
  bearer = await token();
  const big = await measure(bearer, indexed, edgesOf('invoice'));
  print(`    the same at ${large.toLocaleString('en')} invoices`, big, '≤ 50 ms');
  console.log(`    growth: ${(big.p50 / small.p50).toFixed(2)}× (goal ≤ 2×)`);
  print(
    `1a. again at ${large.toLocaleString('en')} invoices: the first 1,000 with their accounts`,
    await measure(bearer, toAccounts, edgesOf('invoice')),
    '≤ 12 calls',
  );
} finally {
  await bench.stop();
}
