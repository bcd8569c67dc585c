/** When the next attempt of a failed delivery is made (SPEC.md, Webhooks → Retries). */
import { describe, expect, it } from 'vitest';
import { maxAttempts, nextDelaySeconds } from './retry-schedule.ts';

describe('Retry schedule', () => {
  it('waits 30 s, 2 min, 10 min, 30 min, 1 h, 2 h after attempts 1 to 6, and stops after the 7th', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => nextDelaySeconds(attempt))).toEqual([
      30,
      120,
      600,
      1800,
      3600,
      7200,
      undefined,
    ]);
    expect(maxAttempts).toBe(7);
  });

  it('backs off at least 5 minutes after a 429, or the Retry-After when longer (up to a day)', () => {
    expect(nextDelaySeconds(1, { status: 429 })).toBe(300);
    expect(nextDelaySeconds(1, { status: 429, retryAfterSeconds: 10 })).toBe(300);
    expect(nextDelaySeconds(1, { status: 429, retryAfterSeconds: 900 })).toBe(900);
    expect(nextDelaySeconds(6, { status: 429, retryAfterSeconds: 60 })).toBe(7200);
    expect(nextDelaySeconds(1, { status: 429, retryAfterSeconds: 10 ** 9 })).toBe(86_400);
    expect(nextDelaySeconds(7, { status: 429 })).toBeUndefined();
  });

  it('ignores Retry-After on other statuses', () => {
    expect(nextDelaySeconds(1, { status: 503, retryAfterSeconds: 900 })).toBe(30);
  });

  it('scales every delay and the 429 floor by FSM_TIME_SCALE, but not the receiver’s Retry-After', () => {
    expect(nextDelaySeconds(2, { timeScale: 0.001 })).toBeCloseTo(0.12);
    expect(nextDelaySeconds(1, { status: 429, timeScale: 0.001 })).toBeCloseTo(0.3);
    expect(nextDelaySeconds(1, { status: 429, retryAfterSeconds: 2, timeScale: 0.001 })).toBe(2);
  });
});
