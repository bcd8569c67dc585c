import { describe, expect, it } from 'vitest';
import { canonicalStops, storedStops, withStopStatuses } from './tour-stops.ts';

describe('Function: storedStops', () => {
  const before = [
    {
      case_id: 'c1',
      status: 'DONE' as const,
      arrived_at: '2026-06-16T08:05:00Z',
      departed_at: '2026-06-16T08:50:00Z',
    },
    {
      case_id: 'c2',
      planned_arrival: '2026-06-16T09:00:00Z',
      status: 'EN_ROUTE' as const,
      eta: '2026-06-16T09:12:00Z',
    },
  ];

  it('keeps the status and live fields of a case listed again, whatever its new place and time', () => {
    const stops = storedStops(
      [{ case_id: 'C2', planned_arrival: '2026-06-16T10:00:00Z' }, { case_id: 'c1' }],
      before,
    );
    expect(stops).toEqual([
      {
        case_id: 'c2',
        planned_arrival: '2026-06-16T10:00:00Z',
        status: 'EN_ROUTE',
        eta: '2026-06-16T09:12:00Z',
      },
      {
        case_id: 'c1',
        status: 'DONE',
        arrived_at: '2026-06-16T08:05:00Z',
        departed_at: '2026-06-16T08:50:00Z',
      },
    ]);
  });

  it('makes a new stop PENDING and lets a write set a status', () => {
    expect(storedStops([{ case_id: 'c3' }, { case_id: 'c2', status: 'SKIPPED' }], before)).toEqual([
      { case_id: 'c3', status: 'PENDING' },
      { case_id: 'c2', status: 'SKIPPED', eta: '2026-06-16T09:12:00Z' },
    ]);
  });
});

describe('Functions: withStopStatuses, canonicalStops', () => {
  it('reads a stop stored before statuses as PENDING, and orders keys the same whoever wrote them', () => {
    const tour = { stops: [{ case_id: 'c1' }, { case_id: 'c2', status: 'DONE' as const }] };
    expect(withStopStatuses(tour as never)).toEqual({
      stops: [
        { case_id: 'c1', status: 'PENDING' },
        { case_id: 'c2', status: 'DONE' },
      ],
    });
    const written = canonicalStops([
      { status: 'ARRIVED', eta: 'x', case_id: 'c1', planned_arrival: 'p' } as never,
    ]);
    expect(JSON.stringify(written)).toBe(
      '[{"case_id":"c1","planned_arrival":"p","status":"ARRIVED","eta":"x"}]',
    );
  });
});
