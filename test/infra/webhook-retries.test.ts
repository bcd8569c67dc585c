/**
 * The webhook retry schedule fits the queue design: steps beyond SQS's 900 s delay cap are
 * reached with visibility timeouts (cap 12 h), and the queue keeps messages long enough.
 */
import { describe, expect, it } from 'vitest';
import {
  assertRetryScheduleFitsOrThrow,
  deliveryQueueVisibilitySeconds,
  deliveryRetentionSeconds,
  maxDelaySeconds,
  maxDeliveryAttempts,
  maxVisibilityTimeoutSeconds,
  retryDelaysEnvValue,
  retryDelaysSeconds,
} from '../../lib/webhook-retries.ts';

describe('Schedule: webhook retries', () => {
  it('retries after 30 min, 1 h and 2 h, which SQS delays alone cannot express', () => {
    expect(retryDelaysSeconds).toEqual(expect.arrayContaining([1800, 3600, 7200]));
    expect(retryDelaysSeconds.filter((delay) => delay > maxDelaySeconds)).toEqual([1800, 3600, 7200]);
  });

  it('keeps every step within the 12 h visibility timeout cap', () => {
    for (const delay of retryDelaysSeconds) expect(delay).toBeLessThanOrEqual(maxVisibilityTimeoutSeconds);
    expect(() => assertRetryScheduleFitsOrThrow()).not.toThrow();
  });

  it('grows monotonically', () => {
    const sorted = [...retryDelaysSeconds].sort((a, b) => a - b);
    expect(retryDelaysSeconds).toEqual(sorted);
  });

  it('counts one receive per attempt, so the DLQ takes over after the last retry', () => {
    expect(maxDeliveryAttempts).toBe(retryDelaysSeconds.length + 1);
  });

  it('retains messages longer than the whole schedule', () => {
    const worstCase = retryDelaysSeconds.reduce((sum, d) => sum + d + deliveryQueueVisibilitySeconds, 0);
    expect(deliveryRetentionSeconds).toBeGreaterThan(worstCase);
  });

  it('hands the schedule to the delivery function as seconds', () => {
    expect(retryDelaysEnvValue()).toBe('5,300,1800,3600,7200');
  });
});
