import { describe, expect, it } from 'vitest';
import { activeCallCost, callCount, countingDynamoCalls, inRequestCallCost } from './call-cost.ts';

describe('Module: call-cost', () => {
  it('opens a request scope inside an invocation scope, so a call can count in both', async () => {
    const { result } = await countingDynamoCalls(async () => {
      const outer = activeCallCost();
      return inRequestCallCost(async () => {
        await Promise.resolve();
        return { outer, inner: activeCallCost() };
      });
    });
    expect(result.inner?.parent).toBe(result.outer);
    expect(result.inner?.perRequest).toBe(true);
  });

  it("never hangs a request scope on another request's, nor leaves one behind in the caller", async () => {
    // As a server or the Lambda runtime calls one handler after another in the same context.
    const serve = () =>
      inRequestCallCost(async () => {
        await Promise.resolve();
        return activeCallCost();
      });
    const first = await serve();
    expect(activeCallCost()).toBeUndefined();
    const second = await serve();
    expect(second?.parent).toBeUndefined();
    expect(first).not.toBe(second);

    const nested = await inRequestCallCost(() => serve());
    expect(nested?.parent).toBeUndefined();
  });

  it('keeps concurrent scopes apart', async () => {
    const seen = await Promise.all(
      [1, 2].map((n) =>
        inRequestCallCost(async () => {
          activeCallCost()?.calls.set('GetItem', n);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return callCount(activeCallCost()!);
        }),
      ),
    );
    expect(seen).toEqual([1, 2]);
  });

  it('counts nothing outside any scope', () => {
    expect(activeCallCost()).toBeUndefined();
  });
});
