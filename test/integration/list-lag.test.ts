/**
 * The list equivalence property (list-plans.test.ts) while the indexes lag their table, as
 * DynamoDB's global secondary indexes do: this file's own DynamoDB Local behind the semantics
 * proxy (shared/local-stack/dynamodb-semantics-proxy.ts) with a 1 s index lag and a small hold,
 * the users list written through the real write path (transactWrite with listWrites: the record's
 * transaction, then its tally moving the counters and the revision, applied by the writer or by
 * the stream poller, tally.ts), and a data layer told that the lag stays under
 * FSM_LIST_INDEX_LAG_MS (1.5 s here): nothing is kept between requests while the list's revision
 * is younger (list-read.ts `revisionSettledAt`).
 *
 * Random concurrent writes (creates, updates that move names, times, roles and statuses, deletes)
 * run while random queries are asked over and over (search words, status segments, a role filter
 * counted or not, one or two sort keys, pages, sizes), and on after the last write, first inside
 * the lag, then past the bound (so that totals and page boundaries are kept during the activity).
 * No page served meanwhile may hold a record twice. Once the writes are in the indexes and the
 * bound has passed, every query walked from page 0 to its end, each page asked twice, serves
 * exactly the reference: every record once, in order, none skipped, the total exact. A
 * deterministic scenario asks a deep page and a counted filter right after a write, inside the
 * lag, then after it: with FSM_LIST_INDEX_LAG_MS=0 (state kept inside the lag) it serves what it
 * kept from the lagging index, a page shifted by the write and a total without it. A last one
 * moves a record ahead of a walk while it reads: the walk meets it twice, and counts it once
 * (list-scan.ts).
 *
 * FSM_PROPERTY_RUNS (default 3) and FSM_PROPERTY_SEED (default fixed) choose the runs;
 * FSM_LIST_INDEX_LAG_MS, when set, replaces the bound (to see the test fail without it).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrincipalRecord } from '../../shared/data/directory.store.ts';
import { userList, userTokens } from '../../shared/data/directory-lists.ts';
import { collectionPk, listKeys } from '../../shared/data/keys.ts';
import { revisionCounter } from '../../shared/data/list-cache.ts';
import { indexedItem, listWrites } from '../../shared/data/list-index.ts';
import { searchWords, workspaceScope } from '../../shared/data/list-patterns.ts';
import { comparatorOf, listPage } from '../../shared/data/list-read.ts';
import { getRecords, queryItems, recordOf, transactWrite } from '../../shared/data/table.ts';
import type { StreamPoller } from '../../shared/local-stack/stream-poller.ts';
import { type SemanticsHarness, startSemanticsHarness } from '../support/semantics-harness.ts';
import { fields, instant, roleNames, statuses, type UserSeed, userArb } from '../support/user-seeds.ts';

/** How long the proxy's indexes lag their table. */
const indexLagMs = 1000;
let harness: SemanticsHarness;
let proxy: SemanticsHarness['proxy'];
let poller: StreamPoller;

/** The data layer's bound of the index lag (FSM_LIST_INDEX_LAG_MS), as it reads it. */
const lagBound = () => Number(process.env.FSM_LIST_INDEX_LAG_MS);

