import { describe, expect, it } from 'vitest';
import { loginLimits, windowEnd } from './brute-force.ts';

describe('Function: loginLimits', () => {
  it('defaults to 10 consecutive user failures and 100 address failures per 900 s', () => {
    expect(loginLimits({})).toEqual({ maxFailures: 10, addressMaxFailures: 100, addressWindowSeconds: 900 });
  });

  it('reads the environment and ignores values that are not positive integers', () => {
    expect(
      loginLimits({
        FSM_LOGIN_MAX_FAILURES: '3',
        FSM_LOGIN_ADDRESS_MAX_FAILURES: 'lots',
        FSM_LOGIN_ADDRESS_WINDOW_SECONDS: '-5',
      }),
    ).toEqual({ maxFailures: 3, addressMaxFailures: 100, addressWindowSeconds: 900 });
  });
});

describe('Function: windowEnd', () => {
  it.each([
    { now: 0, window: 900, end: 900 },
    { now: 899.9, window: 900, end: 900 },
    { now: 900, window: 900, end: 1800 },
    { now: 1_700_000_123, window: 60, end: 1_700_000_160 },
  ])('ends the window containing $now at $end', ({ now, window, end }) => {
    expect(windowEnd(now, window)).toBe(end);
  });
});
