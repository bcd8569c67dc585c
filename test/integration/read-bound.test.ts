/**
 * The read bound of a list request (shared/data/list-read.ts `readBound`): no request reads more
 * index entries than FSM_LIST_READ_BOUND. A total that only a count could give is then estimated
 * (and the response says so), a page the bound does not reach is refused with a 422 naming the
 * page, and below the bound nothing changes: exact totals. Against DynamoDB Local, in-process, with
 * a tiny bound and 3 entries per Query so the walks span many calls.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PrincipalRecord } from '../../shared/data/directory.store.ts';

let lists: typeof import('../../shared/data/directory-lists.ts') &
  typeof import('../../shared/data/list-read.ts') &
  typeof import('../../shared/data/list-index.ts') &
  typeof import('../../shared/data/table.ts') &
  typeof import('../../shared/data/keys.ts') &
  typeof import('../../shared/data/list-patterns.ts') &
  typeof import('../../shared/data/call-cost.ts') &
  typeof import('../../shared/data/data-error.ts');
const saved = { ...process.env };
const workspaceId = randomUUID();
/** 40 users: 39 technicians, and one admin whose last name sorts last. */
const users: PrincipalRecord[] = [];

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
    ...(await import('../../shared/data/call-cost.ts')),
    ...(await import('../../shared/data/data-error.ts')),
  };
  const { userList, indexedItem, listWrites, transactWrite, collectionPk, workspaceScope } = lists;
  const scope = workspaceScope(workspaceId);
  for (let i = 0; i < 40; i++) {
    const admin = i === 39;
    const user = {
      id: `0190${String(i).padStart(4, '0')}-0000-7000-8000-${randomUUID().slice(-12)}`,
      workspace_id: workspaceId,
      kind: 'user',
      status: 'ACTIVE',
      roles: [admin ? 'admin' : 'technician'],
      firstname: 'Kim',
      lastname: admin ? 'Zander' : `Bauer ${String(i).padStart(2, '0')}`,
      email: `kim.${i}@bound.example`,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      updated_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      lock_version: 0,
    } as PrincipalRecord;
    users.push(user);
    await transactWrite([
      {
        kind: 'create',
        key: { pk: collectionPk(workspaceId, 'PRINCIPAL'), sk: user.id },
        entity: 'principal',
        record: indexedItem(userList, scope, user),
      },
      ...listWrites(userList, scope, undefined, user),
    ]);
  }
});

afterAll(() => {
  process.env = saved;
});

/** A page of users having `role`, sorted by last name: its total is a count (no counter asked). */
async function byRole(role: string, page: number, size: number, direction: 'asc' | 'desc' = 'asc') {
  const { userList, listPage, workspaceScope, inRequestCallCost, activeCallCost } = lists;
  return inRequestCallCost(async () => {
    const served = await listPage(userList, {
      scope: workspaceScope(workspaceId),
      order: [{ field: 'last_name', direction }],
      page,
      size,
      segments: ['ACTIVE'],
      where: (entry) => ((entry.roles as string[]) ?? []).includes(role),
      filterKey: `role=${role}`,
    });
    return {
      ...served,
      ids: served.items.map((item) => String(item.id)),
      estimated: activeCallCost()?.totalEstimated === true,
    };
  });
}

/** A search, sorted by last name, total counted (its first request). */
async function searched(words: string[], page: number, size: number) {
  const { userList, listPage, workspaceScope, inRequestCallCost, activeCallCost } = lists;
  return inRequestCallCost(async () => {
    const served = await listPage(userList, {
      scope: workspaceScope(workspaceId),
      order: [{ field: 'last_name', direction: 'asc' }],
      page,
      size,
      search: words,
    });
    return {
      ...served,
      ids: served.items.map((item) => String(item.id)),
      estimated: activeCallCost()?.totalEstimated === true,
    };
  });
}

describe('The read bound of a list request', () => {
  it('serves a search whose word matches more tokens than the bound from a bounded walk, its total estimated', async () => {
    process.env.FSM_LIST_READ_BOUND = '12';
    // Every user has tokens starting with "kim" (first name, e-mail): 80 token entries.
    const page = await searched(['kim'], 0, 5);
    expect(page.ids).toEqual(users.slice(0, 5).map((user) => user.id));
    expect(page.total).toBe(40);
    expect(page.estimated).toBe(true);
    process.env.FSM_LIST_READ_BOUND = '1000';
    const exact = await searched(['kim'], 0, 5);
    expect(exact.ids).toEqual(page.ids);
    expect(exact.total).toBe(40);
    expect(exact.estimated).toBe(false);
  });

  it('counts exactly below the bound', async () => {
    process.env.FSM_LIST_READ_BOUND = '1000';
    const page = await byRole('technician', 0, 5);
    expect(page.ids).toEqual(users.slice(0, 5).map((user) => user.id));
    expect(page.total).toBe(39);
    expect(page.estimated).toBe(false);
  });

  it('serves the page and estimates the total when counting would read past the bound, and says so', async () => {
    process.env.FSM_LIST_READ_BOUND = '12';
    // Last names descending (a query not counted before: the count above is kept for its own).
    const page = await byRole('technician', 1, 5, 'desc');
    // The page itself is exact…
    expect(page.ids).toEqual(
      users
        .slice(29, 34)
        .reverse()
        .map((user) => user.id),
    );
    // …the total scaled from the 12 entries read: 11 of 12 matched (the admin first), 40 in ACTIVE.
    expect(page.total).toBe(37);
    expect(page.hasMore).toBe(true);
    expect(page.estimated).toBe(true);
    // Asked again: an estimate is never kept as if it were the count.
    const again = await byRole('technician', 1, 5, 'desc');
    expect(again.ids).toEqual(page.ids);
    expect(again.estimated).toBe(true);
  });

  it('refuses a page it cannot fill within the bound, which a larger bound serves', async () => {
    process.env.FSM_LIST_READ_BOUND = '12';
    const { countingDynamoCalls, DataError } = lists;
    const attempt = countingDynamoCalls(() => byRole('admin', 0, 5));
    await expect(attempt).rejects.toBeInstanceOf(DataError);
    await expect(attempt).rejects.toMatchObject({ code: 'too-costly' });
    // With the bound lifted, the one admin is found (the page was legitimately there).
    process.env.FSM_LIST_READ_BOUND = '1000';
    const found = await byRole('admin', 0, 5);
    expect(found.ids).toEqual([users[39]?.id]);
    expect(found.total).toBe(1);
  });
});
