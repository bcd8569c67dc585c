import { describe, expect, it } from 'vitest';
import {
  atRiskLeadMs,
  type ServiceLevelFields,
  slaMoments,
  slaStatusAt,
  withServiceLevel,
} from './case-service-level.ts';

const due = '2026-03-04T14:00:00.000Z';
const dueMs = Date.parse(due);
const minute = 60_000;

describe('Function: slaStatusAt', () => {
  describe('an unfinished case', () => {
    it.each([
      {
        title: 'ON_TRACK more than the lead before due_by',
        now: dueMs - atRiskLeadMs - minute,
        sla: 'ON_TRACK',
      },
      { title: 'AT_RISK exactly the lead before due_by', now: dueMs - atRiskLeadMs, sla: 'AT_RISK' },
      { title: 'AT_RISK within the lead', now: dueMs - minute, sla: 'AT_RISK' },
      {
        title: 'BREACHED at due_by itself (a case due at 14:00 is breached at 14:00)',
        now: dueMs,
        sla: 'BREACHED',
      },
      { title: 'BREACHED after due_by', now: dueMs + 3 * minute, sla: 'BREACHED' },
    ])('is $title', ({ now, sla }) => {
      expect(slaStatusAt({ status: 'SCHEDULED', due_by: due }, now)).toBe(sla);
    });

    it.each(['NEW', 'SCHEDULED', 'IN_PROGRESS', 'ON_HOLD'] as const)('counts %s as unfinished', (status) => {
      expect(slaStatusAt({ status, due_by: due }, dueMs)).toBe('BREACHED');
    });

    it('is AT_RISK long before due_by when its scheduled window ends after due_by', () => {
      const record = { status: 'SCHEDULED' as const, due_by: due, scheduled_end: '2026-03-04T15:00:00.000Z' };
      expect(slaStatusAt(record, dueMs - 24 * 60 * minute)).toBe('AT_RISK');
    });

    it('stays ON_TRACK when its scheduled window ends exactly at due_by', () => {
      const record = { status: 'SCHEDULED' as const, due_by: due, scheduled_end: due };
      expect(slaStatusAt(record, dueMs - 24 * 60 * minute)).toBe('ON_TRACK');
    });

    it('is judged again from now when it is reopened (a BREACHED case given a later due_by)', () => {
      const before: ServiceLevelFields = { status: 'IN_PROGRESS', due_by: due, sla_status: 'BREACHED' };
      const later = '2026-03-05T14:00:00.000Z';
      expect(slaStatusAt({ status: 'IN_PROGRESS', due_by: later }, dueMs + minute, before)).toBe('ON_TRACK');
    });
  });

  describe('a case without due_by', () => {
    it.each(['NEW', 'DONE'] as const)('has no sla_status (%s)', (status) => {
      expect(slaStatusAt({ status }, dueMs)).toBeUndefined();
    });
  });

  describe('a finished case', () => {
    it.each([
      {
        title: 'ON_TRACK (met) when finished before due_by',
        status: 'DONE' as const,
        now: dueMs - minute,
        sla: 'ON_TRACK',
      },
      {
        title: 'BREACHED when finished at or after due_by',
        status: 'DONE' as const,
        now: dueMs,
        sla: 'BREACHED',
      },
      {
        title: 'ON_TRACK when cancelled before due_by',
        status: 'CANCELLED' as const,
        now: dueMs - minute,
        sla: 'ON_TRACK',
      },
    ])('is $title', ({ status, now, sla }) => {
      const before: ServiceLevelFields = { status: 'IN_PROGRESS', due_by: due, sla_status: 'AT_RISK' };
      expect(slaStatusAt({ status, due_by: due }, now, before)).toBe(sla);
    });

    it('keeps a met commitment once due_by has passed', () => {
      const before: ServiceLevelFields = { status: 'DONE', due_by: due, sla_status: 'ON_TRACK' };
      expect(slaStatusAt({ status: 'DONE', due_by: due }, dueMs + 60 * minute, before)).toBe('ON_TRACK');
    });

    it('stays BREACHED when it was breached before it was finished', () => {
      const before: ServiceLevelFields = { status: 'ON_HOLD', due_by: due, sla_status: 'BREACHED' };
      expect(slaStatusAt({ status: 'DONE', due_by: due }, dueMs + minute, before)).toBe('BREACHED');
    });

    it('is judged at the write that moves its due_by', () => {
      const before: ServiceLevelFields = { status: 'DONE', due_by: due, sla_status: 'BREACHED' };
      const later = '2026-03-05T14:00:00.000Z';
      expect(slaStatusAt({ status: 'DONE', due_by: later }, dueMs + minute, before)).toBe('ON_TRACK');
    });
  });
});

describe('Function: withServiceLevel', () => {
  it('removes sla_status when due_by is cleared', () => {
    const record: ServiceLevelFields = { status: 'NEW', sla_status: 'BREACHED' };
    expect(withServiceLevel(record, dueMs)).toEqual({ status: 'NEW' });
  });
});

describe('Function: slaMoments', () => {
  it('names the at-risk moment and the breach of an unfinished case', () => {
    expect(slaMoments({ status: 'NEW', due_by: due })).toEqual([
      { kind: 'AT_RISK', at: dueMs - atRiskLeadMs },
      { kind: 'BREACHED', at: dueMs },
    ]);
  });

  it.each([
    { title: 'a finished case', record: { status: 'DONE' as const, due_by: due } },
    { title: 'a case without due_by', record: { status: 'NEW' as const } },
    { title: 'no case', record: undefined },
  ])('names none for $title', ({ record }) => {
    expect(slaMoments(record)).toEqual([]);
  });
});
