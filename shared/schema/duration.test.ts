/** ISO 8601 durations as SPEC.md's Conventions take them, and the shortest form answers use. */
import { describe, expect, it } from 'vitest';
import { formatIsoDuration, isoDuration, parseIsoDuration } from './duration.ts';

describe('Function: parseIsoDuration', () => {
  it.each([
    ['PT45M', 2700],
    ['P1DT2H', 93_600],
    ['PT0S', 0],
    ['P2W', 1_209_600],
    ['PT1H30M15S', 5415],
  ])('reads %s as %i seconds', (value, seconds) => {
    expect(parseIsoDuration(value)).toEqual({ seconds });
  });

  it.each(['P', 'PT', '1H', 'PT1.5H', 'pt1h', 'P1M', 'P1Y'])('refuses %s', (value) => {
    expect(parseIsoDuration(value)).toHaveProperty('error');
  });
});

describe('Function: formatIsoDuration', () => {
  it.each([
    [5400, 'PT1H30M'],
    [93_600, 'P1DT2H'],
    [0, 'PT0S'],
    [59, 'PT59S'],
    [86_400, 'P1D'],
  ])('writes %i seconds as %s', (seconds, text) => {
    expect(formatIsoDuration(seconds)).toBe(text);
  });

  it('reads back what it writes', () => {
    for (const seconds of [1, 61, 3599, 3601, 90_061, 1_000_000]) {
      expect(parseIsoDuration(formatIsoDuration(seconds))).toEqual({ seconds });
    }
  });
});

describe('Function: isoDuration', () => {
  const field = isoDuration({ minSeconds: 60, maxSeconds: 86_400 });

  it('accepts a duration within its bounds', () => {
    expect(field.safeParse('PT2H').success).toBe(true);
  });

  it('refuses one outside its bounds, naming them', () => {
    const result = field.safeParse('P2D');

    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must be between PT1M and P1D');
  });
});
