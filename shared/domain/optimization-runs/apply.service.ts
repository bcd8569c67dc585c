/**
 * Applying a run's plan (POST …/optimization-runs/{run_id}/apply), all or nothing over more
 * writes than one DynamoDB transaction holds (100 items; a case's write alone is up to ~8 with
 * its event and list counters). docs/scheduling.md tells the design; in short:
 *
 * 1. Check: the run is SUCCEEDED and not applied or being applied; every case, shift and PLANNED
 *    tour the run planned with still has the version it read (apply-plan.ts). Any other: 409
 *    resource-conflict naming them in `data.conflicts`, nothing written.
 * 2. Claim the run (a conditional write without event): a concurrent apply gets 409.
 * 3. Write each tour, then each case, through its own service (events, audit, list indexes),
 *    each conditional on the version checked.
 * 4. A write refused in the meantime (a late conflict: someone wrote the record between 1 and 3)
 *    undoes every write made (each restored conditionally on the version written, through the
 *    same services), releases the claim and answers the same 409.
 * 5. Otherwise the run is marked applied (optimization_run.applied) and the claim goes with it.
 *
 * A claim older than `claimSeconds` belongs to an apply that died mid-way (the function timed
 * out or crashed): the next apply takes it over and finishes the writes still to do, recognising
 * those already done (one version later, in the target state).
 */
import type { Actor } from '../../auth/actor.ts';
import { domainEvent } from '../../events/domain-event.ts';
import type { Case } from '../cases/case.schema.ts';
import { updateCase } from '../cases/case.service.ts';
import { caseStore } from '../cases/case.store.ts';
import { DomainError } from '../domain-error.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { createTour, deleteTour, updateTour } from '../tours/tour.service.ts';
import { tourStore, toursOfShift } from '../tours/tour.store.ts';
import {
  type CaseWrite,
  newTourState,
  type PlannedWrite,
  plannedWrites,
  stateOf,
  type TourCreate,
  type TourReplace,
} from './apply-plan.ts';
import type { RunPlan, RunRecord } from './optimization-run.record.ts';
import { representRun, runEventObject, runResource } from './optimization-run.representation.ts';
import type { OptimizationRun } from './optimization-run.schema.ts';
import { settleIfStalled } from './optimization-run.service.ts';
import { planStore, runStore, writeClaim } from './optimization-run.store.ts';
import { OptimizationRunError } from './optimization-run-error.ts';
import { moveRun } from './run-transitions.ts';

/** An apply's claim older than this is abandoned (the API function's timeout is 10 s). */
export const claimSeconds = 60;
/** Records written at once. */
const parallelWrites = 8;

type Ref = { type: 'case' | 'tour' | 'shift'; id: string };
/** A write as performed: what it needs to be undone. */
type Written = { write: PlannedWrite; tourId?: string };

/** The record a write is about; a tour that could not be created names its shift. */
const refOf = (write: PlannedWrite, tourId?: string): Ref => {
  if (write.type === 'case') return { type: 'case', id: write.id };
  if (write.type === 'tour') return { type: 'tour', id: write.id };
  return tourId ? { type: 'tour', id: tourId } : { type: 'shift', id: write.shiftId };
};

function conflictError(conflicts: Ref[], extra: Record<string, unknown> = {}) {
  return new OptimizationRunError('conflict', {
    detail:
      'Records the run planned with changed since it read them; nothing was applied. Create a new run to plan ' +
      'with the current state.',
    data: { reason: 'records_changed', conflicts, ...extra },
  });
}

const stateError = (reason: string, detail: string, status: string) =>
  new OptimizationRunError('conflict', { detail, data: { reason, status } });

async function runToApply(ctx: Actor, runId: string): Promise<RunRecord> {
  const stored = await runStore.of(ctx).getConsistent(runId);
  if (!stored) throw new OptimizationRunError('not-found');
  const run = await settleIfStalled(ctx, stored);
  if (run.applied_at)
    throw stateError('run_applied', 'The run was applied already; a run is applied once.', run.status);
  if (run.status !== 'SUCCEEDED') {
    throw stateError(
      'run_not_succeeded',
      `The run is ${run.status}: only a SUCCEEDED run has a plan.`,
      run.status,
    );
  }
  const claimed = run.apply_claimed_at ? Date.now() - Date.parse(run.apply_claimed_at) : undefined;
  if (claimed !== undefined && claimed < claimSeconds * 1000) {
    throw stateError('apply_in_progress', 'Another apply of this run is in progress.', run.status);
  }
  return run;
}

