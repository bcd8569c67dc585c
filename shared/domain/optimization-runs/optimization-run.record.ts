/**
 * A run as stored: the published fields (optimization-run.schema.ts) plus what only the service
 * reads. The plan itself (routes, cases left out, and what the run read, for apply) is an item
 * of its own (RunPlan), so the run stays small for lists and events.
 */
import type { PlannedRoute } from '../scheduling/planning-result.ts';
import type { UnassignedReason } from '../scheduling/unassigned-reasons.ts';
import type { FailureCode, RunStatus } from './optimization-run-statuses.ts';

export interface RunSummary {
  assigned: number;
  unassigned: number;
  distance_m: number;
  travel_duration: string;
  solve_ms: number;
}

export interface RunRecord {
  id: string;
  status: RunStatus;
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
  /** An apply in progress (apply.ts): when it claimed the run, and who. */
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
}

/** A PLANNED tour of a planned shift, as read: apply replaces it (or restores it). */
export interface TourBasis {
  v: number;
  shift_id: string;
  stops: Array<{ case_id: string; planned_arrival?: string }>;
  driver_id?: string;
  vehicle_id?: string;
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
