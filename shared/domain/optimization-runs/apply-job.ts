/**
 * Applying a run's plan, as background work (API-DECISIONS.md, "Dispatch you can trust"): a
 * message of the apply queue per requested apply (apply-dispatch.consumer.ts), taken by the apply
 * worker (functions/apply-worker on AWS, the local stack's queue poller locally).
 *
 *   take the job (the run's application names this receive) ─► check every record the plan writes
 *   ─► reset ─► release ─► claim ─► schedule (apply-plan.ts) ─► APPLIED
 *        any record changed by someone else ─► record the decision ─► undo every write ─► CONFLICT
 *
 * All or nothing over more writes than one transaction holds, and after any crash: every write
 * carries its journal entry (apply-journal.ts), so the job, taken up again, finishes or undoes
 * exactly its own writes. Who takes it up again: SQS hands a receive that died out again after its
 * visibility timeout (the same message id: that receive died, on AWS because a live invocation
 * never outlives the visibility timeout, locally because the poller keeps it hidden while its
 * handler runs); a message that keeps failing reaches the dead-letter queue, whose handler undoes
 * and ends the apply FAILED. A message of another id finds the job taken and leaves it. A decision
 * to undo is recorded on the run before undoing, so no later receive carries a half-undone apply
 * forward. The run shows APPLIED only once every write is made.
 */
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { transactWrite } from '../../data/table.ts';
import { systemEvent } from '../../events/domain-event.ts';
import { caseStore } from '../cases/case.store.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import { tourStore } from '../tours/tour.store.ts';
import { plannedTourOfShift } from '../tours/tour-claims.ts';
import { ApplyConflict, type Ref, uniqueRefs } from './apply-conflicts.ts';
import { journalOf } from './apply-journal.ts';
import { type ApplyPlan, applyPlanOf, type CasePlan, type TourPlan, type TourState } from './apply-plan.ts';
import { type Writer, writeCase, writeTour } from './apply-writes.ts';
import type { RunPlan, RunRecord } from './optimization-run.record.ts';
import { runEventObject, runResource } from './optimization-run.representation.ts';
import { runStore } from './optimization-run.store.ts';
import type { RunApplication } from './run-application.ts';
import { readPlan } from './run-plan.store.ts';
import { moveRun } from './run-transitions.ts';

/** One message of the apply queue. */
export interface ApplyMessage {
  v: 1;
  workspace_id: string;
  run_id: string;
  attempt: number;
  trace?: string;
}

export interface ApplyJobPorts {
  log(message: string, details?: Record<string, unknown>): void;
  /** Tests only: the job stops, as a crash would, after this many writes. */
  crashAfterWrites?(runId: string): Promise<number | undefined>;
}

/** What a test hook throws to stop a job mid-way, as a crash would (nothing is cleaned up). */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

/** Records written at once. */
const parallelWrites = 8;
/** Writes between two updates of the run's progress. */
const progressEvery = 50;

