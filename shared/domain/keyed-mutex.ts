/**
 * Runs tasks with the same key one after another within this process. Concurrent writes to one
 * record from one container (every request in the local stack, or a busy Fargate task) would
 * otherwise all read the same version and all but one lose their conditional write; queueing
 * them turns contention into waiting instead of retries. Across containers the conditional
 * write and its retries still decide.
 *
 * The queue is an optimisation, never what makes a write correct, so a task waits for the one
 * ahead of it at most `maxWaitMs` and then runs anyway. Tasks normally take milliseconds; one
 * stuck on a hanging store (until its deadline, ../aws/client-deadlines.ts) must not make every
 * task behind it wait out that deadline in turn.
 */
const tails = new Map<string, Promise<unknown>>();

export const maxWaitMs = 1_000;

export async function serialized<T>(key: string, task: () => Promise<T>, waitMs = maxWaitMs): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = atMost(previous, waitMs).then(task);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    // Forget the key once nobody queued behind us, so the map does not grow.
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/** Settles when `promise` does (whether it fulfils or rejects) or after `ms`, whichever is first. */
function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise.then(noop, noop), elapsed]).finally(() => clearTimeout(timer));
}

const noop = () => {};