beforeAll(async () => {
  harness = await startSemanticsHarness({
    holdMs: 10,
    indexLagMs,
    // Walks read 3 entries per Query: they span many index pages, and many index lag steps.
    env: { FSM_LIST_QUERY_MAX: '3', FSM_LIST_PROBE: '4' },
  });
  proxy = harness.proxy;
  poller = harness.poller as StreamPoller;
  // Above the lag; a value set outside (0: keep inside the lag) is the experiment's.
  process.env.FSM_LIST_INDEX_LAG_MS ??= '1500';
  delete process.env.FSM_LIST_PLAN;
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const sortKey = fc.record({
  field: fc.constantFrom(...fields),
  direction: fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
});

const queryArb = fc.record({
  /** Search: none (half the queries: the others read the index, or their matches), or words. */
  search: fc.option(
    fc.oneof(
      fc.constantFrom('a', 'an', 'anna', 'b', 'brandt', 'acme', 'example', 'ida', '10', 'zo', 'nobody'),
      fc.constantFrom('anna acme', 'b example', 'ida 9', 'mu brandt', 'z north'),
    ),
    { nil: undefined, freq: 2 },
  ),
  segments: fc.option(fc.subarray([...statuses], { minLength: 1 }), { nil: undefined }),
  role: fc.option(fc.constantFrom(...roleNames), { nil: undefined }),
  /** The role filter's total from its counters, or counted by the walk (and kept). */
  counted: fc.boolean(),
  /** Mostly one sort key (a walk that keeps page boundaries), else two (ties ordered in memory). */
  order: fc.oneof(
    { arbitrary: fc.tuple(sortKey), weight: 3 },
    { arbitrary: fc.tuple(sortKey, sortKey), weight: 1 },
  ),
  page: fc.nat(4),
  size: fc.integer({ min: 2, max: 5 }),
  /** The plan of each page's second ask at the end (meanwhile the planner's: the variable is global). */
  plan: fc.constantFrom('planner', 'walk', 'matches'),
});
type Query = typeof queryArb extends fc.Arbitrary<infer T> ? T : never;

const writeArb = fc.record({
  kind: fc.constantFrom('create', 'update', 'update', 'delete'),
  /** Which of its lane's records an update or delete takes. */
  at: fc.nat(),
  seed: userArb,
  /** Pause before the write (ms). */
  pause: fc.nat(120),
});

let serial = 0;

function recordOfSeed(workspaceId: string, seed: UserSeed): PrincipalRecord {
  const i = serial++;
  return {
    id: `0190${String(i % 10_000).padStart(4, '0')}-0000-7000-8000-${randomUUID().slice(-12)}`,
    workspace_id: workspaceId,
    kind: 'user',
    status: seed.status,
    roles: seed.roles,
    firstname: seed.first,
    lastname: seed.last,
    email: `${seed.first.replace(/\s/g, '')}.${seed.last}.${i}@${seed.domain}`.toLowerCase(),
    created_at: instant(seed.created),
    updated_at: instant(seed.updated),
    lock_version: 0,
  } as PrincipalRecord;
}

/** A user's write as the service makes it: the record's transaction with its list writes. */
async function write(
  workspaceId: string,
  before: PrincipalRecord | undefined,
  after: PrincipalRecord | undefined,
): Promise<void> {
  const scope = workspaceScope(workspaceId);
  const id = (after ?? before)?.id ?? '';
  const key = { pk: collectionPk(workspaceId, 'PRINCIPAL'), sk: id };
  const stored = before
    ? (recordOf(indexedItem(userList, scope, before)) as unknown as PrincipalRecord)
    : undefined;
  const recordWrite = !after
    ? { kind: 'delete' as const, key, expectedVersion: before?.lock_version ?? 0 }
    : before
      ? {
          kind: 'replace' as const,
          key,
          entity: 'principal',
          record: indexedItem(userList, scope, after),
          expectedVersion: before.lock_version,
        }
      : { kind: 'create' as const, key, entity: 'principal', record: indexedItem(userList, scope, after) };
  await transactWrite([recordWrite, ...listWrites(userList, scope, stored, after)]);
}

/** The answer computed from the records themselves. */
function reference(records: readonly PrincipalRecord[], query: Query) {
  const words = query.search ? searchWords(query.search) : [];
  const matches = records
    .filter(
      (record) => !query.segments || query.segments.includes(record.status as (typeof statuses)[number]),
    )
    .filter((record) => !query.role || record.roles.includes(query.role))
    .filter((record) => words.every((word) => userTokens(record).some((token) => token.startsWith(word))))
    .sort(
      comparatorOf(userList, query.order) as unknown as (a: PrincipalRecord, b: PrincipalRecord) => number,
    );
  const start = query.page * query.size;
  return {
    ids: matches.slice(start, start + query.size).map((record) => record.id),
    total: matches.length,
    hasMore: matches.length > start + query.size,
    all: matches.map((record) => record.id),
  };
}

const expected = (records: readonly PrincipalRecord[], query: Query) => {
  const { all: _all, ...page } = reference(records, query);
  return page;
};

/** A page as the data layer serves it (the plan is the planner's unless FSM_LIST_PLAN says). */
async function served(workspaceId: string, query: Query) {
  const role = query.role;
  const page = await listPage(userList, {
    scope: workspaceScope(workspaceId),
    order: query.order,
    page: query.page,
    size: query.size,
    ...(query.segments ? { segments: query.segments } : {}),
    ...(query.search ? { search: searchWords(query.search) } : {}),
    ...(role
      ? { where: (entry) => ((entry.roles as string[]) ?? []).includes(role), filterKey: `role=${role}` }
      : {}),
    ...(role && query.counted ? { countedBy: `role=${role}` } : {}),
  });
  return { ids: page.items.map((item) => String(item.id)), total: page.total, hasMore: page.hasMore };
}

/** A forced plan for the calls in `work` (sequential only: the variable is the process's). */
async function withPlan<T>(plan: Query['plan'], work: () => Promise<T>): Promise<T> {
  if (plan === 'planner') delete process.env.FSM_LIST_PLAN;
  else process.env.FSM_LIST_PLAN = plan;
  try {
    return await work();
  } finally {
    delete process.env.FSM_LIST_PLAN;
  }
}

const revisionOf = async (workspaceId: string) => {
  const [revision] = await getRecords([
    listKeys.counter(workspaceScope(workspaceId), 'USER', revisionCounter),
  ]);
  return { count: Number(revision?.count ?? 0), appliedAt: revision?.applied_at as string | undefined };
};

async function tallyItemsLeft(workspaceId: string): Promise<number> {
  let left = 0;
  for await (const _ of queryItems({
    partitionKey: {
      name: 'pk',
      value: `${listKeys.counter(workspaceScope(workspaceId), 'USER', 'all').pk}#TALLY`,
    },
    pageSize: () => 1000,
  }))
    left++;
  return left;
}

/** Items kept for the list's queries (list-cache.ts) under its revision `revision`. */
async function keptItems(workspaceId: string, revision: number): Promise<number> {
  let kept = 0;
  for await (const item of queryItems({
    partitionKey: { name: 'pk', value: listKeys.cachePartition(workspaceScope(workspaceId)) },
    pageSize: () => 1000,
  })) {
    if (String(item.sk).split('#')[2] === String(revision)) kept++;
  }
  return kept;
}

/**
 * Until the lag has passed: every tally applied (by its writer or the stream), every write in the
 * indexes, and the list's revision older than the data layer's bound (state may be kept again).
 */
async function lagPassed(workspaceId: string): Promise<void> {
  await poller.drained();
  await expect.poll(() => tallyItemsLeft(workspaceId), { timeout: 15_000, interval: 100 }).toBe(0);
  await proxy.settled();
  const { appliedAt } = await revisionOf(workspaceId);
  const settledAt = (appliedAt ? Date.parse(appliedAt) : 0) + Math.max(lagBound(), indexLagMs) + 100;
  await sleep(Math.max(0, settledAt - Date.now()));
  expect(proxy.stats().indexWritesPending).toBe(0);
}

/**
 * Every page of the query from 0 to one past its end, each asked twice, by the planner, then
 * under the query's plan (the second may start from what the first kept): exactly the
 * reference, and together every match once, in order.
 */
async function walkedWhole(workspaceId: string, records: readonly PrincipalRecord[], query: Query) {
  const { all, total } = reference(records, query);
  const seen: string[] = [];
  for (let page = 0; page * query.size <= total; page++) {
    const asked = { ...query, page };
    const want = expected(records, asked);
    const first = await served(workspaceId, asked);
    expect(first, `page ${page} of ${JSON.stringify(query)}`).toEqual(want);
    const again = await withPlan(query.plan, () => served(workspaceId, asked));
    expect(again, `page ${page} again of ${JSON.stringify(query)}`).toEqual(want);
    seen.push(...first.ids);
  }
  expect(seen, `every match once, in order: ${JSON.stringify(query)}`).toEqual(all);
}

/** Record ids a page holds more than once. */
const twice = (ids: readonly string[]) => ids.filter((id, i) => ids.indexOf(id) !== i);

describe('Lists while the indexes lag (1 s) under concurrent writes', () => {
  it('no page holds a record twice meanwhile; once the lag has passed, every page equals the reference', async () => {
    let runs = 0;
    let keptDuringActivity = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(userArb, { minLength: 4, maxLength: 16 }),
        fc.array(writeArb, { minLength: 6, maxLength: 16 }),
        fc.integer({ min: 2, max: 3 }),
        fc.array(queryArb, { minLength: 2, maxLength: 4 }),
        async (seeds, writes, lanes, queries) => {
          runs++;
          // Prepare: the collection, each record owned by one writer lane (lanes never write one
          // record: they meet on the tallies' counters and the revision only)
          const workspaceId = randomUUID();
          const live = new Map<string, { record: PrincipalRecord; lane: number }>();
          for (const [i, seed] of seeds.entries()) {
            const record = recordOfSeed(workspaceId, seed);
            await write(workspaceId, undefined, record);
            live.set(record.id, { record, lane: i % lanes });
          }

          // Act: the writer lanes, while two reader lanes ask the queries over and over
          const writersDone = { at: 0 };
          const writer = async (lane: number) => {
            for (const [n, op] of writes.entries()) {
              if (n % lanes !== lane) continue;
              await sleep(op.pause);
              const own = [...live.values()].filter((entry) => entry.lane === lane);
              const target = own[op.at % Math.max(1, own.length)];
              if (op.kind === 'create' || !target) {
                const record = recordOfSeed(workspaceId, op.seed);
                await write(workspaceId, undefined, record);
                live.set(record.id, { record, lane });
              } else if (op.kind === 'delete') {
                live.delete(target.record.id);
                await write(workspaceId, target.record, undefined);
              } else {
                const before = target.record;
                const after = {
                  ...recordOfSeed(workspaceId, op.seed),
                  id: before.id,
                  lock_version: before.lock_version + 1,
                };
                await write(workspaceId, before, after);
                live.set(before.id, { record: after, lane });
              }
            }
          };
          const doubled: string[] = [];
          // Readers go on past the last write: inside the lag (where nothing may be kept), then
          // past the bound (where the queries keep what the final walk then starts from). One
          // steps through each query's pages from 0, the other jumps to its deep pages first.
          const tail = Math.max(lagBound(), indexLagMs) + 400;
          const asking = () => writersDone.at === 0 || Date.now() - writersDone.at < tail;
          const reader = async (lane: number) => {
            for (let n = 0; asking(); n++) {
              const query = queries[(n + lane) % queries.length] as Query;
              const pages = Array.from({ length: query.page + 2 }, (_, page) => page);
              for (const page of lane === 0 ? pages : pages.reverse()) {
                if (!asking()) break;
                const answer = await served(workspaceId, { ...query, page });
                if (twice(answer.ids).length > 0)
                  doubled.push(`${JSON.stringify({ ...query, page })}: ${JSON.stringify(answer.ids)}`);
              }
            }
          };
          await Promise.all([
            Promise.all(Array.from({ length: lanes }, (_, lane) => writer(lane))).then(() => {
              writersDone.at = Date.now();
            }),
            reader(0),
            reader(1),
          ]);

          // Assess: no page held a record twice meanwhile (not always so yet: see the last test)
          expect(doubled, 'pages holding a record twice during the writes').toEqual([]);
          // Once the lag has passed: each query's own page (from what was kept during the
          // activity), then every page of it, each twice
          await lagPassed(workspaceId);
          const records = [...live.values()].map((entry) => entry.record);
          if ((await keptItems(workspaceId, (await revisionOf(workspaceId)).count)) > 0) keptDuringActivity++;
          for (const query of queries) {
            const own = await served(workspaceId, query);
            expect(own, `kept during the writes: ${JSON.stringify(query)}`).toEqual(expected(records, query));
            await walkedWhole(workspaceId, records, query);
          }
        },
      ),
      {
        numRuns: Number(process.env.FSM_PROPERTY_RUNS ?? 3),
        seed: Number(process.env.FSM_PROPERTY_SEED ?? 34_034),
        endOnFailure: true,
      },
    );
    // The harness really lagged and contended, and state was kept during the activity.
    expect(proxy.stats().cancelled + proxy.stats().writesRefused).toBeGreaterThan(0);
    expect(keptDuringActivity, `runs with state kept under the final revision, of ${runs}`).toBeGreaterThan(
      0,
    );
  }, 300_000);

  it('what a walk reads inside the lag is not kept: a deep page and a counted filter after it equal the reference', async () => {
    // Prepare: 12 users, then the lag passed
    const workspaceId = randomUUID();
    const records: PrincipalRecord[] = [];
    for (let i = 1; i <= 12; i++) {
      const record = {
        ...recordOfSeed(workspaceId, {
          first: 'Ida',
          last: 'Kern',
          domain: 'acme.example',
          status: 'ACTIVE',
          roles: [i % 3 === 0 ? 'driver' : 'technician'],
          created: 0,
          updated: 0,
        }),
        lastname: `Kern ${i}`,
      };
      await write(workspaceId, undefined, record);
      records.push(record);
    }
    await lagPassed(workspaceId);
    const deep: Query = {
      order: [{ field: 'last_name', direction: 'asc' }],
      page: 2,
      size: 3,
      counted: false,
      plan: 'planner',
    } as Query;
    const counted: Query = { ...deep, page: 1, role: 'technician' } as Query;
    const before = expected(records, counted).total;

    // Act: a user who sorts first is created; at once, inside the lag, the deep page and the
    // counted filter are asked (a walk of the index without the new user, under the revision
    // that counts it)
    const first = recordOfSeed(workspaceId, {
      first: 'Ida',
      last: 'Aal',
      domain: 'acme.example',
      status: 'ACTIVE',
      roles: ['technician'],
      created: 0,
      updated: 0,
    });
    const wroteAt = Date.now();
    await write(workspaceId, undefined, first);
    records.push(first);
    const insideLag = { deep: await served(workspaceId, deep), counted: await served(workspaceId, counted) };
    const askedWithin = Date.now() - wroteAt;

    // Assess: the asks met the lagging index (the new user missing from the counted walk)
    expect(askedWithin, 'asked inside the lag').toBeLessThan(indexLagMs);
    expect(insideLag.counted.total, 'the index lagged').toBe(before);
    // Once the lag has passed: the reference, asked twice (both queries, whatever the first
    // shows), then every page
    await lagPassed(workspaceId);
    for (const query of [deep, counted]) {
      for (const ask of ['after the lag', 'again']) {
        expect
          .soft(await served(workspaceId, query), `${ask}: ${JSON.stringify(query)}`)
          .toEqual(expected(records, query));
      }
    }
    for (const query of [deep, counted]) await walkedWhole(workspaceId, records, query);
  }, 60_000);

  // A walk is no snapshot: a record whose entry moves ahead of the walk between two of its
  // Queries (here: renamed from the list's start to its middle) is met again. Index lag aside:
  // DynamoDB Local shows it too, and DynamoDB between a page's Queries. The walk skips an id it
  // met (list-scan.ts), so the page holds it once.
  it('a record renamed ahead of a walk while it reads: the page holds it once', async () => {
    // Prepare: 12 users of one status
    const workspaceId = randomUUID();
    const records: PrincipalRecord[] = [];
    for (let i = 1; i <= 12; i++) {
      const record = {
        ...recordOfSeed(workspaceId, {
          first: 'Ida',
          last: 'Kern',
          domain: 'acme.example',
          status: 'ACTIVE',
          roles: ['technician'],
          created: 0,
          updated: 0,
        }),
        lastname: `Kern ${i}`,
      };
      await write(workspaceId, undefined, record);
      records.push(record);
    }

    // Act: one user renamed back and forth between the start and the middle of the last-name
    // order (and between statuses), while two readers ask the whole list on one page (4 or more
    // Queries of 3 entries per walk), until a page holds someone twice or 10 s have passed
    let mover = records[5] as PrincipalRecord;
    const doubled: string[] = [];
    const until = Date.now() + 10_000;
    let broke: unknown;
    const going = () => broke === undefined && doubled.length === 0 && Date.now() < until;
    const moving = async () => {
      for (let n = 0; going(); n++) {
        const after = {
          ...mover,
          lastname: n % 2 === 0 ? 'Kern 6a' : 'Aal',
          status: n % 3 === 0 ? 'BLOCKED' : 'ACTIVE',
          lock_version: mover.lock_version + 1,
        } as PrincipalRecord;
        await write(workspaceId, mover, after);
        mover = after;
        await sleep(15);
      }
    };
    const whole = { order: [{ field: 'last_name', direction: 'asc' }], page: 0, size: 13 } as Query;
    const reading = async () => {
      while (going()) {
        const { ids } = await served(workspaceId, whole);
        if (twice(ids).length > 0) doubled.push(JSON.stringify(ids));
      }
    };
    const stopsAll = (work: Promise<void>) =>
      work.catch((error: unknown) => {
        broke ??= error;
      });
    await Promise.all([stopsAll(moving()), stopsAll(reading()), stopsAll(reading())]);

    // Assess (a harness failure is not the failure expected here: the test then passes, and
    // `.fails` reports it)
    if (broke) {
      console.error('the scenario broke before it could look:', broke);
      return;
    }
    expect(doubled, 'pages holding a record twice').toEqual([]);
  }, 60_000);
});
