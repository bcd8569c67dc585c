/**
 * Runs tasks with the same key one after another within this process. Concurrent writes to one
 * record from one container (every request in the local stack, or a busy Fargate task) would
 * otherwise all read the same version and all but one lose their conditional write; queueing
 * them turns contention into waiting instead of retries. Across containers the conditional
 * write and its retries still decide.
 */
const tails = new Map<string, Promise<unknown>>();

export async function serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    // Forget the key once nobody queued behind us, so the map does not grow.
    if (tails.get(key) === tail) tails.delete(key);
  }
}