interface Assessment {
  todo: PlannedWrite[];
  done: Written[];
  conflicts: Ref[];
  shiftStarts: Map<string, string>;
}

/** Step 1: every write against the records as they are now. */
async function assess(ctx: Actor, plan: RunPlan, writes: readonly PlannedWrite[]): Promise<Assessment> {
  const caseIds = writes.filter((w): w is CaseWrite => w.type === 'case').map((w) => w.id);
  const tourIds = writes.filter((w): w is TourReplace => w.type === 'tour').map((w) => w.id);
  const shiftIds = Object.keys(plan.basis.shifts);
  const [cases, tours, shifts, shiftTours] = await Promise.all([
    caseStore.of(ctx).getMany(caseIds),
    tourStore.of(ctx).getMany(tourIds),
    shiftStore.of(ctx).getMany(shiftIds),
    Promise.all(shiftIds.map((id) => toursOfShift(ctx, id))),
  ]);
  const caseById = new Map(cases.flatMap((record) => (record ? [[record.id, record]] : [])));
  const tourById = new Map(tours.flatMap((tour) => (tour ? [[tour.id, tour]] : [])));
  const result: Assessment = { todo: [], done: [], conflicts: [], shiftStarts: new Map() };
  shiftIds.forEach((id, index) => {
    const shift = shifts[index];
    if (!shift || shift.lock_version !== plan.basis.shifts[id]?.v)
      result.conflicts.push({ type: 'shift', id });
    else result.shiftStarts.set(id, shift.start);
    // A PLANNED tour of the shift the run did not read: someone planned the shift since.
    for (const tour of shiftTours[index] ?? []) {
      if (tour.status === 'PLANNED' && !plan.basis.tours[tour.id] && !isOwnNewTour(writes, id, tour)) {
        result.conflicts.push({ type: 'tour', id: tour.id });
      }
    }
  });
  writes.forEach((write, index) => {
    if (write.type === 'new-tour') {
      const planned = (shiftTours[shiftIds.indexOf(write.shiftId)] ?? []).filter(
        (t) => t.status === 'PLANNED',
      );
      const { state, tour } = newTourState(write, planned);
      if (state === 'todo') result.todo.push(write);
      else if (state === 'done') result.done.push({ write, ...(tour ? { tourId: tour.id } : {}) });
      return;
    }
    const current = write.type === 'case' ? caseById.get(write.id) : tourById.get(write.id);
    const state = stateOf(write, current as Case | Tour | undefined);
    if (state === 'todo') result.todo.push(write);
    else if (state === 'done') result.done.push({ write });
    else result.conflicts.push(refOf(write));
    void index;
  });
  return result;
}

function isOwnNewTour(writes: readonly PlannedWrite[], shiftId: string, tour: Tour): boolean {
  const write = writes.find((w): w is TourCreate => w.type === 'new-tour' && w.shiftId === shiftId);
  return write !== undefined && newTourState(write, [tour]).state === 'done';
}

/** Step 3: one write through its service; resolves with what undoing it needs. */
async function perform(ctx: Actor, write: PlannedWrite, shiftStarts: Map<string, string>): Promise<Written> {
  switch (write.type) {
    case 'case':
      await updateCase(ctx, write.id, { ...write.target, lock_version: write.expected });
      return { write };
    case 'tour':
      await updateTour(ctx, write.id, {
        stops: write.target.stops,
        driver_id: write.target.driver_id ?? null,
        vehicle_id: write.target.vehicle_id ?? null,
        shift_id: write.target.shift_id,
        lock_version: write.expected,
      });
      return { write };
    case 'new-tour': {
      const tour = await createTour(ctx, {
        date: (shiftStarts.get(write.shiftId) ?? new Date().toISOString()).slice(0, 10),
        driver_id: write.target.driver_id,
        ...(write.target.vehicle_id ? { vehicle_id: write.target.vehicle_id } : {}),
        shift_id: write.shiftId,
        stops: write.target.stops,
        status: 'PLANNED',
      });
      return { write, tourId: tour.id };
    }
  }
}

