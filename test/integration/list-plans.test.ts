/**
 * Equivalence of the list plans (shared/data/list-plan.ts): over random collections of users and
 * random queries (search words of every selectivity, status segments, a role filter, one or two
 * sort keys in either direction, pages and sizes), every page the data layer serves equals the
 * reference answer computed here from the records themselves: the same items in the same order,
 * the same total and whether more follow. Each query is asked twice (the second may start at a
 * kept page boundary and take the kept total, list-cache.ts), then under another plan (which
 * starts from what the first kept), then some records change and every
 * query is asked again: nothing kept before the change may show. The walk reads 3 entries per
 * Query and the search probe holds 1 to 8 candidates, so plans span many index pages and a search
 * takes every plan (the planner's choice, or one forced): its matches, the walk of the order, and
 * a walk that gives up for the matches.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PrincipalRecord } from '../../shared/data/directory.store.ts';
import { fields, instant, roleNames, statuses, type UserSeed, userArb } from '../support/user-seeds.ts';

type Lists = {
  userList: typeof import('../../shared/data/directory-lists.ts').userList;
  userTokens: typeof import('../../shared/data/directory-lists.ts').userTokens;
  listPage: typeof import('../../shared/data/list-read.ts').listPage;
  comparatorOf: typeof import('../../shared/data/list-read.ts').comparatorOf;
  indexedItem: typeof import('../../shared/data/list-index.ts').indexedItem;
  listWrites: typeof import('../../shared/data/list-index.ts').listWrites;
  transactWrite: typeof import('../../shared/data/table.ts').transactWrite;
  recordOf: typeof import('../../shared/data/table.ts').recordOf;
  collectionPk: typeof import('../../shared/data/keys.ts').collectionPk;
  workspaceScope: typeof import('../../shared/data/list-patterns.ts').workspaceScope;
  searchWords: typeof import('../../shared/data/list-patterns.ts').searchWords;
};
let lists: Lists;
const saved = { ...process.env };

beforeAll(async () => {
  process.env.FSM_DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
  process.env.FSM_LIST_QUERY_MAX = '3';
  // DynamoDB Local updates its indexes with the write: what a walk learns may be kept at once.
  process.env.FSM_LIST_INDEX_LAG_MS = '0';
  const { resetConfig } = await import('../../shared/config.ts');
  resetConfig();
  lists = {
    ...(await import('../../shared/data/directory-lists.ts')),
    ...(await import('../../shared/data/list-read.ts')),
    ...(await import('../../shared/data/list-index.ts')),
    ...(await import('../../shared/data/table.ts')),
    ...(await import('../../shared/data/keys.ts')),
    ...(await import('../../shared/data/list-patterns.ts')),
  };
});

afterAll(() => {
  process.env = saved;
});

const queryArb = fc.record({
  /** Search: none, vocabulary words, prefixes of them, a word no one has, or two words. */
  search: fc.option(
    fc.oneof(
      fc.constantFrom('a', 'an', 'anna', 'b', 'brandt', 'acme', 'example', 'ida', '10', 'zo', 'nobody'),
      fc.constantFrom('anna acme', 'b example', 'ida 9', 'mu brandt', 'z north'),
    ),
    { nil: undefined },
  ),
  segments: fc.option(fc.subarray([...statuses], { minLength: 1 }), { nil: undefined }),
  role: fc.option(fc.constantFrom(...roleNames), { nil: undefined }),
  /** The role filter's total from its counters (as users' lists ask): statuses without one are not walked. */
  counted: fc.boolean(),
  order: fc.array(
    fc.record({
      field: fc.constantFrom(...fields),
      direction: fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
    }),
    { minLength: 1, maxLength: 2 },
  ),
  page: fc.nat(6),
  size: fc.integer({ min: 1, max: 5 }),
  probe: fc.integer({ min: 1, max: 8 }),
  /** The planner's own choice, or one plan forced (FSM_LIST_PLAN). */
  plan: fc.constantFrom('planner', 'walk', 'matches'),
});
type Query = typeof queryArb extends fc.Arbitrary<infer T> ? T : never;

function recordOfSeed(workspaceId: string, seed: UserSeed, i: number): PrincipalRecord {
  return {
    id: `0190${String(i).padStart(4, '0')}-0000-7000-8000-${randomUUID().slice(-12)}`,
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

async function write(workspaceId: string, before: PrincipalRecord | undefined, after: PrincipalRecord) {
  const { userList, indexedItem, listWrites, transactWrite, recordOf, collectionPk, workspaceScope } = lists;
  const scope = workspaceScope(workspaceId);
  const key = { pk: collectionPk(workspaceId, 'PRINCIPAL'), sk: after.id };
  const record = indexedItem(userList, scope, after);
  const stored = before
    ? (recordOf(indexedItem(userList, scope, before)) as unknown as PrincipalRecord)
    : undefined;
  await transactWrite([
    before
      ? { kind: 'replace', key, entity: 'principal', record, expectedVersion: before.lock_version }
      : { kind: 'create', key, entity: 'principal', record },
    ...listWrites(userList, scope, stored, after),
  ]);
}

/** The answer computed from the records themselves. */
function reference(records: PrincipalRecord[], query: Query) {
  const { userList, userTokens, comparatorOf, searchWords } = lists;
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
  };
}

async function served(workspaceId: string, query: Query) {
  const { userList, listPage, workspaceScope, searchWords } = lists;
  process.env.FSM_LIST_PROBE = String(query.probe);
  if (query.plan === 'planner') delete process.env.FSM_LIST_PLAN;
  else process.env.FSM_LIST_PLAN = query.plan;
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

describe('List plans', () => {
  it('serve exactly the reference answer, before and after the list changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(userArb, { minLength: 0, maxLength: 40 }),
        fc.array(queryArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), userArb), { maxLength: 6 }),
        async (seeds, queries, changes) => {
          // Prepare
          const workspaceId = randomUUID();
          const records = seeds.map((seed, i) => recordOfSeed(workspaceId, seed, i));
          for (const record of records) await write(workspaceId, undefined, record);

          // Act, Assess: each query twice (the second may use what the first kept), then its
          // next page (a step from a kept boundary)
          for (const query of queries) {
            const expected = reference(records, query);
            expect(await served(workspaceId, query), JSON.stringify(query)).toEqual(expected);
            expect(await served(workspaceId, query), `again: ${JSON.stringify(query)}`).toEqual(expected);
            // Another plan from what this one kept (a first match, page starts, the count)
            const other = { ...query, plan: query.plan === 'walk' ? 'matches' : 'walk' } as Query;
            expect(await served(workspaceId, other), `other: ${JSON.stringify(other)}`).toEqual(expected);
            const next = { ...query, page: query.page + 1 };
            expect(await served(workspaceId, next), `next: ${JSON.stringify(query)}`).toEqual(
              reference(records, next),
            );
          }
          // Act: some records change (names, status, roles, times)
          for (const [at, seed] of changes) {
            if (records.length === 0) break;
            const index = at % records.length;
            const before = records[index] as PrincipalRecord;
            const changed = {
              ...recordOfSeed(workspaceId, seed, index),
              id: before.id,
              lock_version: before.lock_version + 1,
            };
            await write(workspaceId, before, changed);
            records[index] = changed;
          }
          // Assess: nothing kept before the change shows
          for (const query of queries) {
            expect(await served(workspaceId, query), `changed: ${JSON.stringify(query)}`).toEqual(
              reference(records, query),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 600_000);
});
