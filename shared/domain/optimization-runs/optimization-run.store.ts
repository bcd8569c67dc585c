/**
 * Storage of optimization runs: the run (OPT_RUN, listed: optimization-run.list.ts) and, once it
 * SUCCEEDED, its plan (OPT_PLAN, same id: a header created in the transaction that records the
 * success, over parts of its own written just before; run-plan.store.ts). Every move of the
 * status is a versioned replace with its event; an apply's claim and the start of the search
 * (run-transitions.ts, `markSolving`) are the writes without an event: they change nothing a
 * client acts on.
 */
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { transactWrite } from '../../data/table.ts';
import { runList } from './optimization-run.list.ts';
import type { RunPlan, RunRecord } from './optimization-run.record.ts';

export const runStore = resourceStore<RunRecord>('optimization_run', 'OPT_RUN', runList);
/**
 * The OPT_PLAN items. Those written since plans are stored in parts hold a header, not a RunPlan:
 * read plans with `readPlan` (run-plan.store.ts), which reads both kinds.
 */
export const planStore = resourceStore<RunPlan>('optimization_run_plan', 'OPT_PLAN');

/**
 * Sets (or, with `undefined`, removes) an apply's claim on the run as read; fails with a
 * version conflict when anyone wrote the run since. Returns the run as it now is.
 */
export async function writeClaim(
  scope: StoreScope,
  run: RunRecord,
  claim: { at: string; by: string } | undefined,
): Promise<RunRecord> {
  const next: RunRecord = { ...run, lock_version: run.lock_version + 1 };
  delete next.apply_claimed_at;
  delete next.apply_claimed_by;
  if (claim) Object.assign(next, { apply_claimed_at: claim.at, apply_claimed_by: claim.by });
  await transactWrite([
    {
      kind: 'update',
      key: runStore.of(scope).key(run.id),
      set: {
        lock_version: next.lock_version,
        ...(claim ? { apply_claimed_at: claim.at, apply_claimed_by: claim.by } : {}),
      },
      ...(claim ? {} : { remove: ['apply_claimed_at', 'apply_claimed_by'] }),
      expectedVersion: run.lock_version,
    },
  ]);
  return next;
}
