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
import { getPrincipal } from '../../data/directory.store.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { withPlanningDefaults } from '../cases/case-planning.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore } from '../tours/tour.store.ts';
import { plannedTourOfShift } from '../tours/tour-claims.ts';
import { vehicleStore } from '../vehicles/vehicle.store.ts';
import { ApplyConflict, type Ref } from './apply-conflicts.ts';
import { journalOf } from './apply-journal.ts';
import { applyPlanOf, type CasePlan, type TourPlan, type TourState } from './apply-plan.ts';
import { eachLimited, finish, type Job, tourDate, updateApplication } from './apply-state.ts';
import { decideToUndo, originalState, undoAndFinish } from './apply-undo.ts';
import { tourHolds, writeCase, writeTour } from './apply-writes.ts';
import type { RunRecord } from './optimization-run.record.ts';
import { runStore } from './optimization-run.store.ts';
import { planningFingerprint } from './planning-fingerprint.ts';
import type { RunApplication } from './run-application.ts';
import { readPlan } from './run-plan.store.ts';

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
  /**
   * Tests only: the job stops, as a crash would, after `afterWrites` writes, and says so
   * (`crashed`) before it throws.
   */
  crashHook?(runId: string): Promise<{ afterWrites: number; crashed(): Promise<void> } | undefined>;
}

/** What a test hook throws to stop a job mid-way, as a crash would (nothing is cleaned up). */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

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
  const crash = await ports.crashHook?.(run.id);
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
        if (crash && writes >= crash.afterWrites) {
          await crash.crashed();
          throw new SimulatedCrash(`stopped after ${writes} writes`);
        }
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
 * A REPAIR run's tour on the road that the live day wrote since: only its ETAs moved, so it still
 * holds what the run planned from (or what this apply last wrote of it).
 */
function onlyEtasMoved(job: Job, id: string, current: Tour): boolean {
  const basis = job.plan.basis.tours[id];
  if (basis?.status !== 'IN_PROGRESS') return false;
  const tour = job.steps.tours.find((entry) => entry.id === id);
  const done = job.writer.entries.get(`tour:${id}`)?.steps_done ?? 0;
  const steps = tour ? [...tour.releases, ...tour.claims] : [];
  const expected =
    done > 0 && steps[done - 1]
      ? steps[done - 1]
      : originalState({ key: `tour:${id}`, original: basis, releases: [], claims: [] });
  return expected !== undefined && tourHolds(expected, 'IN_PROGRESS')(current);
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
    const current = cases[index];
    if (current?.lock_version !== expected && !(current && stillAsPlanned(job, id)(current))) {
      refs.push({ type: 'case', id });
    }
  });
  tourIds.forEach((id, index) => {
    const expected = expectedOf(`tour:${id}`, plan.basis.tours[id]?.v);
    const current = tours[index];
    if (current?.lock_version !== expected && !(current && onlyEtasMoved(job, id, current))) {
      refs.push({ type: 'tour', id });
    }
  });
  shiftIds.forEach((id, index) => {
    if (shifts[index]?.lock_version !== plan.basis.shifts[id]?.v) refs.push({ type: 'shift', id });
  });
  refs.push(...(await unusableRoutes(job)));
  // A shift that got a PLANNED tour since the run read it (one the apply did not create).
  for (const tour of steps.tours.filter((entry) => !entry.id && entry.shiftId)) {
    const holder = await plannedTourOfShift(workspaceId, tour.shiftId as string);
    const ours = writer.entries.get(tour.key)?.record_id;
    if (holder && holder !== ours) refs.push({ type: 'tour', id: holder });
  }
  if (refs.length > 0) throw new ApplyConflict(refs);
}

/**
 * Shifts whose route names a vehicle out of service (or gone) or a technician deactivated since the
 * run read them: a tour of the plan could not be written as a tour write checks it (tour-references.ts).
 */
async function unusableRoutes(job: Job): Promise<Ref[]> {
  const routes = job.plan.routes;
  const vehicleIds = [...new Set(routes.flatMap((route) => (route.vehicle_id ? [route.vehicle_id] : [])))];
  const userIds = [...new Set(routes.map((route) => route.user_id))];
  // One BatchGetItem per 100 vehicles; a technician per shift (a day has a shift per technician).
  const [vehicles, people] = await Promise.all([
    vehicleStore.of(job.workspaceId).getMany(vehicleIds),
    Promise.all(userIds.map((id) => getPrincipal(job.workspaceId, id))),
  ]);
  const inService = new Set(vehicles.flatMap((vehicle) => (vehicle?.active ? [vehicle.id] : [])));
  const working = new Set(
    people.flatMap((person, index) =>
      person?.kind === 'user' && person.status !== 'INACTIVE' ? [userIds[index]] : [],
    ),
  );
  return routes.flatMap((route) => {
    const vehicleGone = route.vehicle_id !== undefined && !inService.has(route.vehicle_id);
    return vehicleGone || !working.has(route.user_id) ? [{ type: 'shift' as const, id: route.shift_id }] : [];
  });
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
    {},
    stillAsPlanned(job, entry.id),
  );
}

/**
 * A case the apply has not written yet that is as the run read it but for what the service moves
 * with time (planning-fingerprint.ts: the sla_status the detector sets): no conflict.
 */
function stillAsPlanned(job: Job, id: string): (record: Case) => boolean {
  const fp = job.plan.basis.cases[id]?.fp;
  return (record) =>
    fp !== undefined &&
    !job.writer.entries.has(`case:${id}`) &&
    planningFingerprint(withPlanningDefaults(record)) === fp;
}

/** One tour's steps of a phase, in order, from where its journal says it stopped. */
async function tourPhase(job: Job, tour: TourPlan, phase: 'release' | 'claim'): Promise<void> {
  const all = [...tour.releases, ...tour.claims];
  const [from, to] = phase === 'release' ? [0, tour.releases.length] : [tour.releases.length, all.length];
  const ref = { key: tour.key, id: tour.id, readVersion: tour.original?.v };
  for (let step = from; step < to; step++) {
    if ((job.writer.entries.get(tour.key)?.steps_done ?? 0) > step) continue;
    // A tour on the road (REPAIR) that only the live day's ETAs changed since is as the plan needs it.
    const before = step === 0 ? tour.original && originalState(tour) : all[step - 1];
    const onTheRoad = tour.original?.status === 'IN_PROGRESS' && before;
    await writeTour(
      job.writer,
      ref,
      all[step] as TourState,
      step + 1,
      tourDate(job, tour),
      {},
      onTheRoad ? tourHolds(before, 'IN_PROGRESS') : undefined,
    );
  }
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
