import fc from 'fast-check';
import ngeohash from 'ngeohash';
import { describe, expect, it } from 'vitest';
import { type Box, cellOf, cellPrecision, coveringPrefixes, inBox } from './geo-cells.ts';

const base32 = '0123456789bcdefghjkmnpqrstuvwxyz';
const world: Box = { minLat: -90, minLon: -180, maxLat: 90, maxLon: 180 };

// Values on cell borders of every length (multiples of 180/2^k) besides arbitrary ones.
const onBorder = (limit: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: -4096, max: 4096 }))
    .map(([k, i]) => Math.max(-limit, Math.min(limit, (i * limit) / 2 ** k)));
const latitude = fc.oneof(
  fc.double({ min: -90, max: 90, noNaN: true }),
  onBorder(90),
  fc.constantFrom(-90, 90),
);
const longitude = fc.oneof(
  fc.double({ min: -180, max: 180, noNaN: true }),
  onBorder(180),
  fc.constantFrom(-180, 180),
);
const tiny = fc.double({ min: 0, max: 0.01, noNaN: true });

/** Boxes of every size; unordered longitudes give boxes across the antimeridian. */
const box: fc.Arbitrary<Box> = fc.oneof(
  fc.tuple(latitude, latitude, longitude, longitude).map(([a, b, minLon, maxLon]) => ({
    minLat: Math.min(a, b),
    maxLat: Math.max(a, b),
    minLon,
    maxLon,
  })),
  fc.tuple(latitude, longitude, tiny, tiny).map(([lat, lon, dLat, dLon]) => ({
    minLat: Math.min(lat, 90 - dLat),
    maxLat: Math.min(lat, 90 - dLat) + dLat,
    minLon: lon,
    // Past 180 it wraps: a tiny box across the antimeridian.
    maxLon: lon + dLon > 180 ? lon + dLon - 360 : lon + dLon,
  })),
  fc.constant(world),
);

/** A point of the box: fractions across it, corners and edges included. */
const fraction = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1));
function pointIn(b: Box, t: number, u: number): [number, number] {
  const lat = Math.min(b.maxLat, b.minLat + t * (b.maxLat - b.minLat));
  if (b.minLon <= b.maxLon) return [lat, Math.min(b.maxLon, b.minLon + u * (b.maxLon - b.minLon))];
  const x = b.minLon + u * (180 - b.minLon + (b.maxLon + 180));
  return [lat, x > 180 ? Math.min(b.maxLon, x - 360) : x];
}

describe('Function: cellOf', () => {
  it('gives the geohash of cellPrecision characters', () => {
    // Act & Assess
    expect(cellPrecision).toBe(7);
    expect(cellOf(57.64911, 10.40744)).toBe('u4pruyd');
    expect(cellOf(-90, -180)).toBe('0000000');
    expect(cellOf(90, 180)).toBe('zzzzzzz');
  });
});

