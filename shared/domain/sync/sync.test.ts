import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../events/domain-event.ts';
import { mergeFields } from './field-merge.ts';
import { pushOrder } from './mutation-order.ts';
import { openCursor, type SyncCursor, sealCursor, tombstoneHorizonMs } from './sync-cursor.ts';
import { SyncPage } from './sync-page.ts';
import { syncSubjectOf } from './sync-subject.ts';
import { inWindow, windowMove, windowOn } from './sync-window.ts';

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

describe('the window of a scope', () => {
  it('holds the days from 7 back to 14 ahead, both ends included', () => {
    const window = windowOn('2026-11-29');
    expect(window).toEqual({ from: '2026-11-22', to: '2026-12-13' });
    expect(
      ['2026-11-21', '2026-11-22', '2026-12-13', '2026-12-14'].map((day) => inWindow(window, day)),
    ).toEqual([false, true, true, false]);
  });

  it('moves by the days that left and the days that entered, or the whole windows when they do not meet', () => {
    expect(windowMove(windowOn('2026-11-26'), windowOn('2026-11-29'))).toEqual({
      left: { from: '2026-11-19', to: '2026-11-21' },
      entered: { from: '2026-12-11', to: '2026-12-13' },
    });
    expect(windowMove(windowOn('2026-10-01'), windowOn('2026-11-29'))).toEqual({
      left: windowOn('2026-10-01'),
      entered: windowOn('2026-11-29'),
    });
    expect(windowMove(windowOn('2026-11-29'), windowOn('2026-11-29'))).toEqual({});
  });
});

const event = (
  type: string,
  object: Record<string, unknown>,
  previous?: Record<string, unknown>,
): DomainEvent => ({
  id: 'e1',
  type,
  occurred_at: '2026-11-29T08:00:00Z',
  workspace_id: 'ws-1',
  resource: { type: type.split('.')[0] as string, id: String(object.id) },
  data: { object, ...(previous ? { previous_attributes: previous } : {}) },
});

describe('what a change means to the sync feeds', () => {
  it('names who held a reassigned and rescheduled case before and who holds it after, and the fields it set', () => {
    const subject = syncSubjectOf(
      event(
        'case.updated',
        { id: 'c1', assignee_id: 'tom', scheduled_start: '2026-12-01T09:00:00Z', lock_version: 3 },
        { assignee_id: 'tina', scheduled_start: '2026-11-30T09:00:00Z' },
      ),
    );
    expect(subject).toMatchObject({
      type: 'case',
      id: 'c1',
      version: 3,
      deleted: false,
      before: { userId: 'tina', day: '2026-11-30' },
      after: { userId: 'tom', day: '2026-12-01' },
      changed: ['assignee_id', 'scheduled_start'],
    });
  });

  it('holds nothing for an unassigned or unscheduled case, and nothing after a delete', () => {
    const unassigned = syncSubjectOf(
      event(
        'case.updated',
        { id: 'c1', scheduled_start: '2026-12-01T09:00:00Z', lock_version: 1 },
        { assignee_id: 'tina' },
      ),
    );
    const deleted = syncSubjectOf(
      event('case.deleted', {
        id: 'c1',
        assignee_id: 'tina',
        scheduled_start: '2026-12-01T09:00:00Z',
        lock_version: 1,
      }),
    );
    expect(unassigned?.before).toEqual({ userId: 'tina', day: '2026-12-01' });
    expect(unassigned?.after).toBeUndefined();
    expect(deleted).toMatchObject({ deleted: true, before: { userId: 'tina' } });
    expect(deleted?.after).toBeUndefined();
  });

  it('ties a comment and its reactions to its case, and ignores what sync does not keep', () => {
    const reaction = syncSubjectOf(
      event('comment.reaction', { id: 'r', comment_id: 'm1', target_type: 'core:case', target_id: 'c9' }),
    );
    expect(reaction).toMatchObject({ type: 'comment', id: 'm1', caseId: 'c9', version: -1 });
    expect(syncSubjectOf(event('case.external_id_updated', { id: 'c1' }))).toBeUndefined();
    expect(syncSubjectOf(event('vehicle.updated', { id: 'v1' }))).toBeUndefined();
  });
});

describe('a page of a pull', () => {
  const change = (id: string, size = 10) => ({
    type: 'case',
    id,
    op: 'upsert' as const,
    data: { text: 'x'.repeat(size) },
  });

  it('stops at the limit of changes, keeping a group whole', () => {
    const page = new SyncPage(3);
    expect(page.add([change('a'), change('b')])).toBe(true);
    expect(page.add([change('c'), change('d')])).toBe(false);
    expect(page.changes.map((c) => c.id)).toEqual(['a', 'b']);
    expect(page.full).toBe(true);
  });

  it('stops before 1 MB, but always takes the first group so a pull moves on', () => {
    const page = new SyncPage(1000);
    expect(page.add([change('big', 2_000_000)])).toBe(true);
    expect(page.add([change('next')])).toBe(false);
    const budget = new SyncPage(1000);
    let added = 0;
    while (budget.add([change(String(added), 100_000)])) added += 1;
    expect(added).toBe(10);
  });
});
