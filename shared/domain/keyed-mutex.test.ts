import { describe, expect, it } from 'vitest';
import { serialized } from './keyed-mutex.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Function: serialized', () => {
  it('runs tasks of one key one after another, in the order they came', async () => {
    // Prepare
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await sleep(ms);
      log.push(`${name} end`);
    };

    // Act
    await Promise.all([
      serialized('k', task('a', 20)),
      serialized('k', task('b', 1)),
      serialized('k', task('c', 1)),
    ]);

    // Assess
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('runs the next task after a failed one', async () => {
    // Prepare
    const failing = serialized('failing', async () => {
      throw new Error('store said no');
    });

    // Act
    const next = serialized('failing', async () => 'ran');

    // Assess
    await expect(failing).rejects.toThrow('store said no');
    await expect(next).resolves.toBe('ran');
  });

  it('stops waiting for a task that hangs and runs the next one after the wait limit', async () => {
    // Prepare
    let release = () => {};
    const stuck = serialized('stuck', () => new Promise<void>((resolve) => (release = resolve)), 50);

    // Act
    const started = Date.now();
    const next = await serialized('stuck', async () => Date.now() - started, 50);

    // Assess
    expect(next).toBeGreaterThanOrEqual(45);
    expect(next).toBeLessThan(1_000);
    release();
    await stuck;
  });

  it('does not order tasks of different keys', async () => {
    // Prepare
    let release = () => {};
    const slow = serialized('one', () => new Promise<void>((resolve) => (release = resolve)));

    // Act
    const other = await serialized('two', async () => 'not blocked');

    // Assess
    expect(other).toBe('not blocked');
    release();
    await slow;
  });
});
