/**
 * The moves of a run's status, each a versioned replace with its event (the outbox), so that
 * a move and its event commit together and two movers never both win:
 *
 *   QUEUED ──take──► RUNNING ──succeed──► SUCCEEDED
 *     │                 ├──fail──────────► FAILED
 *     └──cancel─────────┴──cancel────────► CANCELLED
 *
 * A move re-reads the run (strongly consistent) and asks `move` for the next state; `move`
 * answers undefined when the run is not in a state it moves from, and nothing is written. A
 * version conflict (someone moved it in between) reads again. The solver's moves carry actor
 * SYSTEM; a cancel carries its caller.
 *
 * The move that ends a run counts it in the OptimizationRuns metric by outcome, once: whichever
 * mover won (a solver's success after a cancel moves nothing and counts nothing).
 *
 * One write is no move: `markSolving` records when the search begins (RUNNING stays RUNNING).
 */
import { DataError } from '../../data/data-error.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { type TableWrite, writeItem } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import { systemEvent } from '../../events/domain-event.ts';
import type { EventType } from '../../events/event-registry.ts';
import { recordOptimizationRun } from '../../observability/metrics.ts';
import type { RunRecord, RunSummary } from './optimization-run.record.ts';
import { runEventObject, runResource } from './optimization-run.representation.ts';
import { runStore } from './optimization-run.store.ts';
import { OptimizationRunError } from './optimization-run-error.ts';
import type { FailureCode } from './optimization-run-statuses.ts';
import { deadlineOf } from './run-deadlines.ts';
import { type PlanHeader, planHeaderCreate } from './run-plan.store.ts';

const workspaceOf = (scope: StoreScope) => (typeof scope === 'string' ? scope : scope.workspaceId);

export interface Move {
  /** The next state (without bookkeeping), or undefined: no move from this state. */
  next(current: RunRecord, now: string): RunRecord | undefined;
  event(next: RunRecord): DomainEvent;
  /** Writes that join the move's transaction (the plan of a success). */
  extra?: (next: RunRecord) => TableWrite[];
}

export interface Moved {
  run: RunRecord | undefined;
  moved: boolean;
}

export async function moveRun(scope: StoreScope, id: string, move: Move): Promise<Moved> {
  const store = runStore.of(scope);
  for (let attempt = 1; attempt <= 8; attempt++) {
    const current = await store.getConsistent(id);
    if (!current) return { run: undefined, moved: false };
    const now = new Date().toISOString();
    const proposed = move.next(current, now);
    if (!proposed) return { run: current, moved: false };
    const next: RunRecord = { ...proposed, lock_version: current.lock_version + 1, updated_at: now };
    try {
      await store.replace(next, current, move.event(next), move.extra?.(next) ?? []);
      countIfEnded(next);
      return { run: next, moved: true };
    } catch (error) {
      if (error instanceof DataError && error.code === 'version-conflict') continue;
      throw error;
    }
  }
  throw new OptimizationRunError('conflict', { detail: 'The run kept changing; retry.' });
}

const outcomes = { SUCCEEDED: 'succeeded', FAILED: 'failed', CANCELLED: 'cancelled' } as const;

/** A run that just ended, in the metrics: its outcome, and its time since the solver took it. */
function countIfEnded(run: RunRecord): void {
  const outcome = outcomes[run.status as keyof typeof outcomes];
  if (!outcome) return;
  const started = run.started_at ? Date.parse(run.started_at) : Number.NaN;
  const finished = run.finished_at ? Date.parse(run.finished_at) : Number.NaN;
  recordOptimizationRun({
    outcome,
    ...(Number.isFinite(started) && Number.isFinite(finished) ? { durationMs: finished - started } : {}),
  });
}

/** An event of the solver (actor SYSTEM). */
const solverEvent = (scope: StoreScope, type: EventType) => (next: RunRecord) =>
  systemEvent(workspaceOf(scope), type, runResource(next.id), runEventObject(next));

const withoutSolverFields = (run: RunRecord): RunRecord => {
  const copy = { ...run };
  delete copy.solver_message_id;
  return copy;
};

