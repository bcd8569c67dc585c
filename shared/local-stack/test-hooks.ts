/**
 * Hooks the integration tests use to put the local stack into states a crash leaves behind, on
 * with FSM_TEST_HOOKS=true only (the test stack sets it; `npm start` and AWS never do). A test
 * writes a hook item straight into the table; the code that honours it reads (and spends) it.
 *
 * - `TESTHOOK / apply-crash#<run_id>` {after_writes: k}: the run's next apply job stops after k
 *   writes, as a crash would (apply-job.ts SimulatedCrash: nothing cleaned up, its queue message
 *   not settled); the hook then records `crashed_at` (spent: the job taken up again runs to its
 *   end), which tells the test when to act.
 * - `TESTHOOK / sync-push-crash#<installation_id>` {after_mutations: k}: the installation's next
 *   push stops after applying k mutations, as a crash of the function would (push.service.ts: a
 *   500, no answer for what was applied); `crashed_at` once it did (spent).
 */
import { getRecord, putRecord } from '../data/table.ts';

const hookKey = (name: string) => ({ pk: 'TESTHOOK', sk: name });

export async function applyCrashHook(
  runId: string,
): Promise<{ afterWrites: number; crashed(): Promise<void> } | undefined> {
  const key = hookKey(`apply-crash#${runId}`);
  const hook = await getRecord(key, { consistent: true });
  const afterWrites = Number(hook?.after_writes);
  if (!hook || hook.crashed_at || !Number.isInteger(afterWrites)) return undefined;
  return {
    afterWrites,
    // Spent: the job taken up again runs to its end; the test sees when the crash happened.
    crashed: () => putRecord(key, 'test_hook', { ...hook, crashed_at: new Date().toISOString() }),
  };
}

export async function syncPushCrashHook(
  installationId: string,
): Promise<{ afterMutations: number; crashed(): Promise<void> } | undefined> {
  const key = hookKey(`sync-push-crash#${installationId}`);
  const hook = await getRecord(key, { consistent: true });
  const afterMutations = Number(hook?.after_mutations);
  if (!hook || hook.crashed_at || !Number.isInteger(afterMutations)) return undefined;
  return {
    afterMutations,
    crashed: () => putRecord(key, 'test_hook', { ...hook, crashed_at: new Date().toISOString() }),
  };
}
