/**
 * A run as stored: the published fields (optimization-run.schema.ts) plus what only the service
 * reads. The plan itself (routes, cases left out, and what the run read, for apply) is an item
 * of its own (RunPlan), so the run stays small for lists and events.
 */
import type { ScheduleLock } from '../cases/case-enums.ts';
import type { PlannedRoute } from '../scheduling/planning-result.ts';
import type { UnassignedReason } from '../scheduling/unassigned-reasons.ts';
import type { StoredStop } from '../tours/tour.schema.ts';
import type { RunMode } from './optimization-run.schema.ts';
import type { FailureCode, RunStatus } from './optimization-run-statuses.ts';
import type { RunApplication } from './run-application.ts';

export interface RunSummary {
  assigned: number;
  unassigned: number;
  distance_m: number;
  travel_duration: string;
  solve_ms: number;
  /** REPAIR runs: remaining stops that changed place in their order, or technician. */
  reordered?: number;
  reassigned?: number;
}

export interface RunRecord {
  id: string;
  status: RunStatus;
  /** Absent on runs made before modes existed: PLAN. */
  mode?: RunMode;
  from: string;
  to: string;
  case_ids?: string[];
  shift_ids?: string[];
  time_limit_seconds: number;
  requested_by?: string;
  created_at: string;
  updated_at: string;
  started_at?: string;
  /**
   * When the solver began its search, after reading the records and the travel matrix: the run's
   * deadline counts from here (run-deadlines.ts). Internal: not published.
   */
  solving_started_at?: string;
  finished_at?: string;
  travel_model?: 'great-circle' | 'amazon-location';
  summary?: RunSummary;
  failure_code?: FailureCode;
  failure_reason?: string;
  applied_at?: string;
  applied_by?: string;
  lock_version: number;
  /** The SQS message whose receive took the run up: a redelivery of it means that receive died. */
  solver_message_id?: string;
  /** The apply of the plan, once requested (run-application.ts). */
  application?: RunApplication;
  /** An apply in progress before applies were background work: when it claimed the run, and who. */
  apply_claimed_at?: string;
  apply_claimed_by?: string;
}

/** What apply must find unchanged of a case, and the fields it restores if it has to undo. */
export interface CaseBasis {
  v: number;
  status: string;
  assignee_id?: string;
  scheduled_start?: string;
  scheduled_end?: string;
  /** Its schedule_lock, when not NONE: apply never moves it off what the lock keeps. */
  lock?: ScheduleLock;
  /**
   * A stop of a replaced tour pinned where it is (under way, done, or due before the run read it):
   * planned on its shift at its start, never written by apply, kept on its tour if left out.
   */
  pinned?: true;
  /** The case as read, less what time alone moves (planning-fingerprint.ts); absent on older plans. */
  fp?: string;
}

/**
 * A PLANNED tour the run read: a planned shift's (apply replaces it) or another shift's tour that
 * holds a case the run may plan elsewhere (apply takes the stop off it). Apply restores it if it
 * has to undo.
 */
export interface TourBasis {
  v: number;
  shift_id: string;
  /** As read (with their statuses and live fields); plans made before stops had statuses lack them. */
  stops: StoredStop[];
  driver_id?: string;
  vehicle_id?: string;
  /** IN_PROGRESS: a tour on the road a REPAIR run re-plans (absent: PLANNED). */
  status?: 'IN_PROGRESS';
}

export type Coordinates = [latitude: number, longitude: number];

export interface RunPlan {
  /** The run's id. */
  id: string;
  lock_version: number;
  routes: PlannedRoute[];
  unassigned: Array<{ case_id: string; reason: UnassignedReason }>;
  /** The lock_version of every case, shift and PLANNED tour of those shifts the run planned with. */
  basis: {
    cases: Record<string, CaseBasis>;
    shifts: Record<string, { v: number }>;
    tours: Record<string, TourBasis>;
  };
  /** Where things were when the run read them: what the map draws. */
  places: {
    cases: Record<string, Coordinates>;
    shifts: Record<string, { start: Coordinates; end: Coordinates }>;
  };
}
