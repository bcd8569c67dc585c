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

  it("never hangs a request scope on the previous request's, though enterWith leaks into the caller", async () => {
    // As a server or the Lambda runtime calls one handler after another in the same frame.
    const serve = async () => {
      const cost = enterCallCost();
      await Promise.resolve();
      return cost;
    };
    const first = await serve();
    const second = await serve();
    const third = await serve();
    expect(second.parent).toBeUndefined();
    expect(third.parent).toBeUndefined();
    expect(first).not.toBe(second);

    const { result } = await countingDynamoCalls(async () => {
      const before = await serve();
      const after = await serve();
      return { before, after, invocation: activeCallCost()?.parent };
    });
    expect(result.after.parent).toBe(result.before.parent);
    expect(result.after.parent?.perRequest).toBeUndefined();
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
