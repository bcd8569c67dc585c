/**
 * Optimization runs on the request path (API-DECISIONS.md, "Optimization runs"): create (checked
 * and answered at once, QUEUED with its optimization_run.created event in one transaction; the
 * outbox hands it to the solver queue: solver-dispatch.consumer.ts), read, list and cancel. The
 * solving itself is solver-job.ts, the apply apply.service.ts.
 *
 * A read never shows a run stuck (run-deadlines.ts): a RUNNING run past its deadline (its
 * search not begun within the preparation budget, or no answer within its time limit plus a
 * minute from the search's start) has a solver that stopped without an answer (out of memory, a
 * timeout, a crash), and a QUEUED run no solver took up within the queue timeout never will be
 * (its hand-over to the solver queue failed): the read records it as FAILED (SOLVER_STOPPED,
 * NOT_STARTED) before answering.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import { domainEvent } from '../../events/domain-event.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { caseStore } from '../cases/case.store.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import { applyNeverStarted, failNeverStartedApply } from './apply-state.ts';
import type { RunRecord } from './optimization-run.record.ts';
import { representRun, runEventObject, runResource } from './optimization-run.representation.ts';
import type { CreateOptimizationRun, OptimizationRun } from './optimization-run.schema.ts';
import { runStore } from './optimization-run.store.ts';
import { OptimizationRunError } from './optimization-run-error.ts';
import {
  preparationBudgetSeconds,
  queueTimeoutSeconds,
  type RunStatus,
  timeLimits,
} from './optimization-run-statuses.ts';
import { overdueOf } from './run-deadlines.ts';
import { readPlan } from './run-plan.store.ts';
import { type Failure, failRun, moveRun } from './run-transitions.ts';

/** Case statuses a run plans: the work is open and not waiting (ON_HOLD) for something. */
const plannable = new Set(['NEW', 'SCHEDULED']);

const invalid = (pointer: string, detail: string): FieldError => ({ type: 'field-invalid', pointer, detail });

async function caseErrors(ctx: Actor, ids: readonly string[]): Promise<FieldError[]> {
  const found = await caseStore.of(ctx).getMany(ids.map((id) => id.toLowerCase()));
  return ids.flatMap((_, index) => {
    const record = found[index];
    if (!record) return [invalid(`#/case_ids/${index}`, 'no case with this id exists in the workspace')];
    if (!plannable.has(record.status)) {
      return [
        invalid(
          `#/case_ids/${index}`,
          `the case is ${record.status}: a run plans NEW and SCHEDULED cases only`,
        ),
      ];
    }
    return [];
  });
}

/** The named shifts as read, in their order (undefined: no such shift). */
type ReadShifts = ReadonlyArray<Shift | undefined>;

/**
 * The named shifts' errors: a shift that does not exist, or does not overlap the horizon; for a
 * REPAIR run, one whose hours are over has no rest of the day to re-plan.
 */
function shiftErrors(found: ReadShifts, from: string, to: string, repair: boolean): FieldError[] {
  return found.flatMap((shift, index) => {
    const pointer = `#/shift_ids/${index}`;
    if (!shift) return [invalid(pointer, 'no shift with this id exists in the workspace')];
    if (repair && shift.end <= from) {
      return [invalid(pointer, 'the shift is over: a REPAIR run re-plans the rest of a day')];
    }
    if (!(shift.end > from && shift.start < to)) {
      return [invalid(pointer, 'the shift does not overlap the horizon (from, to)')];
    }
    return [];
  });
}

/** The horizon of a REPAIR run: from now (or `from`) to the end of the latest of its shifts (or `to`). */
function repairHorizon(input: CreateOptimizationRun, found: ReadShifts, now: string) {
  const from = input.from ?? now;
  const latest = found
    .flatMap((shift) => (shift ? [shift.end] : []))
    .sort()
    .at(-1);
  const to =
    input.to ?? (latest && latest > from ? latest : new Date(Date.parse(from) + 3600_000).toISOString());
  return { from, to };
}

