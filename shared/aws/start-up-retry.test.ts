/**
 * `npm start` on a loaded machine: a start-up step that fails because a dependency is busy is
 * retried with back-off and given up only after the limit, with a message naming the step; other
 * failures end the start at once. A fake clock: sleeping advances it, nothing waits.
 */
import { describe, expect, it } from 'vitest';
import { DataError } from '../data/data-error.ts';
import { DeadlineExceededError } from './client-deadlines.ts';
import { isTransientStartUpError, retryStartUpStep, StartUpGaveUpError } from './start-up-retry.ts';

function fakeClock() {
  let time = 0;
  const waits: number[] = [];
  const warnings: Array<{ message: string; details: Record<string, unknown> }> = [];
  return {
    waits,
    warnings,
    options: {
      now: () => time,
      sleep: async (ms: number) => {
        waits.push(ms);
        time += ms;
      },
      warn: (message: string, details: Record<string, unknown>) => warnings.push({ message, details }),
    },
  };
}

/** Work that fails `failures` times with `error`, then answers `done`. */
function failing(failures: number, error: () => unknown) {
  let calls = 0;
  const work = async () => {
    calls++;
    if (calls <= failures) throw error();
    return 'done';
  };
  return { work, calls: () => calls };
}

const busyStore = () =>
  new DataError('unavailable', 'put workspace: DeadlineExceededError', {
    cause: new DeadlineExceededError(3_000),
  });

describe('Function: retryStartUpStep', () => {
  it('answers what the step answers when it succeeds at once, without waiting', async () => {
    // Prepare
    const clock = fakeClock();

    // Act
    const result = await retryStartUpStep('applying the seed', async () => 42, clock.options);

    // Assess
    expect(result).toBe(42);
    expect(clock.waits).toEqual([]);
    expect(clock.warnings).toEqual([]);
  });

  it('retries a busy store with doubling waits and logs each retry at warn', async () => {
    // Prepare
    const clock = fakeClock();
    const step = failing(4, busyStore);

    // Act
    const result = await retryStartUpStep('applying the seed', step.work, clock.options);

    // Assess
    expect(result).toBe('done');
    expect(step.calls()).toBe(5);
    expect(clock.waits).toEqual([250, 500, 1_000, 2_000]);
    expect(clock.warnings).toHaveLength(4);
    expect(clock.warnings[0]?.message).toContain('applying the seed failed');
    expect(clock.warnings[0]?.message).toContain('DeadlineExceededError');
    expect(clock.warnings[3]?.details).toMatchObject({
      step: 'applying the seed',
      attempt: 4,
      retry_in_ms: 2_000,
    });
  });

  it('caps the wait between attempts', async () => {
    // Prepare
    const clock = fakeClock();
    const step = failing(8, busyStore);

    // Act
    await retryStartUpStep('creating the table', step.work, { ...clock.options, maxDelayMs: 3_000 });

    // Assess
    expect(clock.waits).toEqual([250, 500, 1_000, 2_000, 3_000, 3_000, 3_000, 3_000]);
  });

  it('gives up after the limit with a message naming the step, the time and the last error', async () => {
    // Prepare
    const clock = fakeClock();
    const step = failing(Number.POSITIVE_INFINITY, busyStore);

    // Act
    const failure = await retryStartUpStep('applying the seed', step.work, clock.options).catch(
      (error: unknown) => error,
    );

    // Assess
    expect(failure).toBeInstanceOf(StartUpGaveUpError);
    const error = failure as StartUpGaveUpError;
    expect(error.message).toMatch(/^applying the seed kept failing for 120 s \(\d+ attempts\); last error: /);
    expect(error.message).toContain('DeadlineExceededError: no answer within 3000 ms');
    expect(error.cause).toBeInstanceOf(DataError);
    // The waits add up to the limit exactly: the last one is cut so a final try lands on it.
    expect(clock.waits.reduce((sum, wait) => sum + wait, 0)).toBe(120_000);
    expect(error.attempts).toBe(step.calls());
  });

  it('does not retry a failure that waiting cannot change', async () => {
    // Prepare
    const clock = fakeClock();
    const step = failing(1, () => new Error('FSM_SEED seed.json is not a valid seed'));

    // Act
    const failure = await retryStartUpStep('applying the seed', step.work, clock.options).catch(
      (error: unknown) => error,
    );

    // Assess
    expect((failure as Error).message).toBe('FSM_SEED seed.json is not a valid seed');
    expect(step.calls()).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it('really waits between attempts without a fake clock', async () => {
    // Prepare
    const step = failing(2, () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const started = Date.now();

    // Act
    const result = await retryStartUpStep('creating the bucket', step.work, {
      firstDelayMs: 5,
      warn: () => {},
    });

    // Assess
    expect(result).toBe('done');
    expect(Date.now() - started).toBeGreaterThanOrEqual(14);
  });
});

describe('Function: isTransientStartUpError', () => {
  it.each([
    { title: 'the data layer unavailable', error: busyStore(), expected: true },
    { title: 'a missed deadline', error: new DeadlineExceededError(3_000), expected: true },
    {
      title: 'a refused connection',
      error: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
      expected: true,
    },
    {
      title: 'an SDK 5xx',
      error: Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } }),
      expected: true,
    },
    {
      title: 'an SDK throttle',
      error: Object.assign(new Error('x'), { name: 'ThrottlingException' }),
      expected: true,
    },
    {
      title: 'a wrapped timeout',
      error: new Error('x', { cause: Object.assign(new Error('y'), { name: 'TimeoutError' }) }),
      expected: true,
    },
    {
      title: 'an SDK 4xx',
      error: Object.assign(new Error('x'), { $metadata: { httpStatusCode: 400 } }),
      expected: false,
    },
    { title: 'a version conflict', error: new DataError('version-conflict', 'x'), expected: false },
    { title: 'a plain error', error: new Error('realm "fsm-admin" is reserved'), expected: false },
    { title: 'a string', error: 'oops', expected: false },
  ])('answers $expected for $title', ({ error, expected }) => {
    // Act
    const result = isTransientStartUpError(error);

    // Assess
    expect(result).toBe(expected);
  });
});
