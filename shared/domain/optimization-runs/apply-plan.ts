/**
 * What applying a plan writes (apply-job.ts runs it), derived from the run's plan alone
 * (API-DECISIONS.md, "Dispatch you can trust"), as steps in four phases:
 *
 * 1. reset: a plannable case that was a stop of a replaced tour (a planned shift's PLANNED tour) and
 *    that the plan places nowhere returns to NEW (assignee_id and the scheduled window removed);
 * 2. release: each tour first gives up the stops it loses (a stop the plan moves to another tour,
 *    one it leaves out, one on hold or cancelled);
 * 3. claim: then takes the stops it gains and gets its final order, planned arrivals, driver and
 *    vehicle; a planned shift with a route and no PLANNED tour gets one created;
 * 4. schedule: each planned case gets assignee_id (the shift's user), scheduled_start/end (its
 *    stop's start and end) and status SCHEDULED.
 *
 * Releasing before claiming keeps one open tour per case at every moment (tour-claims.ts): a case
 * moved from tour A to tour B leaves A before B takes it. A locked case the plan could not keep
 * (LOCK_NOT_KEPT), and a stop pinned where it is (under way, done, due), stays on its tour, in
 * time order, and is never written; cases the plan does not touch are not written either. A REPAIR
 * run's tour on the road keeps its stops started, done or skipped first, in their order. A tour
 * step moves at most `maxStopsPerStep` stops, so each fits one transaction with its guards.
 */
import type { StoredStop, TourStop } from '../tours/tour.schema.ts';
import { canonicalStops, storedStops } from '../tours/tour-stops.ts';
import type { CaseBasis, RunPlan, TourBasis } from './optimization-run.record.ts';

/** Stops that join or leave a tour in one of its steps (tour.service.ts maxClaimsPerWrite). */
export const maxStopsPerStep = 80;

export interface TourState {
  stops: StoredStop[];
  driver_id?: string;
  vehicle_id?: string;
  shift_id?: string;
}

export interface TourPlan {
  /** Journal key: `tour:<id>`, or `shift:<id>` for a tour this apply creates. */
  key: string;
  /** The tour the run read (absent: created by this apply for `shiftId`). */
  id?: string;
  shiftId?: string;
  original?: TourBasis;
  /** Release steps (phase 2), then claim steps (phase 3); each a whole state of the tour. */
  releases: TourState[];
  claims: TourState[];
}

export interface CaseTarget {
  status: 'NEW' | 'SCHEDULED';
  assignee_id?: string;
  scheduled_start?: string;
  scheduled_end?: string;
}

export interface CasePlan {
  key: string;
  id: string;
  original: CaseBasis;
  phase: 'reset' | 'schedule';
  target: CaseTarget;
}

export interface ApplyPlan {
  tours: TourPlan[];
  cases: CasePlan[];
}

const plannable = new Set(['NEW', 'SCHEDULED']);

const timeOf = (stop: TourStop, basis: CaseBasis | undefined) =>
  Date.parse(stop.planned_arrival ?? basis?.scheduled_start ?? '') || Number.POSITIVE_INFINITY;

/** A replaced tour's stops that stay (locked or pinned cases the plan left out), in time order. */
function keptStops(plan: RunPlan, tour: TourBasis, planned: ReadonlySet<string>): TourStop[] {
  return canonicalStops(tour.stops).filter((stop) => {
    const basis = plan.basis.cases[stop.case_id];
    return !planned.has(stop.case_id) && basis !== undefined && (basis.pinned || basis.lock !== undefined);
  });
}

/** Route stops and kept stops merged by time (a kept stop without one goes last). */
function merged(route: readonly TourStop[], kept: readonly TourStop[], plan: RunPlan): TourStop[] {
  const all = [...route, ...kept];
  const order = new Map(all.map((stop, index) => [stop.case_id, index]));
  return all.sort(
    (a, b) =>
      timeOf(a, plan.basis.cases[a.case_id]) - timeOf(b, plan.basis.cases[b.case_id]) ||
      (order.get(a.case_id) ?? 0) - (order.get(b.case_id) ?? 0),
  );
}

const same = (a: TourState, b: TourState) =>
  JSON.stringify([canonicalStops(a.stops), a.driver_id, a.vehicle_id, a.shift_id]) ===
  JSON.stringify([canonicalStops(b.stops), b.driver_id, b.vehicle_id, b.shift_id]);

/** The steps from `from` to `to`: stops leave in chunks, then join in chunks, the last step is `to`. */
export function tourSteps(from: TourState, to: TourState): { releases: TourState[]; claims: TourState[] } {
  const target = new Set(to.stops.map((stop) => stop.case_id));
  const leaving = from.stops.filter((stop) => !target.has(stop.case_id)).map((stop) => stop.case_id);
  const releases: TourState[] = [];
  let current = from;
  for (let done = maxStopsPerStep; leaving.length > 0; done += maxStopsPerStep) {
    const gone = new Set(leaving.slice(0, done));
    current = { ...from, stops: from.stops.filter((stop) => !gone.has(stop.case_id)) };
    releases.push(current);
    if (done >= leaving.length) break;
  }
  const staying = new Set(current.stops.map((stop) => stop.case_id));
  const joining = to.stops.filter((stop) => !staying.has(stop.case_id)).map((stop) => stop.case_id);
  const claims: TourState[] = [];
  for (let done = maxStopsPerStep; done < joining.length; done += maxStopsPerStep) {
    const joined = new Set(joining.slice(0, done));
    claims.push({
      ...to,
      stops: to.stops.filter((stop) => staying.has(stop.case_id) || joined.has(stop.case_id)),
    });
  }
  if (!same(current, to)) claims.push(to);
  return { releases, claims };
}