/** Step 4: restores one written record, conditionally on the version this apply wrote. */
async function undo(ctx: Actor, { write, tourId }: Written): Promise<void> {
  if (write.type === 'case') {
    const { original } = write;
    await updateCase(ctx, write.id, {
      assignee_id: original.assignee_id ?? null,
      scheduled_start: original.scheduled_start ?? null,
      scheduled_end: original.scheduled_end ?? null,
      status: original.status as Case['status'],
      lock_version: write.expected + 1,
    });
  } else if (write.type === 'tour') {
    const { original } = write;
    await updateTour(ctx, write.id, {
      stops: original.stops,
      driver_id: original.driver_id ?? null,
      vehicle_id: original.vehicle_id ?? null,
      shift_id: original.shift_id || null,
      lock_version: write.expected + 1,
    });
  } else if (tourId) {
    await deleteTour(ctx, tourId);
  }
}

/** Runs `task` over `items`, `limit` at a time; every item is attempted. */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++] as T);
    }),
  );
}

/** A refusal that means "this record is not as the plan needs it": a late conflict. */
const isLateConflict = (error: unknown) =>
  error instanceof DomainError &&
  ['version-conflict', 'not-found', 'invalid', 'conflict'].includes(error.code);

async function rollBack(ctx: Actor, written: readonly Written[]): Promise<Ref[]> {
  const notRestored: Ref[] = [];
  await eachLimited([...written].reverse(), parallelWrites, async (entry) => {
    try {
      await undo(ctx, entry);
    } catch {
      notRestored.push(refOf(entry.write, entry.tourId));
    }
  });
  return notRestored;
}

export async function applyRun(ctx: Actor, id: string): Promise<OptimizationRun> {
  const runId = id.toLowerCase();
  const run = await runToApply(ctx, runId);
  const plan = await planStore.of(ctx).get(runId);
  if (!plan) throw new OptimizationRunError('failed', { detail: 'The run has no plan stored.' });
  const writes = plannedWrites(plan);
  const { todo, done, conflicts, shiftStarts } = await assess(ctx, plan, writes);
  const taking = run.apply_claimed_at !== undefined;
  if (conflicts.length > 0) {
    // An abandoned apply left writes behind: they go, so that nothing stays applied.
    const notRestored = taking ? await rollBack(ctx, done) : [];
    if (taking) await writeClaim(ctx, run, undefined).catch(() => undefined);
    throw conflictError(conflicts, notRestored.length > 0 ? { not_restored: notRestored } : {});
  }
  let claimed: RunRecord;
  try {
    claimed = await writeClaim(ctx, run, { at: new Date().toISOString(), by: ctx.principal.id });
  } catch {
    throw stateError('apply_in_progress', 'Another apply of this run is in progress.', run.status);
  }
  const written: Written[] = [...done];
  const late: Ref[] = [];
  let failure: unknown;
  const step = async (write: PlannedWrite) => {
    if (failure !== undefined || late.length > 0) return;
    try {
      written.push(await perform(ctx, write, shiftStarts));
    } catch (error) {
      if (isLateConflict(error)) late.push(refOf(write));
      else failure = error;
    }
  };
  // Tours first: a refused tour (its vehicle taken out of service) leaves no case to restore.
  await eachLimited(
    todo.filter((w) => w.type !== 'case'),
    parallelWrites,
    step,
  );
  await eachLimited(
    todo.filter((w) => w.type === 'case'),
    parallelWrites,
    step,
  );
  if (late.length > 0 || failure !== undefined) {
    const notRestored = await rollBack(ctx, written);
    await writeClaim(ctx, claimed, undefined).catch(() => undefined);
    if (failure !== undefined) throw failure;
    throw conflictError(late, notRestored.length > 0 ? { not_restored: notRestored } : {});
  }
  const { run: applied } = await moveRun(ctx, runId, {
    next: (current, now) => {
      if (current.apply_claimed_at !== claimed.apply_claimed_at || current.applied_at) return undefined;
      const next: RunRecord = { ...current, applied_at: now, applied_by: ctx.principal.id };
      delete next.apply_claimed_at;
      delete next.apply_claimed_by;
      return next;
    },
    event: (next) => domainEvent(ctx, 'optimization_run.applied', runResource(runId), runEventObject(next)),
  });
  return representRun(applied ?? claimed, plan);
}
