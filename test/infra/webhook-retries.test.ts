/**
 * The webhook retry schedule and the SQS settings that serve it: every wait is a chain of
 * delayed messages of at most 900 s (hops), never a visibility timeout, so the numbers below
 * decide what a receiver sees (when retries come) and what an outage costs (messages per retry).
 * No synth here; the deployed resources are checked in webhook-delivery.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  assertDeliverySettingsOrThrow,
  deadLetterRetentionSeconds,
  deliveryFunctionTimeoutSeconds,
  deliveryMaxReceiveCount,
  deliveryQueueVisibilitySeconds,
  deliveryRetentionSeconds,
  deliveryWorstCaseSeconds,
  hopsFor,
  hopsPerRetryStep,
  maxAttempts,
  maxDelaySeconds,
  messagesPerExhaustedDelivery,
  oldestMessageAlarmSeconds,
  retryDelaysSeconds,
} from '../../lib/webhook-retries.ts';

describe('Schedule: webhook retries', () => {
  it('retries 30 s, 2 min, 10 min, 30 min, 1 h and 2 h after the previous attempt', () => {
    expect(retryDelaysSeconds).toEqual([30, 120, 600, 1800, 3600, 7200]);
  });

  it('makes 7 attempts in all: the first and one per retry', () => {
    expect(maxAttempts).toBe(7);
  });
});

describe('Hops: waits under the 900 s DelaySeconds cap', () => {
  it.each([
    { step: 1, delay: 30, hops: 1 },
    { step: 2, delay: 120, hops: 1 },
    { step: 3, delay: 600, hops: 1 },
    { step: 4, delay: 1800, hops: 2 },
    { step: 5, delay: 3600, hops: 4 },
    { step: 6, delay: 7200, hops: 8 },
  ])('waits $delay s before retry $step in $hops delayed message(s)', ({ step, delay, hops }) => {
    // Assess
    expect(retryDelaysSeconds[step - 1]).toBe(delay);
    expect(hopsPerRetryStep[step - 1]).toBe(hops);
    expect(delay / hops).toBeLessThanOrEqual(maxDelaySeconds);
  });

  it('needs one more message for every started 900 s', () => {
    expect(maxDelaySeconds).toBe(900);
    expect([0, 1, 900, 901, 1800, 1801].map(hopsFor)).toEqual([1, 1, 1, 2, 2, 3]);
  });

  it('sends 18 messages for a delivery whose every attempt fails', () => {
    expect(messagesPerExhaustedDelivery).toBe(18);
  });
});

describe('Settings: delivery queue and function', () => {
  it('gives the slowest message (DNS, connect, answer, table and queue calls) time within the timeout', () => {
    expect(deliveryWorstCaseSeconds).toBeGreaterThanOrEqual(3 + 5);
    expect(deliveryWorstCaseSeconds).toBeLessThanOrEqual(deliveryFunctionTimeoutSeconds);
  });

  it('hides a received message for six function timeouts (AWS guidance), far below a retry wait', () => {
    expect(deliveryQueueVisibilitySeconds).toBe(6 * deliveryFunctionTimeoutSeconds);
    expect(deliveryQueueVisibilitySeconds).toBeLessThan(maxDelaySeconds);
  });

  it('dead-letters only messages whose runs crashed, independently of the attempt count', () => {
    expect(deliveryMaxReceiveCount).toBe(5);
    expect(deliveryMaxReceiveCount).not.toBe(maxAttempts);
  });

  it('keeps a message for days although it lives at most one hop, and a dead letter longer', () => {
    expect(deliveryRetentionSeconds).toBeGreaterThanOrEqual(2 * 24 * 3600);
    expect(deliveryRetentionSeconds).toBeLessThan(deadLetterRetentionSeconds);
  });

  it('alarms on the oldest message only beyond what a healthy queue holds', () => {
    const healthyOldest = maxDelaySeconds + deliveryFunctionTimeoutSeconds + deliveryQueueVisibilitySeconds;
    expect(oldestMessageAlarmSeconds).toBeGreaterThan(healthyOldest);
    expect(oldestMessageAlarmSeconds).toBeLessThanOrEqual(2 * maxDelaySeconds);
  });

  it('passes the check every synth runs', () => {
    expect(() => assertDeliverySettingsOrThrow()).not.toThrow();
  });
});
