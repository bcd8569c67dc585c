import { describe, expect, it } from 'vitest';
import { type EtaStop, etasMoved, stopEtas } from './eta.ts';

const t0 = Date.parse('2026-06-16T08:00:00Z');
const place = (km: number) => ({ latitude: 52.5, longitude: 13.4 + km / 68 });
/** A straight road: a minute per kilometre of longitude step. */
const legSeconds = (a: { longitude: number }, b: { longitude: number }) =>
  Math.abs(b.longitude - a.longitude) * 68 * 60;

const stops: EtaStop[] = [
  { caseId: 'a', location: place(10), durationS: 1800 },
  { caseId: 'b', location: place(20), durationS: 3600, windowStart: t0 + 2 * 3600_000 },
  { caseId: 'c', location: place(25), durationS: 600, windowEnd: t0 + 3 * 3600_000 },
];

describe('Function: stopEtas', () => {
  it('chains travel and visits from the last position, waiting for a window to open', () => {
    const etas = stopEtas({ ...place(0), at: t0 }, t0, stops, legSeconds);
    // a: 10 min away; b: a's 30 min + 10 min drive = 08:50, but its window opens at 10:00.
    expect(etas.map((stop) => new Date(stop.eta).toISOString().slice(11, 16))).toEqual([
      '08:10',
      '08:50',
      '11:05',
    ]);
  });

  it('marks a stop late by how far its ETA passes its window end', () => {
    const etas = stopEtas({ ...place(0), at: t0 }, t0, stops, legSeconds);
    expect(etas[2]).toMatchObject({ caseId: 'c', lateByS: 300 });
    expect(etas[0]?.lateByS).toBeUndefined();
  });

  it('counts a stop the technician is at from the arrival, and never plans in the past', () => {
    const now = t0 + 3600_000;
    const etas = stopEtas(
      { ...place(10), at: t0 },
      now,
      [{ ...(stops[0] as EtaStop), arrivedAt: t0 }, stops[2] as EtaStop],
      legSeconds,
    );
    expect(etas[0]?.eta).toBe(t0);
    // Its visit ended on paper at 08:30; it is 09:00 now: the next leg starts now.
    expect(etas[1]?.eta).toBe(now + 15 * 60_000);
  });
});

describe('Function: etasMoved', () => {
  it('is news when a stop moves by more than 5 minutes or becomes late, not for a smaller drift', () => {
    const base = [{ caseId: 'a', eta: t0 }];
    expect(etasMoved(base, [{ caseId: 'a', eta: t0 + 4 * 60_000 }])).toBe(false);
    expect(etasMoved(base, [{ caseId: 'a', eta: t0 + 6 * 60_000 }])).toBe(true);
    expect(etasMoved(base, [{ caseId: 'a', eta: t0 + 60_000, lateByS: 60 }])).toBe(true);
  });
});
