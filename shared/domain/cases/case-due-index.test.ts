import { describe, expect, it } from 'vitest';
import { dueIndexWrites, minuteOf } from './case-due-index.ts';
import { atRiskLeadMs } from './case-service-level.ts';

const ws = '019cad9d-0000-7000-8000-000000000001';
const id = '019cad9d-6b2a-7c31-8e4f-5a1b2c3d4e5f';
const now = Date.parse('2026-03-04T10:00:00.000Z');
const due = '2026-03-04T14:00:30.000Z';
const open = { id, status: 'SCHEDULED' as const, due_by: due };

const summary = (writes: ReturnType<typeof dueIndexWrites>) =>
  writes.map((write) => [write.kind, write.key.pk, write.key.sk]);

describe('Function: dueIndexWrites', () => {
  it('puts the at-risk moment and the breach of a new case due later, in the partitions of their minutes', () => {
    expect(summary(dueIndexWrites(ws, undefined, open, now))).toEqual([
      ['put', 'SLA_DUE#2026-03-04T12:00', `${ws}#${id}#AT_RISK`],
      ['put', 'SLA_DUE#2026-03-04T14:00', `${ws}#${id}#BREACHED`],
    ]);
  });

  it('writes nothing when a write leaves due_by and the finished state as they were', () => {
    expect(dueIndexWrites(ws, open, { ...open, status: 'IN_PROGRESS' }, now)).toEqual([]);
  });

  it('discards both moments when the case is finished, cleared of its due_by, or deleted', () => {
    for (const after of [
      { ...open, status: 'DONE' as const },
      { id, status: 'SCHEDULED' as const },
      undefined,
    ]) {
      expect(summary(dueIndexWrites(ws, open, after, now)).map(([kind]) => kind)).toEqual([
        'discard',
        'discard',
      ]);
    }
  });

  it('replaces a moment that moved within its minute with one put (a transaction names an item once)', () => {
    const moved = { ...open, due_by: '2026-03-04T14:00:50.000Z' };
    expect(summary(dueIndexWrites(ws, open, moved, now))).toEqual([
      ['put', 'SLA_DUE#2026-03-04T12:00', `${ws}#${id}#AT_RISK`],
      ['put', 'SLA_DUE#2026-03-04T14:00', `${ws}#${id}#BREACHED`],
    ]);
  });

  it('leaves out moments long past: the write itself judged them', () => {
    const pastDue = { ...open, due_by: '2026-03-04T09:00:00.000Z' };
    expect(dueIndexWrites(ws, undefined, pastDue, now)).toEqual([]);
  });

  it('keeps an item for seven days after its moment (TTL)', () => {
    const [atRisk] = dueIndexWrites(ws, undefined, open, now);
    const moment = Date.parse(due) - atRiskLeadMs;
    expect(atRisk?.kind === 'put' && atRisk.expiresAt).toBe(Math.ceil((moment + 7 * 86_400_000) / 1000));
    expect(minuteOf(moment)).toBe('2026-03-04T12:00');
  });
});