function parseMessage(body: string): ApplyMessage | undefined {
  try {
    const message = JSON.parse(body) as Partial<ApplyMessage>;
    return typeof message.workspace_id === 'string' &&
      typeof message.run_id === 'string' &&
      typeof message.attempt === 'number'
      ? (message as ApplyMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets the run's application (no event: nothing a reader acts on changed), conditional on the
 * version read. Undefined when someone wrote the run since.
 */
export async function updateApplication(
  scope: StoreScope,
  run: RunRecord,
  change: (application: RunApplication) => RunApplication,
): Promise<RunRecord | undefined> {
  if (!run.application) return undefined;
  const next: RunRecord = {
    ...run,
    application: change(run.application),
    lock_version: run.lock_version + 1,
  };
  try {
    await transactWrite([
      {
        kind: 'update',
        key: runStore.of(scope).key(run.id),
        set: { application: next.application as RunApplication, lock_version: next.lock_version },
        expectedVersion: run.lock_version,
      },
    ]);
    return next;
  } catch (error) {
    if (error instanceof DataError && error.code === 'version-conflict') return undefined;
    throw error;
  }
}

/** The requester, as the actor of the apply's writes (their events and audit entries). */
function actorOf(workspaceId: string, application: RunApplication): Actor {
  return {
    workspaceId,
    principal: {
      id: application.requested_by ?? 'system',
      kind: 'user',
      workspaceId,
      roles: [],
      grants: new Set(),
    },
    requestId: application.request?.id ?? '',
    correlationId: application.request?.correlation_id ?? '',
  };
}

export async function processApplyMessage(
  body: string,
  receipt: { messageId: string },
  ports: ApplyJobPorts,
): Promise<void> {
  const message = parseMessage(body);
  if (!message) {
    ports.log('apply message unreadable; dropped', { messageId: receipt.messageId });
    return;
  }
  const { workspace_id: workspaceId, run_id: runId, attempt } = message;
  const run = await runStore.of(workspaceId).getConsistent(runId);
  const application = run?.application;
  if (!run || application?.status !== 'APPLYING' || application.attempt !== attempt) return;
  // Another receive works on it: if it dies, its own message comes back (and resumes the job).
  if (application.worker_message_id && application.worker_message_id !== receipt.messageId) return;
  const taken = application.worker_message_id
    ? run
    : await updateApplication(workspaceId, run, (current) => ({
        ...current,
        worker_message_id: receipt.messageId,
      }));
  if (!taken) throw new Error('the run changed while the apply was taken up; the message comes back');
  await runApplyJob(workspaceId, taken, ports);
}

/** Everything the phases need. */
interface Job {
  workspaceId: string;
  run: RunRecord;
  plan: RunPlan;
  steps: ApplyPlan;
  writer: Writer;
  /** Day of each planned shift's start (the date of a tour this apply creates). */
  shiftDays: Map<string, string>;
}

async function runApplyJob(workspaceId: string, run: RunRecord, ports: ApplyJobPorts): Promise<void> {
  const job = await prepare(workspaceId, run, ports);
  if (!job) return;
  if (run.application?.decision === 'ROLLBACK') {
    await undoAndFinish(job, run.application.conflicts ?? [], 'CONFLICT');
    return;
  }
  try {
    await checkAll(job);
    await eachLimited(casesOf(job, 'reset'), (entry) => caseStep(job, entry));
    await eachLimited(job.steps.tours, (tour) => tourPhase(job, tour, 'release'));
    await eachLimited(job.steps.tours, (tour) => tourPhase(job, tour, 'claim'));
    await eachLimited(casesOf(job, 'schedule'), (entry) => caseStep(job, entry));
  } catch (error) {
    if (!(error instanceof ApplyConflict)) throw error;
    const decided = await decideToUndo(job, error.refs);
    await undoAndFinish(job, decided, 'CONFLICT');
    return;
  }
  await finish(job, 'APPLIED');
}

async function prepare(workspaceId: string, run: RunRecord, ports: ApplyJobPorts): Promise<Job | undefined> {
  const application = run.application as RunApplication;
  const plan = await readPlan(workspaceId, run.id);
  if (!plan) {
    await finish({ workspaceId, run } as Job, 'FAILED', { failure_reason: 'The run has no plan stored.' });
    return undefined;
  }
  const journal = journalOf(workspaceId, run.id, application.attempt);
  const [entries, shifts] = await Promise.all([
    journal.read(),
    shiftStore.of(workspaceId).getManyConsistent(Object.keys(plan.basis.shifts)),
  ]);
  const steps = applyPlanOf(plan);
  const crashAt = await ports.crashAfterWrites?.(run.id);
  let writes = 0;
  const total =
    steps.cases.length +
    steps.tours.reduce((sum, tour) => sum + tour.releases.length + tour.claims.length, 0);
  const job: Job = {
    workspaceId,
    run,
    plan,
    steps,
    shiftDays: new Map(shifts.flatMap((shift) => (shift ? [[shift.id, shift.start.slice(0, 10)]] : []))),
    writer: {
      ctx: actorOf(workspaceId, application),
      journal,
      entries,
      async written() {
        writes++;
        if (crashAt !== undefined && writes >= crashAt)
          throw new SimulatedCrash(`stopped after ${writes} writes`);
        if (writes % progressEvery === 0) await reportProgress(job, Math.min(writes, total), total);
      },
    },
  };
  return job;
}

async function reportProgress(job: Job, done: number, total: number): Promise<void> {
  const fresh = await runStore.of(job.workspaceId).getConsistent(job.run.id);
  if (fresh?.application?.status !== 'APPLYING') return;
  await updateApplication(job.workspaceId, fresh, (current) => ({ ...current, progress: { done, total } }));
}

/**
 * Every record the plan writes, as it is now, against the version expected (the run's read, or
 * the journal's): every conflict at once, before anything (more) is written.
 */
async function checkAll(job: Job): Promise<void> {
  const { plan, steps, writer, workspaceId } = job;
  const expectedOf = (key: string, readVersion: number | undefined) =>
    writer.entries.get(key)?.written_version ?? readVersion;
  const caseIds = Object.keys(plan.basis.cases);
  const tourIds = Object.keys(plan.basis.tours);
  const shiftIds = Object.keys(plan.basis.shifts);
  const [cases, tours, shifts] = await Promise.all([
    caseStore.of(workspaceId).getManyConsistent(caseIds),
    tourStore.of(workspaceId).getManyConsistent(tourIds),
    shiftStore.of(workspaceId).getManyConsistent(shiftIds),
  ]);
  const refs: Ref[] = [];
  caseIds.forEach((id, index) => {
    const expected = expectedOf(`case:${id}`, plan.basis.cases[id]?.v);
    if (cases[index]?.lock_version !== expected) refs.push({ type: 'case', id });
  });
  tourIds.forEach((id, index) => {
    const expected = expectedOf(`tour:${id}`, plan.basis.tours[id]?.v);
    if (tours[index]?.lock_version !== expected) refs.push({ type: 'tour', id });
  });
  shiftIds.forEach((id, index) => {
    if (shifts[index]?.lock_version !== plan.basis.shifts[id]?.v) refs.push({ type: 'shift', id });
  });
  // A shift that got a PLANNED tour since the run read it (one the apply did not create).
  for (const tour of steps.tours.filter((entry) => !entry.id && entry.shiftId)) {
    const holder = await plannedTourOfShift(workspaceId, tour.shiftId as string);
    const ours = writer.entries.get(tour.key)?.record_id;
    if (holder && holder !== ours) refs.push({ type: 'tour', id: holder });
  }
  if (refs.length > 0) throw new ApplyConflict(refs);
}

const casesOf = (job: Job, phase: CasePlan['phase']) =>
  job.steps.cases.filter((entry) => entry.phase === phase);

async function caseStep(job: Job, entry: CasePlan): Promise<void> {
  if ((job.writer.entries.get(entry.key)?.steps_done ?? 0) >= 1) return;
  await writeCase(
    job.writer,
    { key: entry.key, id: entry.id, readVersion: entry.original.v },
    entry.target,
    1,
  );
}

function tourDate(job: Job, tour: TourPlan): string {
  return job.shiftDays.get(tour.shiftId ?? '') ?? new Date().toISOString().slice(0, 10);
}

/** One tour's steps of a phase, in order, from where its journal says it stopped. */
async function tourPhase(job: Job, tour: TourPlan, phase: 'release' | 'claim'): Promise<void> {
  const all = [...tour.releases, ...tour.claims];
  const [from, to] = phase === 'release' ? [0, tour.releases.length] : [tour.releases.length, all.length];
  const ref = { key: tour.key, id: tour.id, readVersion: tour.original?.v };
  for (let step = from; step < to; step++) {
    if ((job.writer.entries.get(tour.key)?.steps_done ?? 0) > step) continue;
    await writeTour(job.writer, ref, all[step] as TourState, step + 1, tourDate(job, tour));
  }
}

/** Runs `task` over `items`, `parallelWrites` at a time; the first failure stops taking new ones. */
async function eachLimited<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  await Promise.all(
    Array.from({ length: Math.min(parallelWrites, items.length) }, async () => {
      while (next < items.length && failure === undefined) {
        try {
          await task(items[next++] as T);
        } catch (error) {
          failure ??= error;
        }
      }
    }),
  );
  if (failure !== undefined) throw failure;
}

/** Records the decision to undo (with the conflicts) on the run, unless another receive decided first. */
async function decideToUndo(job: Job, refs: readonly Ref[]): Promise<Ref[]> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const fresh = await runStore.of(job.workspaceId).getConsistent(job.run.id);
    const application = fresh?.application;
    if (!fresh || application?.status !== 'APPLYING') return [...refs];
    if (application.decision === 'ROLLBACK') return application.conflicts ?? [...refs];
    const decided = await updateApplication(job.workspaceId, fresh, (current) => ({
      ...current,
      decision: 'ROLLBACK',
      conflicts: uniqueRefs(refs),
    }));
    if (decided) return uniqueRefs(refs);
  }
  return uniqueRefs(refs);
}