describe('Function: coveringPrefixes', () => {
  it('covers every point of any box within the budget, with prefixes of one length', () => {
    fc.assert(
      fc.property(box, fraction, fraction, fc.integer({ min: 32, max: 200 }), (b, t, u, budget) => {
        // Act
        const prefixes = coveringPrefixes(b, budget);
        const [lat, lon] = pointIn(b, t, u);

        // Assess
        expect(inBox(lat, lon, b)).toBe(true);
        const cell = cellOf(lat, lon);
        expect(prefixes.some((prefix) => cell.startsWith(prefix))).toBe(true);
        expect(prefixes.length).toBeLessThanOrEqual(budget);
        const length = prefixes[0]?.length ?? 0;
        expect(length).toBeGreaterThanOrEqual(1);
        expect(length).toBeLessThanOrEqual(cellPrecision);
        expect(prefixes.every((prefix) => prefix.length === length)).toBe(true);
        expect(prefixes).toEqual([...new Set(prefixes)].sort());
      }),
      { numRuns: 2000 },
    );
  });

  it('covers the whole world with the 32 one-character cells', () => {
    // Act & Assess
    expect(coveringPrefixes(world)).toEqual([...base32]);
    expect(coveringPrefixes({ minLat: -90, minLon: 0, maxLat: 90, maxLon: -0.000001 })).toEqual([...base32]);
  });

  it('stays at one character even when the budget is smaller than that cover', () => {
    // Act & Assess
    expect(coveringPrefixes(world, 4)).toHaveLength(32);
  });

  it('covers a street corner with a few full-length cells', () => {
    // Act
    const prefixes = coveringPrefixes({ minLat: 52.52, minLon: 13.404, maxLat: 52.5205, maxLon: 13.4045 });

    // Assess
    expect(prefixes.length).toBeGreaterThanOrEqual(1);
    expect(prefixes.length).toBeLessThanOrEqual(4);
    expect(prefixes.every((prefix) => prefix.length === cellPrecision)).toBe(true);
  });

  it('uses the longest length that fits the budget', () => {
    // Prepare: a city-sized box.
    const city = { minLat: 48.1, minLon: 11.4, maxLat: 48.2, maxLon: 11.7 };

    // Act
    const within32 = coveringPrefixes(city);
    const within1000 = coveringPrefixes(city, 1000);

    // Assess
    expect(within32.length).toBeLessThanOrEqual(32);
    expect(within1000.length).toBeLessThanOrEqual(1000);
    expect(within1000[0]?.length).toBeGreaterThan(within32[0]?.length ?? 0);
    // One more character would not have fitted (the library's own cover as the oracle).
    const longer = (within32[0]?.length ?? 0) + 1;
    expect(
      ngeohash.bboxes(city.minLat, city.minLon, city.maxLat, city.maxLon, longer).length,
    ).toBeGreaterThan(32);
  });

  it('covers both sides of a box across the antimeridian', () => {
    // Prepare: around Fiji.
    const fiji = { minLat: -20, minLon: 177, maxLat: -15, maxLon: -178 };

    // Act
    const prefixes = coveringPrefixes(fiji);

    // Assess
    expect(prefixes.length).toBeLessThanOrEqual(32);
    expect(prefixes.some((prefix) => cellOf(-17.7, 178.4).startsWith(prefix))).toBe(true);
    expect(prefixes.some((prefix) => cellOf(-16, -179).startsWith(prefix))).toBe(true);
    expect(prefixes.some((prefix) => cellOf(-17, 0).startsWith(prefix))).toBe(false);
  });

  it('refuses what is not a box', () => {
    // Act & Assess
    expect(() => coveringPrefixes({ minLat: 10, minLon: 0, maxLat: 5, maxLon: 1 })).toThrow(RangeError);
    expect(() => coveringPrefixes({ minLat: 0, minLon: 0, maxLat: 91, maxLon: 1 })).toThrow(RangeError);
    expect(() => coveringPrefixes({ minLat: 0, minLon: Number.NaN, maxLat: 1, maxLon: 1 })).toThrow(
      RangeError,
    );
  });
});

describe('Function: inBox', () => {
  const berlin = { minLat: 52.3, minLon: 13.0, maxLat: 52.7, maxLon: 13.8 };
  const fiji = { minLat: -20, minLon: 177, maxLat: -15, maxLon: -178 };

  it('includes the edges and corners', () => {
    // Act & Assess
    expect(inBox(52.3, 13.0, berlin)).toBe(true);
    expect(inBox(52.7, 13.8, berlin)).toBe(true);
    expect(inBox(52.5, 13.0, berlin)).toBe(true);
    expect(inBox(52.7, 13.4, berlin)).toBe(true);
  });

  it('excludes points just outside', () => {
    // Act & Assess
    expect(inBox(52.299_999, 13.4, berlin)).toBe(false);
    expect(inBox(52.5, 13.800_001, berlin)).toBe(false);
    expect(inBox(52.5, 12.999_999, berlin)).toBe(false);
  });

  it('holds a box across the antimeridian to both of its sides', () => {
    // Act & Assess
    expect(inBox(-17, 178, fiji)).toBe(true);
    expect(inBox(-17, 180, fiji)).toBe(true);
    expect(inBox(-17, -180, fiji)).toBe(true);
    expect(inBox(-17, -178, fiji)).toBe(true);
    expect(inBox(-17, 177, fiji)).toBe(true);
    expect(inBox(-17, 0, fiji)).toBe(false);
    expect(inBox(-17, -177.9, fiji)).toBe(false);
    expect(inBox(-21, 179, fiji)).toBe(false);
  });

  it('treats equal longitudes as a line, not the whole world', () => {
    // Act & Assess
    expect(inBox(0, 10, { minLat: -1, minLon: 10, maxLat: 1, maxLon: 10 })).toBe(true);
    expect(inBox(0, 11, { minLat: -1, minLon: 10, maxLat: 1, maxLon: 10 })).toBe(false);
  });
});
