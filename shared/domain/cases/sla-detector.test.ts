import { describe, expect, it } from 'vitest';
import type { Case } from './case.schema.ts';
import { movedWithinItsMinute } from './sla-detector.ts';

const aCase = (due_by: string | undefined, status: Case['status'] = 'SCHEDULED'): Case => ({
  id: 'c1',
  title: 'Boiler service',
  status,
  priority: 'NORMAL',
  ...(due_by ? { due_by } : {}),
  created_at: '2026-03-02T08:15:00.042Z',
  updated_at: '2026-03-02T08:15:00.042Z',
  lock_version: 1,
});

const entry = {
  workspace_id: 'w1',
  case_id: 'c1',
  kind: 'BREACHED' as const,
  at: '2026-03-04T14:00:10.000Z',
};

describe('Function: movedWithinItsMinute', () => {
  it.each([
    { title: 'its moment is still the one read', due: '2026-03-04T14:00:10.000Z', moved: false },
    {
      title: 'due_by moved within the minute (the item was put again)',
      due: '2026-03-04T14:00:40.000Z',
      moved: true,
    },
    { title: 'due_by moved to another minute (another item)', due: '2026-03-04T15:00:10.000Z', moved: false },
    { title: 'due_by was cleared', due: undefined, moved: false },
  ])('leaves the item when $title: $moved', ({ due, moved }) => {
    expect(movedWithinItsMinute(entry, aCase(due))).toBe(moved);
  });

  it('removes the item of a finished case, which has no moments', () => {
    expect(movedWithinItsMinute(entry, aCase('2026-03-04T14:00:40.000Z', 'DONE'))).toBe(false);
  });
});
