import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { caseScopeOwners, feedEntries, ownerScope } from './feed-entries.ts';
import { mergeFields } from './field-merge.ts';
import { pushOrder } from './mutation-order.ts';
import { openCursor, type SyncCursor, sealCursor, tombstoneHorizonMs } from './sync-cursor.ts';

const key = randomBytes(32);
const caller = { workspaceId: 'ws-1', userId: 'user-1', installationId: 'phone-1' };
const cursor: SyncCursor = {
  ...caller,
  seq: 42,
  day: '2026-11-29',
  issuedAt: Date.parse('2026-11-29T08:00:00Z'),
};

describe('sync cursors', () => {
  it('opens a cursor it sealed, for the same caller, within the horizon', () => {
    const text = sealCursor(cursor, key);

    expect(openCursor(text, key, caller, cursor.issuedAt + 1000)).toEqual({ ok: cursor });
    expect(text).not.toContain('user-1');
  });

  it('refuses a forged, altered or foreign-keyed cursor as not this service’s', () => {
    const text = sealCursor(cursor, key);
    const [payload, signature] = text.split('.') as [string, string];
    const moved = Buffer.from(JSON.stringify({ ...cursor, seq: 1 })).toString('base64url');

    expect(openCursor(`${moved}.${signature}`, key, caller, cursor.issuedAt)).toHaveProperty('invalid');
    expect(openCursor(text, randomBytes(32), caller, cursor.issuedAt)).toHaveProperty('invalid');
    expect(openCursor(payload, key, caller, cursor.issuedAt)).toHaveProperty('invalid');
    expect(openCursor('', key, caller, cursor.issuedAt)).toHaveProperty('invalid');
  });

  it('asks for a full pull for a cursor of another user or installation, or past 30 days', () => {
    const text = sealCursor(cursor, key);

    expect(openCursor(text, key, { ...caller, userId: 'user-2' }, cursor.issuedAt)).toHaveProperty('resync');
    expect(openCursor(text, key, { ...caller, installationId: 'tablet' }, cursor.issuedAt)).toHaveProperty(
      'resync',
    );
    expect(openCursor(text, key, caller, cursor.issuedAt + tombstoneHorizonMs + 1)).toHaveProperty('resync');
  });
});

describe('the order of a push', () => {
  it('replays the ids applied before and applies the next ones in order', () => {
    expect(pushOrder(4, [3, 4, 5, 6])).toEqual({
      steps: [{ replay: 3 }, { replay: 4 }, { apply: 5 }, { apply: 6 }],
    });
    expect(pushOrder(0, [1])).toEqual({ steps: [{ apply: 1 }] });
  });

  it('refuses a gap, naming the last id applied, and applies nothing of the push', () => {
    expect(pushOrder(4, [6, 7])).toEqual({ gap: { lastMutationId: 4, next: 6 } });
    expect(pushOrder(4, [5, 7])).toEqual({ gap: { lastMutationId: 5, next: 7 } });
    expect(pushOrder(4, [5, 5])).toEqual({ gap: { lastMutationId: 5, next: 5 } });
  });
});

describe('merge by field', () => {
  const server = { status: 'IN_PROGRESS', notes: 'gate code 1234', duration: 'PT1H' };

  it('applies what only the device changed and keeps the server’s value of what both changed', () => {
    const merge = mergeFields(
      { notes: 'left the key with the neighbour', status: 'DONE', duration: 'PT1H' },
      server,
      new Set(['status']),
    );

    expect(merge.apply).toEqual({ notes: 'left the key with the neighbour' });
    expect(merge.conflicts).toEqual([{ field: 'status', yours: 'DONE', theirs: 'IN_PROGRESS' }]);
  });

  it('sees no conflict where both sides set the same value, nor in a field the server left alone', () => {
    const merge = mergeFields(
      { status: 'IN_PROGRESS', duration: 'PT2H' },
      server,
      new Set(['status', 'notes']),
    );

    expect(merge).toEqual({ apply: { duration: 'PT2H' }, conflicts: [] });
  });
});

describe('the feed entries of a change', () => {
  const users = (...ids: string[]) => new Set(ids);

  it('upserts for everyone holding the record after, and evicts for those who held it before only', () => {
    // Reassigned from Anna to Ben while Cleo drives the tour that holds it.
    const before = caseScopeOwners({ assignee_id: 'anna' }, ['cleo']);
    const after = caseScopeOwners({ assignee_id: 'ben' }, ['cleo']);

    expect(feedEntries(before, after, false)).toEqual([
      { userId: 'anna', op: 'evict' },
      { userId: 'ben', op: 'upsert' },
      { userId: 'cleo', op: 'upsert' },
    ]);
  });

  it('deletes for everyone whose scope held a deleted record, and writes nothing for a record nobody holds', () => {
    expect(feedEntries(users('anna', 'cleo'), users(), true)).toEqual([
      { userId: 'anna', op: 'delete' },
      { userId: 'cleo', op: 'delete' },
    ]);
    expect(feedEntries(users(), caseScopeOwners({ assignee_id: null }, []), false)).toEqual([]);
  });

  it('evicts an unassigned case and upserts a tour for its new driver', () => {
    expect(feedEntries(caseScopeOwners({ assignee_id: 'anna' }, []), caseScopeOwners({}, []), false)).toEqual(
      [{ userId: 'anna', op: 'evict' }],
    );
    expect(feedEntries(ownerScope('anna'), ownerScope('ben'), false)).toEqual([
      { userId: 'anna', op: 'evict' },
      { userId: 'ben', op: 'upsert' },
    ]);
  });
});
