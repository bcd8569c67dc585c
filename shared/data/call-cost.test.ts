import { describe, expect, it } from 'vitest';
import { activeCallCost, callCount, countingDynamoCalls, enterCallCost } from './call-cost.ts';

describe('Module: call-cost', () => {
  it('opens a request scope inside an invocation scope, so a call can count in both', async () => {
    const { result } = await countingDynamoCalls(async () => {
      const outer = activeCallCost();
      const inner = enterCallCost();
      await Promise.resolve();
      return { outer, inner, active: activeCallCost() };
    });
    expect(result.inner.parent).toBe(result.outer);
    expect(result.active).toBe(result.inner);
  });

  it('keeps concurrent scopes apart', async () => {
    const seen = await Promise.all(
      [1, 2].map(async (n) => {
        const cost = enterCallCost();
        cost.calls.set('GetItem', n);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return callCount(activeCallCost() ?? cost);
      }),
    );
    expect(seen).toEqual([1, 2]);
  });

  it('counts nothing outside any scope', () => {
    expect(activeCallCost()).toBeUndefined();
  });
});
