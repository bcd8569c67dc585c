/**
 * From the stored run to the published one: internal fields dropped, `expected_finish_at` while
 * RUNNING (when its answer is due at the latest, run-deadlines.ts),
 * the plan as `result` on single reads of a SUCCEEDED run. Events carry the run without its
 * result (data.object stays small; the summary is there): read the run for its routes.
 */

import type { RunPlan, RunRecord } from './optimization-run.record.ts';
import type { OptimizationRun } from './optimization-run.schema.ts';
import { publishedApplication } from './run-application.ts';
import { answerDueOf } from './run-deadlines.ts';

export function representRun(run: RunRecord, plan?: RunPlan): OptimizationRun {
  const {
    lock_version: _version,
    solver_message_id: _message,
    solving_started_at: _solving,
    apply_claimed_at: _claimedAt,
    apply_claimed_by: _claimedBy,
    application,
    ...published
  } = run;
  const deadline = run.status === 'RUNNING' ? answerDueOf(run) : undefined;
  return {
    ...published,
    mode: run.mode ?? 'PLAN',
    ...(application ? { application: publishedApplication(application) } : {}),
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
