/**
 * Storage of optimization runs: the run (OPT_RUN, listed: optimization-run.list.ts) and, once it
 * SUCCEEDED, its plan (OPT_PLAN, same id), written in the transaction that records the success.
 * Every move of the status is a versioned replace with its event; an apply's claim is the one
 * write without an event: it changes nothing a reader sees, it only keeps a second apply out.
 */
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { type TableWrite, transactWrite } from '../../data/table.ts';
import { runList } from './optimization-run.list.ts';
import type { RunPlan, RunRecord } from './optimization-run.record.ts';

export const runStore = resourceStore<RunRecord>('optimization_run', 'OPT_RUN', runList);
export const planStore = resourceStore<RunPlan>('optimization_run_plan', 'OPT_PLAN');

/** The plan's insert, to join the transaction that moves the run to SUCCEEDED. */
export function planCreate(scope: StoreScope, plan: RunPlan): TableWrite {
  return {
    kind: 'create',
    key: planStore.of(scope).key(plan.id),
    entity: 'optimization_run_plan',
    record: { ...plan },
  };
}

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
