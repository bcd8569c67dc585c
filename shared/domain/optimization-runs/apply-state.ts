/**
 * What the apply job's parts share (apply-job.ts runs it, apply-undo.ts undoes it): the job as
 * prepared, how many writes run at once, and the run's application as it moves — quietly (taking
 * the job up, progress, the decision to undo) or with its event (the end).
 */

import { DataError } from '../../data/data-error.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { transactWrite } from '../../data/table.ts';
import { systemEvent } from '../../events/domain-event.ts';
import type { ApplyPlan, TourPlan } from './apply-plan.ts';
import type { Writer } from './apply-writes.ts';
import type { RunPlan, RunRecord } from './optimization-run.record.ts';
import { runEventObject, runResource } from './optimization-run.representation.ts';
import { runStore } from './optimization-run.store.ts';
import { applyStartSeconds, type RunApplication } from './run-application.ts';
import { moveRun } from './run-transitions.ts';

/** Records written at once. */
const parallelWrites = 8;

/** Everything the phases need. */
export interface Job {
  workspaceId: string;
  run: RunRecord;
  plan: RunPlan;
  steps: ApplyPlan;
  writer: Writer;
  /** Day of each planned shift's start (the date of a tour this apply creates). */
  shiftDays: Map<string, string>;
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

/** Runs `task` over `items`, `parallelWrites` at a time; the first failure stops taking new ones. */
export async function eachLimited<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
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

/** The day of a tour the apply creates: its shift's start day. */
export function tourDate(job: Job, tour: TourPlan): string {
  return job.shiftDays.get(tour.shiftId ?? '') ?? new Date().toISOString().slice(0, 10);
}

/** The run leaves APPLYING, with its event: applied, or apply_failed (CONFLICT, FAILED). */
export async function finish(
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

/** An apply requested over `applyStartSeconds` ago that no worker took up (its hand-over was lost). */
export function applyNeverStarted(run: RunRecord, now = Date.now()): boolean {
  const application = run.application;
  return (
    application?.status === 'APPLYING' &&
    !application.worker_message_id &&
    Date.parse(application.requested_at) + applyStartSeconds * 1000 < now
  );
}

/**
 * Records such an apply FAILED (a read does, as a read records a stalled run): no worker took it
 * up, so nothing of it was written. Conditional on that still holding when written.
 */
export async function failNeverStartedApply(
  scope: StoreScope,
  runId: string,
  now = Date.now(),
): Promise<RunRecord | undefined> {
  const { run } = await moveRun(scope, runId, {
    next: (current, at) =>
      applyNeverStarted(current, now) && current.application
        ? {
            ...current,
            application: {
              ...current.application,
              status: 'FAILED',
              finished_at: at,
              failure_reason:
                `No worker took the apply up within ${applyStartSeconds / 60} minutes; nothing of it was written. ` +
                'Apply the run again.',
            },
          }
        : undefined,
    event: (next) =>
      systemEvent(
        typeof scope === 'string' ? scope : scope.workspaceId,
        'optimization_run.apply_failed',
        runResource(next.id),
        runEventObject(next),
      ),
  });
  return run;
}
