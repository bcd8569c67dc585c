import { describe, expect, it } from 'vitest';
import type { PrincipalRecord } from './directory.store.ts';
import { userList, userTokens } from './directory-lists.ts';
import { listVersion } from './keys.ts';
import { counterNames, indexedItem, listWrites } from './list-index.ts';
import { workspaceScope } from './list-patterns.ts';
import { mergedCounterWrites, recordOf, type TableWrite } from './table.ts';

const scope = workspaceScope('w1');

function user(overrides: Partial<PrincipalRecord> = {}): PrincipalRecord {
  return {
    id: 'u1',
    workspace_id: 'w1',
    kind: 'user',
    status: 'ACTIVE',
    roles: ['technician'],
    email: 'lukas.brandt@acme.example',
    firstname: 'Lukas',
    lastname: 'Brandt',
    created_at: '2026-03-02T08:15:00.000Z',
    updated_at: '2026-03-02T08:15:00.000Z',
    lock_version: 0,
    ...overrides,
  };
}

/** A record as read back from its stored item (so it counts as indexed). */
function stored(record: PrincipalRecord): PrincipalRecord {
  return recordOf(indexedItem(userList, scope, record)) as unknown as PrincipalRecord;
}

const counterChanges = (writes: TableWrite[]) =>
  Object.fromEntries(writes.flatMap((write) => (write.kind === 'add' ? [[write.key.sk, write.by]] : [])));

describe('Function: indexedItem', () => {
  it('gives a user the key of every order, in the partition of its status', () => {
    // Act
    const item = indexedItem(userList, scope, user());

    // Assess
    expect(item).toMatchObject({
      list_v: listVersion,
      gsi1pk: 'T#w1#L#USER#ACTIVE',
      gsi1sk: 'brandt\u0001lukas\u0001u1',
      gsi2sk: 'lukas\u0001brandt\u0001u1',
      gsi3sk: 'lukas.brandt@acme.example\u0001u1',
      gsi4sk: '2026-03-02T08:15:00.000Z\u0001u1',
    });
  });

  it('lists no service account, yet marks it current', () => {
    // Act
    const item = indexedItem(userList, scope, user({ kind: 'service_account' }));

    // Assess
    expect(item.list_v).toBe(listVersion);
    expect(item).not.toHaveProperty('gsi1pk');
    expect(counterNames(userList, user({ kind: 'service_account' }))).toEqual([]);
  });
});

describe('Function: listWrites', () => {
  it('counts a created user in all, its status and its roles, with its search tokens', () => {
    // Act
    const writes = listWrites(userList, scope, undefined, user({ roles: ['technician', 'driver'] }));

    // Assess
    expect(counterChanges(writes)).toEqual({
      'USER#all': 1,
      'USER#ACTIVE': 1,
      'USER#ACTIVE#role=technician': 1,
      'USER#ACTIVE#role=driver': 1,
      'USER#rev': 1,
    });
    const tokens = writes
      .filter((write) => write.kind === 'put')
      .map((write) => write.key.sk.split('\u0001')[0]);
    expect(tokens.sort()).toEqual([...userTokens(user())].sort());
  });

  it('moves a user between the counters of its old and new status, and nothing else', () => {
    // Prepare
    const before = stored(user());

    // Act
    const writes = listWrites(userList, scope, before, { ...before, status: 'INACTIVE' });

    // Assess
    expect(counterChanges(writes)).toEqual({
      'USER#ACTIVE': -1,
      'USER#INACTIVE': 1,
      'USER#ACTIVE#role=technician': -1,
      'USER#INACTIVE#role=technician': 1,
      'USER#rev': 1,
    });
  });

  it('counts a record written before the indexes existed once, on its first write', () => {
    // Prepare: read from an item without index attributes
    const legacy = recordOf({ ...user() }) as unknown as PrincipalRecord;

    // Act
    const writes = listWrites(userList, scope, legacy, { ...legacy, firstname: 'Luke' });

    // Assess
    expect(counterChanges(writes)).toEqual({
      'USER#all': 1,
      'USER#ACTIVE': 1,
      'USER#ACTIVE#role=technician': 1,
      'USER#rev': 1,
    });
  });

  it('takes a deleted user out of its counters and drops its tokens', () => {
    // Prepare
    const before = stored(user());

    // Act
    const writes = listWrites(userList, scope, before, undefined);

    // Assess
    expect(counterChanges(writes)).toEqual({
      'USER#all': -1,
      'USER#ACTIVE': -1,
      'USER#ACTIVE#role=technician': -1,
      'USER#rev': 1,
    });
    expect(writes.filter((write) => write.kind === 'discard')).toHaveLength(userTokens(before).length);
  });

  it('moves the list revision whenever what its entries hold changes', () => {
    // Prepare
    const before = stored(user());

    // Act
    const writes = listWrites(userList, scope, before, { ...before, updated_at: '2026-03-03T08:15:00.000Z' });

    // Assess
    expect(counterChanges(writes)).toEqual({ 'USER#rev': 1 });
  });

  it('writes no tokens, nor a revision, when neither they nor what they carry changed', () => {
    // Prepare
    const before = stored(user());

    // Act
    const writes = listWrites(userList, scope, before, { ...before, phone_number: '+493012345678' });

    // Assess
    expect(writes).toEqual([]);
  });
});

describe('Function: userTokens', () => {
  it('keeps at most 16 tokens, the whole names first, so a user always fits its transaction', () => {
    // Act
    const tokens = userTokens({
      firstname: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '),
      lastname: 'Brandt',
      email: 'l@acme.example',
    });

    // Assess
    expect(tokens).toHaveLength(16);
    expect(tokens.slice(1, 3)).toEqual(['brandt', 'l@acme.example']);
  });

  it('holds every word of the names and the address, each whole name and the whole address', () => {
    expect(
      userTokens({ firstname: 'Anna-Lena', lastname: 'van der Berg', email: 'a.vdb@acme.example' }).sort(),
    ).toEqual(
      [
        'anna',
        'lena',
        'anna-lena',
        'van',
        'der',
        'berg',
        'van der berg',
        'a',
        'vdb',
        'acme',
        'example',
        'a.vdb@acme.example',
      ].sort(),
    );
  });
});

describe('Function: mergedCounterWrites', () => {
  it('merges changes of one counter and drops those that cancel out', () => {
    // Prepare
    const add = (sk: string, by: number): TableWrite => ({
      kind: 'add',
      key: { pk: 'T#w1#COUNT', sk },
      entity: 'counter',
      attribute: 'count',
      by,
    });

    // Act
    const merged = mergedCounterWrites([
      add('USER#ACTIVE#role=owner', 1),
      add('USER#ACTIVE#role=owner', -1),
      add('USER#all', 1),
      add('USER#all', 2),
    ]);

    // Assess
    expect(merged).toEqual([add('USER#all', 3)]);
  });
});