export async function createRun(ctx: Actor, input: CreateOptimizationRun): Promise<OptimizationRun> {
  const now = new Date().toISOString();
  const repair = input.mode === 'REPAIR';
  const [cases, found] = await Promise.all([
    input.case_ids ? caseErrors(ctx, input.case_ids) : [],
    input.shift_ids ? shiftStore.of(ctx).getMany(input.shift_ids.map((id) => id.toLowerCase())) : [],
  ]);
  // PLAN runs carry from and to (the schema requires them); a REPAIR run's default to its shifts.
  const { from, to } = repair
    ? repairHorizon(input, found, now)
    : { from: input.from as string, to: input.to as string };
  const errors = [...cases, ...shiftErrors(found, from, to, repair)];
  if (errors.length > 0) throw new OptimizationRunError('invalid', { fields: errors });
  const id = uuidv7();
  const run: RunRecord = {
    id,
    status: 'QUEUED',
    ...(repair ? { mode: 'REPAIR' as const } : {}),
    from,
    to,
    ...(input.case_ids ? { case_ids: input.case_ids.map((caseId) => caseId.toLowerCase()) } : {}),
    ...(input.shift_ids ? { shift_ids: input.shift_ids.map((shiftId) => shiftId.toLowerCase()) } : {}),
    time_limit_seconds: input.time_limit_seconds ?? timeLimits.default,
    requested_by: ctx.principal.id,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  await runStore
    .of(ctx)
    .create(run, domainEvent(ctx, 'optimization_run.created', runResource(id), runEventObject(run)));
  return representRun(run);
}

export const stalledReason =
  'The solver stopped without an answer (it ran out of memory, timed out or crashed); create a new run.';

export const stalledPreparingReason =
  `The solver stopped without an answer: it did not begin its search within ${preparationBudgetSeconds} s ` +
  'of taking the run up (reading the records and travel times took too long, or it ran out of memory or ' +
  'crashed); create a new run.';

export const notStartedReason =
  `The solver never took the run up: it waited in the queue for more than ${queueTimeoutSeconds / 60} minutes ` +
  '(its hand-over to the solver failed, or every solver stayed busy that long); create a new run.';

function overdueFailure(run: RunRecord, now: number): Failure | undefined {
  switch (overdueOf(run, now)) {
    case 'not-started':
      return { code: 'NOT_STARTED', reason: notStartedReason };
    case 'stalled':
      return {
        code: 'SOLVER_STOPPED',
        reason: run.solving_started_at ? stalledReason : stalledPreparingReason,
      };
    default:
      return undefined;
  }
}

/**
 * A run past its deadline (run-deadlines.ts) recorded as FAILED: RUNNING and stalled
 * (SOLVER_STOPPED), or QUEUED and never taken up (NOT_STARTED); any other run as it is. Called by
 * every read and by the solver, so whoever looks first records it, and all see the same.
 */
export async function settleIfStalled(
  ctx: Actor | string,
  run: RunRecord,
  now = Date.now(),
): Promise<RunRecord> {
  if (applyNeverStarted(run, now)) return (await failNeverStartedApply(ctx, run.id, now)) ?? run;
  const failure = overdueFailure(run, now);
  if (!failure) return run;
  const { run: after } = await failRun(
    ctx,
    run.id,
    failure,
    // Judged again on the run as it is now (read strongly consistent): one taken up, or whose
    // search began, since this (possibly stale) read is not overdue for that reason any more.
    (current) => overdueFailure(current, now)?.code === failure.code,
  );
  return after ?? run;
}

/** The run, `result` included when it SUCCEEDED. */
export async function getRun(ctx: Actor, id: string): Promise<OptimizationRun> {
  const stored = await runStore.of(ctx).get(id.toLowerCase());
  if (!stored) throw new OptimizationRunError('not-found');
  const run = await settleIfStalled(ctx, stored);
  const plan = run.status === 'SUCCEEDED' ? await readPlan(ctx, run.id) : undefined;
  return representRun(run, plan);
}

/** Newest first, through the list's creation index (optimization-run.list.ts); no `result`. */
export async function listRuns(
  ctx: Actor,
  query: { page?: number | undefined; size?: number | undefined; status?: RunStatus | undefined },
) {
  const { items, total } = await runStore.of(ctx).page({
    order: [{ field: 'created_at', direction: 'desc' }],
    ...(query.status ? { segments: [query.status] } : {}),
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
  });
  const settled = await Promise.all(items.map((run) => settleIfStalled(ctx, run)));
  return { items: settled.map((run) => representRun(run)), page: pageOf(total, query) };
}

/**
 * QUEUED or RUNNING → CANCELLED (a RUNNING run's solver finishes its search, but its answer is
 * discarded: its write is conditional on the run still being RUNNING). Cancelling a CANCELLED run
 * again changes nothing and answers it (a retried request is safe); a SUCCEEDED or FAILED run is
 * 409 resource-conflict with `data.status`.
 */
export async function cancelRun(ctx: Actor, id: string): Promise<OptimizationRun> {
  const runId = id.toLowerCase();
  const stored = await runStore.of(ctx).get(runId);
  if (!stored) throw new OptimizationRunError('not-found');
  await settleIfStalled(ctx, stored);
  const { run } = await moveRun(ctx, runId, {
    next: (current, now) => {
      if (current.status !== 'QUEUED' && current.status !== 'RUNNING') return undefined;
      const next: RunRecord = { ...current, status: 'CANCELLED', finished_at: now };
      delete next.solver_message_id;
      return next;
    },
    event: (next) => domainEvent(ctx, 'optimization_run.cancelled', runResource(runId), runEventObject(next)),
  });
  if (!run) throw new OptimizationRunError('not-found');
  if (run.status !== 'CANCELLED') {
    throw new OptimizationRunError('conflict', {
      detail: `The run is ${run.status}: only a QUEUED or RUNNING run can be cancelled.`,
      data: { reason: 'run_finished', status: run.status },
    });
  }
  return representRun(run);
}
