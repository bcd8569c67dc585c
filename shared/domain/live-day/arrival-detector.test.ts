import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greatCircleMetres } from '../scheduling/travel.ts';
import {
  defaultDetectorSettings,
  exitRadius,
  judge,
  newVisit,
  type Position,
  type VisitChange,
} from './arrival-detector.ts';

const site = { latitude: 52.52, longitude: 13.405 };
const metresPerDegreeLat = 111_320;
const metresPerDegreeLon = metresPerDegreeLat * Math.cos((site.latitude * Math.PI) / 180);

/** A point `east`/`north` metres from the site. */
const at = (east: number, north: number) => ({
  latitude: site.latitude + north / metresPerDegreeLat,
  longitude: site.longitude + east / metresPerDegreeLon,
});

/** A seeded normal deviate (Box–Muller over a small LCG), so a failing trace replays. */
function gauss(seed: number) {
  let state = seed >>> 0 || 1;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

interface Trace {
  positions: Position[];
  /** How long the technician stayed at the site (ms). */
  stayMs: number;
}

/** Drive in from `fromM` along `bearing`, stay, drive out; reports every `everyS`, with noise. */
function visitTrace(p: {
  fromM: number;
  bearing: number;
  stayMs: number;
  everyS: number;
  sigmaM: number;
  dropRate: number;
  swapRate: number;
  seed: number;
}): Trace {
  const noise = gauss(p.seed);
  const speed = 10; // m/s
  const driveMs = (p.fromM / speed) * 1000;
  // Out far enough to be beyond the exit radius for a whole dwell, whatever the gaps.
  const outMs = ((p.fromM + 4000) / speed) * 1000;
  const total = driveMs + p.stayMs + outMs;
  const start = Date.parse('2026-06-16T08:00:00Z');
  const positions: Position[] = [];
  let index = 0;
  for (let t = 0; t <= total; t += p.everyS * 1000) {
    index += 1;
    const distance =
      t < driveMs
        ? p.fromM - (t / 1000) * speed
        : t < driveMs + p.stayMs
          ? 0
          : ((t - driveMs - p.stayMs) / 1000) * speed;
    const east = distance * Math.cos(p.bearing) + noise() * p.sigmaM;
    const north = distance * Math.sin(p.bearing) + noise() * p.sigmaM;
    // A gap (never the last report: a trace ends where its device last spoke).
    if (Math.abs(noise()) < p.dropRate * 2.5 && index % 7 !== 0 && t + p.everyS * 1000 <= total) continue;
    positions.push({ ...at(east, north), at: start + t });
  }
  // Some reports arrive late: swapped with the one after them.
  for (let i = 0; i + 1 < positions.length; i++) {
    if (Math.abs(noise()) < p.swapRate)
      [positions[i], positions[i + 1]] = [positions[i + 1] as Position, positions[i] as Position];
  }
  return { positions, stayMs: p.stayMs };
}

function run(positions: readonly Position[]) {
  let visit = newVisit();
  const changes: VisitChange[] = [];
  for (const position of positions) {
    const judged = judge(visit, site, position);
    visit = judged.visit;
    if (judged.change) changes.push(judged.change);
  }
  return { visit, changes };
}

const traceArbitrary = fc.record({
  fromM: fc.integer({ min: 800, max: 5000 }),
  bearing: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
  stayMs: fc.integer({ min: 0, max: 25 * 60_000 }),
  everyS: fc.integer({ min: 5, max: 30 }),
  sigmaM: fc.integer({ min: 5, max: 30 }),
  dropRate: fc.double({ min: 0, max: 0.3, noNaN: true }),
  swapRate: fc.double({ min: 0, max: 0.2, noNaN: true }),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
});

describe('Function: judge (arrival and departure)', () => {
  it('never marks more than one arrival per visit, nor a departure before an arrival, over random noisy traces', () => {
    fc.assert(
      fc.property(traceArbitrary, (parameters) => {
        const { changes, visit } = run(visitTrace(parameters).positions);
        const arrivals = changes.filter((change) => 'arrived' in change);
        const departures = changes.filter((change) => 'departed' in change);
        expect(arrivals.length).toBeLessThanOrEqual(1);
        expect(departures.length).toBeLessThanOrEqual(1);
        if (departures.length > 0) {
          expect(changes[0]).toHaveProperty('arrived');
          expect(visit.departedAt).toBeGreaterThan(visit.arrivedAt as number);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('marks one arrival and one departure for a stay well beyond the dwell', () => {
    fc.assert(
      fc.property(traceArbitrary, (parameters) => {
        const stayMs = defaultDetectorSettings.dwellMs + 6 * 60_000 + parameters.stayMs;
        const { changes } = run(visitTrace({ ...parameters, stayMs }).positions);
        expect(changes.map((change) => Object.keys(change)[0])).toEqual(['arrived', 'departed']);
      }),
      { numRuns: 300 },
    );
  });

  it('marks no arrival for a drive past the site without stopping', () => {
    fc.assert(
      fc.property(traceArbitrary, (parameters) => {
        expect(run(visitTrace({ ...parameters, stayMs: 0 }).positions).changes).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('marks none or one arrival, and no departure, for positions jittering along the radius for 10 minutes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 5, max: 30 }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (seed, sigma, bearing) => {
          const noise = gauss(seed);
          const start = Date.parse('2026-06-16T08:00:00Z');
          const positions: Position[] = [];
          for (let t = 0; t <= 10 * 60_000; t += 10_000) {
            const radius = defaultDetectorSettings.radiusM + noise() * sigma;
            const angle = bearing + noise() * 0.05;
            positions.push({ ...at(radius * Math.cos(angle), radius * Math.sin(angle)), at: start + t });
          }
          const { changes } = run(positions);
          expect(changes.filter((change) => 'arrived' in change).length).toBeLessThanOrEqual(1);
          // Beyond the exit radius for a whole dwell is 2.5 σ for 12 reports in a row: never here.
          if (sigma <= 20) expect(changes.filter((change) => 'departed' in change)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ignores a report not newer than the last one judged, and judges departure against the wider circle', () => {
    const t0 = Date.parse('2026-06-16T08:00:00Z');
    let { visit } = judge(newVisit(), site, { ...at(0, 0), at: t0 });
    ({ visit } = judge(visit, site, { ...at(0, 0), at: t0 + 3 * 60_000 }));
    expect(visit).toMatchObject({ phase: 'ARRIVED', arrivedAt: t0 });
    const late = judge(visit, site, { ...at(5000, 0), at: t0 + 60_000 });
    expect(late.visit).toBe(visit);
    const edge = exitRadius(150) - 10;
    expect(greatCircleMetres(site, at(edge, 0))).toBeGreaterThan(150);
    const standing = judge(visit, site, { ...at(edge, 0), at: t0 + 10 * 60_000 });
    expect(standing.visit).toMatchObject({ phase: 'ARRIVED' });
    expect(standing.visit.outsideSince).toBeUndefined();
  });
});
