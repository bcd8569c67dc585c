import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { instantOfId, windowErrors } from './case.service.ts';

const pointers = (errors: ReturnType<typeof windowErrors>) => errors.map((e) => [e.pointer, e.type]);

describe('Function: windowErrors', () => {
  it.each([
    { title: 'no window', start: undefined, end: undefined, errors: [] },
    {
      title: 'start before end',
      start: '2026-03-04T08:00:00.000Z',
      end: '2026-03-04T10:00:00.000Z',
      errors: [],
    },
    {
      title: 'start equal to end',
      start: '2026-03-04T08:00:00.000Z',
      end: '2026-03-04T08:00:00.000Z',
      errors: [['#/scheduled_end', 'field-invalid']],
    },
    {
      title: 'end before start',
      start: '2026-03-04T10:00:00.000Z',
      end: '2026-03-04T08:00:00.000Z',
      errors: [['#/scheduled_end', 'field-invalid']],
    },
    {
      title: 'a start alone',
      start: '2026-03-04T08:00:00.000Z',
      end: undefined,
      errors: [['#/scheduled_end', 'field-required']],
    },
    {
      title: 'an end alone',
      start: undefined,
      end: '2026-03-04T08:00:00.000Z',
      errors: [['#/scheduled_start', 'field-required']],
    },
  ])('reports $title', ({ start, end, errors }) => {
    expect(pointers(windowErrors({ scheduled_start: start, scheduled_end: end }))).toEqual(errors);
  });
});

describe('Function: instantOfId', () => {
  it('reads the millisecond a UUIDv7 was made, so ids and creation times sort alike', () => {
    // Prepare
    const before = Date.now();
    const id = uuidv7();
    const after = Date.now();

    // Act
    const instant = Date.parse(instantOfId(id));

    // Assess
    expect(instant).toBeGreaterThanOrEqual(before);
    expect(instant).toBeLessThanOrEqual(after + 1);
    expect(instantOfId('019cad9d-6b2a-7c31-8e4f-5a1b2c3d4e5f')).toBe(new Date(0x019cad9d6b2a).toISOString());
  });
});