/**
 * Undoes every write of the journal, newest phase first: cases back to what the run read; tours
 * first give up what they gained (created ones are deleted), then take back what they had, so no
 * case is ever on two open tours. A record someone changed after the apply wrote it is left (it
 * would lose their change) and named in `not_restored`.
 */
async function undo(job: Job): Promise<Ref[]> {
  const { writer, steps } = job;
  const notRestored: Ref[] = [];
  const undone = async (ref: Ref, write: () => Promise<void>) => {
    try {
      await write();
    } catch (error) {
      if (!(error instanceof ApplyConflict)) throw error;
      notRestored.push(ref);
    }
  };
  const written = <T extends { key: string }>(items: readonly T[]) =>
    items.filter((item) => writer.entries.has(item.key) && !writer.entries.get(item.key)?.restored);
  await eachLimited(written(steps.cases), (entry) =>
    undone({ type: 'case', id: entry.id }, () =>
      writeCase(
        writer,
        { key: entry.key, id: entry.id, readVersion: entry.original.v },
        originalTarget(entry),
        0,
        {
          restored: true,
        },
      ),
    ),
  );
  const tours = written(steps.tours);
  const refOf = (tour: TourPlan): Ref => ({
    type: 'tour',
    id: writer.entries.get(tour.key)?.record_id ?? tour.id ?? '',
  });
  // Stage 1: give up what was gained (a created tour goes).
  await eachLimited(tours, (tour) =>
    undone(refOf(tour), async () => {
      const entry = writer.entries.get(tour.key);
      if (entry?.steps_done === -1) return;
      const ref = { key: tour.key, id: tour.id, readVersion: tour.original?.v };
      const state = tour.original ? await keptOfOriginal(job, tour) : undefined;
      await writeTour(writer, ref, state, -1, tourDate(job, tour), state ? {} : { restored: true });
    }),
  );
  // Stage 2: take back what was given up.
  await eachLimited(
    tours.filter((tour) => tour.original && !writer.entries.get(tour.key)?.restored),
    (tour) =>
      undone(refOf(tour), () =>
        writeTour(
          writer,
          { key: tour.key, id: tour.id, readVersion: tour.original?.v },
          originalState(tour),
          -1,
          tourDate(job, tour),
          { restored: true },
        ),
      ),
  );
  return notRestored;
}

