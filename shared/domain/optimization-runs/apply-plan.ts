/**
 * What applying a plan writes (apply.service.ts runs it), derived from the run's plan alone:
 *
 * - per planned case: assignee_id (the shift's user), scheduled_start/end (the stop's start and
 *   end), status SCHEDULED, on the version the run read;
 * - per planned shift: its PLANNED tour (the one the run read) gets the route's stops with
 *   planned_arrival (none: [], unless it is already empty), or a PLANNED tour is created for a
 *   shift that has a route and had none.
 *
 * Each write knows the version it expects, the state it sets and the state it restores, so a
 * record can be told apart as still to write (`todo`: the version read), already written by this
 * apply (`done`: one version later and in the target state: an apply that crashed and is taken
 * over), or changed by someone else (`conflict`).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Case } from '../cases/case.schema.ts';
import type { PlannedRoute } from '../scheduling/planning-result.ts';
import type { Tour, TourStop } from '../tours/tour.schema.ts';
import type { CaseBasis, RunPlan, TourBasis } from './optimization-run.record.ts';

export interface CaseWrite {
  type: 'case';
  id: string;
  expected: number;
  target: { assignee_id: string; scheduled_start: string; scheduled_end: string; status: 'SCHEDULED' };
  original: CaseBasis;
}

export interface TourReplace {
  type: 'tour';
  id: string;
  expected: number;
  target: {
    stops: TourStop[];
    driver_id: string | undefined;
    vehicle_id: string | undefined;
    shift_id: string;
  };
  original: TourBasis;
}

export interface TourCreate {
  type: 'new-tour';
  shiftId: string;
  target: { stops: TourStop[]; driver_id: string; vehicle_id: string | undefined; shift_id: string };
}

export type PlannedWrite = CaseWrite | TourReplace | TourCreate;

export type WriteState = 'todo' | 'done' | 'conflict';

const stopsOf = (route: PlannedRoute): TourStop[] =>
  route.stops.map((stop) => ({ case_id: stop.case_id, planned_arrival: stop.arrival }));

export function plannedWrites(plan: RunPlan): PlannedWrite[] {
  const routeOf = new Map(plan.routes.map((route) => [route.shift_id, route]));
  const tourOf = new Map(Object.entries(plan.basis.tours).map(([id, tour]) => [tour.shift_id, { id, tour }]));
  const tours: PlannedWrite[] = Object.keys(plan.basis.shifts).flatMap((shiftId): PlannedWrite[] => {
    const route = routeOf.get(shiftId);
    const existing = tourOf.get(shiftId);
    if (existing && (route || existing.tour.stops.length > 0)) {
      return [
        {
          type: 'tour',
          id: existing.id,
          expected: existing.tour.v,
          target: {
            stops: route ? stopsOf(route) : [],
            driver_id: route?.user_id ?? existing.tour.driver_id,
            vehicle_id: route ? route.vehicle_id : existing.tour.vehicle_id,
            shift_id: shiftId,
          },
          original: existing.tour,
        },
      ];
    }
    if (!existing && route) {
      return [
        {
          type: 'new-tour',
          shiftId,
          target: {
            stops: stopsOf(route),
            driver_id: route.user_id,
            vehicle_id: route.vehicle_id,
            shift_id: shiftId,
          },
        },
      ];
    }
    return [];
  });
  const cases: PlannedWrite[] = plan.routes.flatMap((route) =>
    route.stops.map((stop) => {
      const original = plan.basis.cases[stop.case_id] as CaseBasis;
      return {
        type: 'case' as const,
        id: stop.case_id,
        expected: original.v,
        target: {
          assignee_id: route.user_id,
          scheduled_start: stop.start,
          scheduled_end: stop.end,
          status: 'SCHEDULED' as const,
        },
        original,
      };
    }),
  );
  return [...tours, ...cases];
}

const caseMatches = (record: Case, target: CaseWrite['target']) =>
  record.assignee_id === target.assignee_id &&
  record.scheduled_start === target.scheduled_start &&
  record.scheduled_end === target.scheduled_end &&
  record.status === target.status;

const tourMatches = (tour: Tour, target: TourReplace['target'] | TourCreate['target']) =>
  tour.status === 'PLANNED' &&
  tour.shift_id === target.shift_id &&
  tour.driver_id === target.driver_id &&
  tour.vehicle_id === target.vehicle_id &&
  isDeepStrictEqual(tour.stops, target.stops);

/** Where a case or replaced tour stands against its write. */
export function stateOf(write: CaseWrite | TourReplace, current: Case | Tour | undefined): WriteState {
  if (!current) return 'conflict';
  if (current.lock_version === write.expected) return 'todo';
  const ours =
    current.lock_version === write.expected + 1 &&
    (write.type === 'case'
      ? caseMatches(current as Case, write.target)
      : tourMatches(current as Tour, write.target));
  return ours ? 'done' : 'conflict';
}

/**
 * A shift's PLANNED tours now against the run's: for a shift that had none, a tour in the
 * target state is this apply's own (created before a crash); any other tour the run did not
 * read is a conflict.
 */
export function newTourState(
  write: TourCreate,
  plannedNow: readonly Tour[],
): { state: WriteState; tour?: Tour } {
  if (plannedNow.length === 0) return { state: 'todo' };
  const ours = plannedNow.find((tour) => tourMatches(tour, write.target));
  return ours && plannedNow.length === 1 ? { state: 'done', tour: ours } : { state: 'conflict' };
}
