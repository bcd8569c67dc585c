import { describe, expect, it } from 'vitest';
import { maxWaitingSeconds, parseWaitingTime, waitingTime } from './waiting-time.ts';

describe('Function: parseWaitingTime', () => {
  describe('accepts', () => {
    it.each([
      { value: 'PT45M', seconds: 45 * 60 },
      { value: 'P1DT2H', seconds: 86_400 + 7200 },
      { value: 'PT0S', seconds: 0 },
      { value: 'PT1H30M15S', seconds: 5415 },
      { value: 'P3D', seconds: 3 * 86_400 },
      { value: 'PT90M', seconds: 5400 },
      { value: 'P2W', seconds: 14 * 86_400 },
      { value: 'P365D', seconds: maxWaitingSeconds },
    ])('$value as $seconds seconds', ({ value, seconds }) => {
      expect(parseWaitingTime(value)).toEqual({ seconds });
    });
  });

  describe('refuses', () => {
    it.each([
      { title: 'P alone', value: 'P' },
      { title: 'PT alone', value: 'PT' },
      { title: 'a T without a time component', value: 'P1DT' },
      { title: 'lower-case designators', value: 'pt45m' },
      { title: 'fractions', value: 'PT0.5S' },
      { title: 'components out of order', value: 'PT5M1H' },
      { title: 'weeks combined with days', value: 'P1W2D' },
      { title: 'a negative duration', value: '-PT5M' },
      { title: 'a clock time', value: '00:45:00' },
      { title: 'surrounding blanks', value: ' PT45M' },
      { title: 'more than 365 days', value: 'P366D' },
      { title: 'a huge number', value: 'PT99999999999999999999S' },
    ])('$title ($value)', ({ value }) => {
      expect(parseWaitingTime(value)).toHaveProperty('error');
    });

    it.each(['P1Y', 'P2M', 'P1Y2M3D', 'P1MT5M'])('%s: years and months have no fixed length', (value) => {
      expect(parseWaitingTime(value)).toEqual({ error: expect.stringContaining('years and months') });
    });

    it('tells a minute from a month: PT1M is a minute', () => {
      expect(parseWaitingTime('PT1M')).toEqual({ seconds: 60 });
    });
  });
});

describe('Function: waitingTime (schema)', () => {
  it('answers a blank value as field-required, not as a malformed duration', () => {
    // Act
    const result = waitingTime().safeParse('  ');

    // Assess
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must not be blank');
  });

  it('keeps a valid value as sent', () => {
    expect(waitingTime().parse('P1DT2H')).toBe('P1DT2H');
  });
});
