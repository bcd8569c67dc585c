import { describe, expect, it } from 'vitest';
import { groupCommitted, type Outcome } from './group-commit.ts';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('group commit', () => {
  it('runs the first request alone and hands the ones that queued meanwhile over together, in arrival order', async () => {
    const batches: number[][] = [];
    const run = async (batch: number[]): Promise<Array<Outcome<number>>> => {
      batches.push(batch);
      await later(20);
      return batch.map((value) => ({ value: value * 10 }));
    };

    const answers = await Promise.all([1, 2, 3, 4].map((value) => groupCommitted('lane-a', value, run, 10)));

    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(answers).toEqual([{ value: 10 }, { value: 20 }, { value: 30 }, { value: 40 }]);
  });

  it('never hands over more than the batch bound at once', async () => {
    const batches: number[][] = [];
    const run = async (batch: number[]): Promise<Array<Outcome<number>>> => {
      batches.push(batch);
      await later(5);
      return batch.map((value) => ({ value }));
    };

    await Promise.all([1, 2, 3, 4, 5, 6].map((value) => groupCommitted('lane-b', value, run, 2)));

    expect(batches).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('keeps lanes apart, gives each request its own outcome, and a failed run fails only its own batch', async () => {
    let calls = 0;
    const run = async (batch: string[]): Promise<Array<Outcome<string>>> => {
      calls++;
      await later(5);
      if (batch.includes('boom')) throw new Error('store down');
      return batch.map((value) => (value === 'bad' ? { error: new Error(value) } : { again: true }));
    };

    const [bad, again, boom, other] = await Promise.all([
      groupCommitted('lane-c', 'bad', run, 10),
      groupCommitted('lane-c', 'ok', run, 10),
      groupCommitted('lane-c', 'boom', run, 10),
      groupCommitted('lane-d', 'ok', run, 10),
    ]);

    expect(bad).toMatchObject({ error: new Error('bad') });
    expect(boom).toMatchObject({ error: new Error('store down') });
    expect(again).toMatchObject({ error: new Error('store down') });
    expect(other).toEqual({ again: true });
    expect(calls).toBe(3);
    // The lane is free again: a later request runs at once.
    expect(await groupCommitted('lane-c', 'ok', run, 10)).toEqual({ again: true });
  });
});