const originalTarget = (entry: CasePlan) => ({
  status: entry.original.status as 'NEW' | 'SCHEDULED',
  ...(entry.original.assignee_id ? { assignee_id: entry.original.assignee_id } : {}),
  ...(entry.original.scheduled_start ? { scheduled_start: entry.original.scheduled_start } : {}),
  ...(entry.original.scheduled_end ? { scheduled_end: entry.original.scheduled_end } : {}),
});

function originalState(tour: TourPlan): TourState {
  const original = tour.original;
  return {
    stops: original?.stops ?? [],
    ...(original?.driver_id ? { driver_id: original.driver_id } : {}),
    ...(original?.vehicle_id ? { vehicle_id: original.vehicle_id } : {}),
    ...(original?.shift_id ? { shift_id: original.shift_id } : {}),
  };
}

/** The tour as written now, keeping only the stops it had when the run read it. */
async function keptOfOriginal(job: Job, tour: TourPlan): Promise<TourState> {
  const entry = job.writer.entries.get(tour.key);
  const current = entry ? await tourStore.of(job.workspaceId).getConsistent(entry.record_id) : undefined;
  const had = new Set((tour.original?.stops ?? []).map((stop) => stop.case_id));
  const stops = (current?.stops ?? []).filter((stop) => had.has(stop.case_id));
  return { ...originalState(tour), stops };
}

async function undoAndFinish(
  job: Job,
  conflicts: readonly Ref[],
  status: 'CONFLICT' | 'FAILED',
  reason?: string,
) {
  const notRestored = await undo(job);
  await finish(job, status, {
    ...(conflicts.length > 0 ? { conflicts: uniqueRefs(conflicts) } : {}),
    ...(notRestored.length > 0 ? { not_restored: uniqueRefs(notRestored) } : {}),
    ...(reason ? { failure_reason: reason } : {}),
  });
}

/** The run leaves APPLYING, with its event: applied, or apply_failed (CONFLICT, FAILED). */
async function finish(
  job: Pick<Job, 'workspaceId' | 'run'>,
  status: 'APPLIED' | 'CONFLICT' | 'FAILED',
  details: Partial<RunApplication> = {},
): Promise<void> {
  const attempt = job.run.application?.attempt;
  await moveRun(job.workspaceId, job.run.id, {
    next: (current, now) => {
      const application = current.application;
      if (application?.status !== 'APPLYING' || application.attempt !== attempt) return undefined;
      const next: RunRecord = {
        ...current,
        application: { ...application, ...details, status, finished_at: now },
      };
      if (status === 'APPLIED') {
        next.applied_at = now;
        if (application.requested_by) next.applied_by = application.requested_by;
      }
      return next;
    },
    event: (next) =>
      systemEvent(
        job.workspaceId,
        status === 'APPLIED' ? 'optimization_run.applied' : 'optimization_run.apply_failed',
        runResource(next.id),
        runEventObject(next),
      ),
  });
}

/**
 * A message of the apply queue's dead-letter queue: its receives kept failing (the table
 * unreachable, a bug). The apply is undone (as far as its journal goes) and ends FAILED.
 */
export async function processDeadApplyMessage(body: string, ports: ApplyJobPorts): Promise<void> {
  const message = parseMessage(body);
  if (!message) return;
  const run = await runStore.of(message.workspace_id).getConsistent(message.run_id);
  if (run?.application?.status !== 'APPLYING' || run.application.attempt !== message.attempt) return;
  ports.log('apply message dead-lettered; undoing the apply', { runId: message.run_id });
  const job = await prepare(message.workspace_id, run, ports);
  if (!job) return;
  await undoAndFinish(
    job,
    run.application.conflicts ?? [],
    'FAILED',
    'The apply kept failing and was undone: nothing of it is written. Apply again, or create a new run.',
  );
}
