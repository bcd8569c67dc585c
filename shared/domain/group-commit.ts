/**
 * Group commit: requests with the same key that arrive while one batch of them is being written
 * wait and are then handed over together, as one batch, to the next run (at most `maxBatch` per
 * run, in arrival order). A run of the first request starts at once, alone; contention then costs
 * one more run instead of one run per waiting request, which is what lets 20 bookings into one
 * shift answer in about two transactions' time instead of twenty (booking.service.ts).
 *
 * Like keyed-mutex.ts this works within one process: it only decides who writes together, never
 * whether a write is correct (the batch's conditional writes still decide across processes).
 */

/** How a request of a batch ended: its value, its error, or "queue again" (a race was lost). */
export type Outcome<T> = { value: T } | { error: unknown } | { again: true };

interface Waiting<R, T> {
  request: R;
  resolve: (outcome: Outcome<T>) => void;
}

/** Per key: the requests waiting for the next run (present while a run is going on). */
const lanes = new Map<string, Array<Waiting<unknown, unknown>>>();

export function groupCommitted<R, T>(
  key: string,
  request: R,
  run: (batch: R[]) => Promise<Array<Outcome<T>>>,
  maxBatch: number,
): Promise<Outcome<T>> {
  return new Promise<Outcome<T>>((resolve) => {
    const waiting = { request, resolve } as Waiting<unknown, unknown>;
    const lane = lanes.get(key);
    if (lane) {
      lane.push(waiting);
      return;
    }
    lanes.set(key, [waiting]);
    void drain(key, run as (batch: unknown[]) => Promise<Array<Outcome<unknown>>>, maxBatch);
  });
}

async function drain(
  key: string,
  run: (batch: unknown[]) => Promise<Array<Outcome<unknown>>>,
  maxBatch: number,
): Promise<void> {
  const lane = lanes.get(key) ?? [];
  try {
    while (lane.length > 0) {
      const batch = lane.splice(0, maxBatch);
      let outcomes: Array<Outcome<unknown>>;
      try {
        outcomes = await run(batch.map((waiting) => waiting.request));
      } catch (error) {
        outcomes = batch.map(() => ({ error }));
      }
      batch.forEach((waiting, index) => {
        waiting.resolve(outcomes[index] ?? { again: true });
      });
    }
  } finally {
    lanes.delete(key);
  }
}