/** QUEUED → RUNNING, taken by the receive of `messageId`. */
export function takeRun(
  scope: StoreScope,
  id: string,
  messageId: string,
  travelModel: RunRecord['travel_model'],
) {
  return moveRun(scope, id, {
    next: (current, now) =>
      current.status === 'QUEUED'
        ? {
            ...current,
            status: 'RUNNING',
            started_at: now,
            solver_message_id: messageId,
            ...(travelModel ? { travel_model: travelModel } : {}),
          }
        : undefined,
    event: solverEvent(scope, 'optimization_run.started'),
  });
}

/**
 * RUNNING → SUCCEEDED with the plan's header (its parts are written already: run-plan.store.ts),
 * if the run is still the one this receive took.
 */
export function succeedRun(
  scope: StoreScope,
  id: string,
  messageId: string,
  summary: RunSummary,
  plan: PlanHeader,
) {
  return moveRun(scope, id, {
    next: (current, now) =>
      current.status === 'RUNNING' && current.solver_message_id === messageId
        ? { ...withoutSolverFields(current), status: 'SUCCEEDED', finished_at: now, summary }
        : undefined,
    event: solverEvent(scope, 'optimization_run.succeeded'),
    extra: () => [planHeaderCreate(scope, plan)],
  });
}

/** What `markSolving` found: the search may begin, the run is no longer this receive's, or too late. */
export type SolvingMark =
  | { outcome: 'solving'; run: RunRecord }
  | { outcome: 'gone' }
  | { outcome: 'late'; run: RunRecord };

/**
 * Records that the search of a run this receive took begins now (`solving_started_at`): its
 * deadline counts from here (run-deadlines.ts). One UpdateItem conditional on the version,
 * without event (nothing a client acts on changes; `expected_finish_at` only moves earlier). It
 * bumps lock_version, so a mover that read the run before never puts it back without the field.
 * `gone`: the run is no longer RUNNING under `messageId` (cancelled, failed by a read): nothing to
 * solve. `late`: its preparation outlasted the budget; a read calls it stalled already.
 */
export async function markSolving(scope: StoreScope, id: string, messageId: string): Promise<SolvingMark> {
  const store = runStore.of(scope);
  for (let attempt = 1; attempt <= 4; attempt++) {
    const current = await store.getConsistent(id);
    if (current?.status !== 'RUNNING' || current.solver_message_id !== messageId) {
      return { outcome: 'gone' };
    }
    const now = Date.now();
    if (now > (deadlineOf(current) ?? Number.POSITIVE_INFINITY)) return { outcome: 'late', run: current };
    const next: RunRecord = {
      ...current,
      solving_started_at: new Date(now).toISOString(),
      lock_version: current.lock_version + 1,
    };
    try {
      await writeItem({
        kind: 'update',
        key: store.key(id),
        set: { solving_started_at: next.solving_started_at, lock_version: next.lock_version },
        expectedVersion: current.lock_version,
      });
      return { outcome: 'solving', run: next };
    } catch (error) {
      if (error instanceof DataError && error.code === 'version-conflict') continue;
      throw error;
    }
  }
  throw new OptimizationRunError('conflict', { detail: 'The run kept changing; retry.' });
}

export interface Failure {
  code: FailureCode;
  reason: string;
}

/**
 * QUEUED or RUNNING → FAILED. `onlyIf` narrows which runs this failure is about (the receive
 * that took it, a run past its deadline); without it any run not yet final fails.
 */
export function failRun(
  scope: StoreScope,
  id: string,
  failure: Failure,
  onlyIf: (current: RunRecord) => boolean = () => true,
) {
  return moveRun(scope, id, {
    next: (current, now) =>
      (current.status === 'QUEUED' || current.status === 'RUNNING') && onlyIf(current)
        ? {
            ...withoutSolverFields(current),
            status: 'FAILED',
            finished_at: now,
            failure_code: failure.code,
            failure_reason: failure.reason,
          }
        : undefined,
    event: solverEvent(scope, 'optimization_run.failed'),
  });
}
