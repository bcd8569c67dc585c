/**
 * From the stored run to the published one: internal fields dropped, `expected_finish_at` while
 * RUNNING, the plan as `result` on single reads of a SUCCEEDED run. Events carry the run without
 * its result (data.object stays small; the summary is there): read the run for its routes.
 */

import type { RunPlan, RunRecord } from './optimization-run.record.ts';
import type { OptimizationRun } from './optimization-run.schema.ts';
import { stallGraceSeconds } from './optimization-run-statuses.ts';

/** When a RUNNING run's answer is due; past it the run is stalled (run-transitions.ts). */
export function deadlineOf(run: Pick<RunRecord, 'started_at' | 'time_limit_seconds'>): number | undefined {
  if (!run.started_at) return undefined;
  return Date.parse(run.started_at) + (run.time_limit_seconds + stallGraceSeconds) * 1000;
}

export function representRun(run: RunRecord, plan?: RunPlan): OptimizationRun {
  const {
    lock_version: _version,
    solver_message_id: _message,
    apply_claimed_at: _claimedAt,
    apply_claimed_by: _claimedBy,
    ...published
  } = run;
  const deadline = run.status === 'RUNNING' ? deadlineOf(run) : undefined;
  return {
    ...published,
    ...(deadline !== undefined ? { expected_finish_at: new Date(deadline).toISOString() } : {}),
    ...(plan && run.summary
      ? { result: { routes: plan.routes, unassigned: plan.unassigned, summary: run.summary } }
      : {}),
  };
}

/** data.object of the run's events. */
export function runEventObject(run: RunRecord): Record<string, unknown> {
  return representRun(run) as Record<string, unknown>;
}

export const runResource = (id: string) => ({ type: 'optimization_run', id });
