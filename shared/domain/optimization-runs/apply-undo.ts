/**
 * Undoing an apply (apply-job.ts): once a conflict is found — or its dead letter says it cannot be
 * finished — the decision is recorded on the run, then every write of the attempt's journal is
 * undone and the run leaves APPLYING as CONFLICT (or FAILED). A receive that takes the job up again
 * after a crash finds the decision and goes on undoing: no later receive carries a half-undone
 * apply forward.
 */

import { tourStore } from '../tours/tour.store.ts';
import { canonicalStops } from '../tours/tour-stops.ts';
import { ApplyConflict, type Ref, uniqueRefs } from './apply-conflicts.ts';
import type { CasePlan, TourPlan, TourState } from './apply-plan.ts';
import { eachLimited, finish, type Job, tourDate, updateApplication } from './apply-state.ts';
import { caseHolds, tourHolds, writeCase, writeTour } from './apply-writes.ts';
import { runStore } from './optimization-run.store.ts';

/** Records the decision to undo (with the conflicts) on the run, unless another receive decided first. */
export async function decideToUndo(job: Job, refs: readonly Ref[]): Promise<Ref[]> {
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
 * case is ever on two open tours. A record someone changed after the apply wrote it is still undone
 * when what the apply wrote is untouched (their change is kept); one whose planning fields they
 * changed is left (undoing would lose their change) and named in `not_restored`.
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
        { restored: true },
        caseHolds(entry.target),
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
      const last = [...tour.releases, ...tour.claims][(entry?.steps_done ?? 0) - 1];
      await writeTour(
        writer,
        ref,
        state,
        -1,
        tourDate(job, tour),
        state ? {} : { restored: true },
        last ? tourHolds(last, tour.original?.status ?? 'PLANNED') : undefined,
      );
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

export function originalState(tour: TourPlan): TourState {
  const original = tour.original;
  return {
    stops: canonicalStops(original?.stops ?? []),
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

export async function undoAndFinish(
  job: Job,
  conflicts: readonly Ref[],
  status: 'CONFLICT' | 'FAILED',
  reason?: string,
) {
  // The journal, not what this receive remembers, says what was written (a write whose answer was lost may have landed).
  const journal = await job.writer.journal.read();
  job.writer.entries.clear();
  for (const [key, entry] of journal) job.writer.entries.set(key, entry);
  const notRestored = await undo(job);
  await finish(job, status, {
    ...(conflicts.length > 0 ? { conflicts: uniqueRefs(conflicts) } : {}),
    ...(notRestored.length > 0 ? { not_restored: uniqueRefs(notRestored) } : {}),
    ...(reason ? { failure_reason: reason } : {}),
  });
}