const stateOf = (tour: TourBasis): TourState => ({
  stops: canonicalStops(tour.stops),
  ...(tour.driver_id ? { driver_id: tour.driver_id } : {}),
  ...(tour.vehicle_id ? { vehicle_id: tour.vehicle_id } : {}),
  ...(tour.shift_id ? { shift_id: tour.shift_id } : {}),
});

function tourPlans(plan: RunPlan, planned: ReadonlySet<string>): TourPlan[] {
  const routeOf = new Map(plan.routes.map((route) => [route.shift_id, route]));
  const replacedShifts = new Set<string>();
  const tours: TourPlan[] = [];
  for (const [id, tour] of Object.entries(plan.basis.tours)) {
    const original = stateOf(tour);
    let target: TourState;
    if (plan.basis.shifts[tour.shift_id]) {
      replacedShifts.add(tour.shift_id);
      const route = routeOf.get(tour.shift_id);
      // A case that stays on its tour keeps its status and what the live day recorded of it.
      const routeStops = storedStops(
        (route?.stops ?? []).map((stop) => ({ case_id: stop.case_id, planned_arrival: stop.arrival })),
        tour.stops,
      );
      const kept = keptStops(plan, tour, planned);
      const pinned = (stop: TourStop) => plan.basis.cases[stop.case_id]?.pinned === true;
      target = {
        // A tour on the road (REPAIR) keeps what was started, done or skipped first, as it was.
        stops:
          tour.status === 'IN_PROGRESS'
            ? [
                ...kept.filter(pinned),
                ...merged(
                  routeStops,
                  kept.filter((stop) => !pinned(stop)),
                  plan,
                ),
              ]
            : merged(routeStops, kept, plan),
        ...(route ? { driver_id: route.user_id } : tour.driver_id ? { driver_id: tour.driver_id } : {}),
        ...((route ? route.vehicle_id : tour.vehicle_id)
          ? { vehicle_id: route ? route.vehicle_id : tour.vehicle_id }
          : {}),
        shift_id: tour.shift_id,
      };
    } else {
      // Another shift's tour: it only loses the stops the plan places elsewhere.
      target = { ...original, stops: original.stops.filter((stop) => !planned.has(stop.case_id)) };
    }
    const steps = tourSteps(original, target);
    if (steps.releases.length + steps.claims.length > 0) {
      tours.push({
        key: `tour:${id}`,
        id,
        ...(tour.shift_id ? { shiftId: tour.shift_id } : {}),
        original: tour,
        ...steps,
      });
    }
  }
  for (const route of plan.routes) {
    if (replacedShifts.has(route.shift_id)) continue;
    const target: TourState = {
      stops: storedStops(
        route.stops.map((stop) => ({ case_id: stop.case_id, planned_arrival: stop.arrival })),
      ),
      driver_id: route.user_id,
      ...(route.vehicle_id ? { vehicle_id: route.vehicle_id } : {}),
      shift_id: route.shift_id,
    };
    const steps = tourSteps({ stops: [], shift_id: route.shift_id }, target);
    tours.push({ key: `shift:${route.shift_id}`, shiftId: route.shift_id, ...steps });
  }
  return tours;
}

const unchanged = (basis: CaseBasis, target: CaseTarget) =>
  basis.status === target.status &&
  basis.assignee_id === target.assignee_id &&
  basis.scheduled_start === target.scheduled_start &&
  basis.scheduled_end === target.scheduled_end;

function casePlans(plan: RunPlan, planned: ReadonlySet<string>): CasePlan[] {
  const cases: CasePlan[] = [];
  for (const route of plan.routes) {
    for (const stop of route.stops) {
      const original = plan.basis.cases[stop.case_id];
      if (!original || original.pinned) continue;
      const target: CaseTarget = {
        status: 'SCHEDULED',
        assignee_id: route.user_id,
        scheduled_start: stop.start,
        scheduled_end: stop.end,
      };
      if (!unchanged(original, target)) {
        cases.push({ key: `case:${stop.case_id}`, id: stop.case_id, original, phase: 'schedule', target });
      }
    }
  }
  const replaced = Object.values(plan.basis.tours).filter((tour) => plan.basis.shifts[tour.shift_id]);
  const leftOut = new Set(replaced.flatMap((tour) => tour.stops.map((stop) => stop.case_id)));
  for (const id of leftOut) {
    const original = plan.basis.cases[id];
    if (planned.has(id) || !original || original.pinned || original.lock || !plannable.has(original.status)) {
      continue;
    }
    const target: CaseTarget = { status: 'NEW' };
    if (!unchanged(original, target)) cases.push({ key: `case:${id}`, id, original, phase: 'reset', target });
  }
  return cases;
}

export function applyPlanOf(plan: RunPlan): ApplyPlan {
  const planned = new Set(plan.routes.flatMap((route) => route.stops.map((stop) => stop.case_id)));
  return { tours: tourPlans(plan, planned), cases: casePlans(plan, planned) };
}
