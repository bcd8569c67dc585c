/**
 * The apply of a run's plan as the run shows it (API-DECISIONS.md, "Dispatch you can trust"):
 * applying is background work (apply-job.ts), and `application` says where it stands:
 *
 *   POST …/apply ──► APPLYING ──► APPLIED    every write made (optimization_run.applied)
 *                        ├──────► CONFLICT   records changed since the run read them: nothing
 *                        │                   written (what was written is undone first)
 *                        └──────► FAILED     the service could not finish it: nothing written
 *
 * A run is applied at most once: another apply while APPLYING or after APPLIED is 409; after
 * CONFLICT or FAILED a new apply checks everything again (`attempt` counts them, and each attempt
 * keeps its own journal).
 */
import type { Ref } from './apply-conflicts.ts';

export const applicationStatuses = ['APPLYING', 'APPLIED', 'CONFLICT', 'FAILED'] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

export interface RunApplication {
  status: ApplicationStatus;
  requested_at: string;
  requested_by?: string;
  finished_at?: string;
  /** CONFLICT: the cases, tours and shifts written since the run read them. */
  conflicts?: Ref[];
  /** Records someone changed after this apply wrote them, which undoing it could not restore. */
  not_restored?: Ref[];
  /** FAILED: why, in words. */
  failure_reason?: string;
  /** While APPLYING: record writes done of those to do (undoing counts as writes too). */
  progress?: { done: number; total: number };
  /** Internal: the apply request's ids, which the apply's writes carry in their events. */
  request?: { id: string; correlation_id: string };
  /** Which apply of the run this is: 1, then 2 after a CONFLICT or FAILED one (a journal per attempt). */
  attempt: number;
  /** Internal: the queue message whose receive works on it (a redelivery of it means that receive died). */
  worker_message_id?: string;
  /** Internal: a conflict was found; every worker undoes from here on. */
  decision?: 'ROLLBACK';
}

/** Seconds an APPLYING apply may wait for a worker before a read records it FAILED (nothing written). */
export const applyStartSeconds = 300;

/** The application as published: internal fields dropped. */
export function publishedApplication(
  application: RunApplication,
): Omit<RunApplication, 'worker_message_id' | 'decision' | 'request'> {
  const { worker_message_id: _worker, decision: _decision, request: _request, ...published } = application;
  if (published.status !== 'APPLYING') delete published.progress;
  return published;
}
