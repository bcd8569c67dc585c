/**
 * When a run that is not final is overdue (pure; the times are optimization-run-statuses.ts's):
 *
 * - QUEUED: `created_at + queueTimeoutSeconds`. Past it no solver took the run up: NOT_STARTED.
 * - RUNNING, preparing (no `solving_started_at`): `started_at + preparationBudgetSeconds`. The
 *   solver reads the records and the travel matrix before it searches; counting the time limit
 *   from `started_at` would call a run stalled while a slow matrix is still being answered.
 * - RUNNING, searching: `solving_started_at + time_limit_seconds + stallGraceSeconds`: the search
 *   gets its whole time limit, and the grace covers writing the answer.
 *
 * Past its deadline a RUNNING run is stalled: a read records it FAILED (SOLVER_STOPPED). The
 * solver function's timeout covers the longest of these spans (lib/solver-settings.ts).
 */
import type { RunRecord } from './optimization-run.record.ts';
import {
  preparationBudgetSeconds,
  queueTimeoutSeconds,
  stallGraceSeconds,
} from './optimization-run-statuses.ts';

type Timed = Pick<RunRecord, 'started_at' | 'solving_started_at' | 'time_limit_seconds'>;

/** When a RUNNING run's next step is due (epoch ms): its search's start, then its answer. */
export function deadlineOf(run: Timed): number | undefined {
  if (run.solving_started_at) {
    return Date.parse(run.solving_started_at) + (run.time_limit_seconds + stallGraceSeconds) * 1000;
  }
  if (!run.started_at) return undefined;
  return Date.parse(run.started_at) + preparationBudgetSeconds * 1000;
}

/**
 * When a RUNNING run's answer is due at the latest (epoch ms): `expected_finish_at`. While it
 * prepares, its search may start as late as the preparation budget allows; once searching, its
 * deadline. So it only ever moves earlier, and a run still RUNNING past it is stalled (a run that
 * has not begun its search within the budget is stalled sooner).
 */
export function answerDueOf(run: Timed): number | undefined {
  if (run.solving_started_at || !run.started_at) return deadlineOf(run);
  return (
    Date.parse(run.started_at) +
    (preparationBudgetSeconds + run.time_limit_seconds + stallGraceSeconds) * 1000
  );
}

/** When a QUEUED run should have been taken up (epoch ms). */
export function queuedDeadlineOf(run: Pick<RunRecord, 'created_at'>): number {
  return Date.parse(run.created_at) + queueTimeoutSeconds * 1000;
}

/** Why a run is overdue at `now`: never taken up, or taken up and stalled. */
export type Overdue = 'not-started' | 'stalled';

export function overdueOf(
  run: Timed & Pick<RunRecord, 'status' | 'created_at'>,
  now: number,
): Overdue | undefined {
  if (run.status === 'QUEUED') return now > queuedDeadlineOf(run) ? 'not-started' : undefined;
  if (run.status !== 'RUNNING') return undefined;
  const deadline = deadlineOf(run);
  return deadline !== undefined && now > deadline ? 'stalled' : undefined;
}
