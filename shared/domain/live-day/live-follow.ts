/**
 * One position against the tour a device follows (live-watch.ts): which stops it arrived at or
 * left (arrival-detector.ts, one visit state per stop, kept with the device's state), and the
 * remaining stops' ETAs (eta.ts). Pure: it answers the device's next `live` state and the changes
 * the tour's stops need — none when the position changes nothing, so most reports write nothing
 * but the device state they write anyway.
 *
 * Changes are idempotent and never go back: a stop arrived at stays arrived, a stop left is DONE.
 * A visit that arrived but whose stop does not show it yet (the tour's write was lost) is written
 * again with the next report.
 */
import { formatIsoDuration } from '../../schema/duration.ts';
import { detourFactor, greatCircleMetres, type Place } from '../scheduling/travel.ts';
import type { StopStatus, TourStop } from '../tours/tour.schema.ts';
import {
  type DetectorSettings,
  defaultDetectorSettings,
  judge,
  newVisit,
  type Position,
  type VisitState,
} from './arrival-detector.ts';
import { etasMoved, type StopEta, stopEtas } from './eta.ts';
import type { LiveWatch } from './live-watch.ts';

/** What a device's state keeps of the tour it follows. */
export interface LiveState {
  tour_id: string;
  visits: Record<string, VisitState>;
}

export type StopChange = Partial<
  Pick<TourStop, 'status' | 'arrived_at' | 'departed_at' | 'eta' | 'late' | 'late_by'>
> & {
  /** Remove the lateness (the stop is on time again). */
  onTime?: true;
};

/** Seconds of driving between two places: great-circle × 1.3 at 40 km/h (the local travel model). */
export function roadSeconds(from: Place, to: Place): number {
  return Math.round((greatCircleMetres(from, to) * detourFactor) / (40_000 / 3600));
}

const finished: ReadonlySet<StopStatus> = new Set(['DONE', 'SKIPPED']);
const iso = (ms: number) => new Date(ms).toISOString();

/** How late, in whole minutes (at least one): `PT1H5M` for 3,900 seconds. */
export function lateness(seconds: number): string {
  return formatIsoDuration(Math.max(1, Math.round(seconds / 60)) * 60);
}

export function followPosition(
  watch: LiveWatch,
  live: LiveState | undefined,
  position: Position,
  now: number,
  settings: DetectorSettings = defaultDetectorSettings,
): { live: LiveState; changes: Map<string, StopChange> } {
  const state: LiveState =
    live?.tour_id === watch.tour.id
      ? { tour_id: live.tour_id, visits: { ...live.visits } }
      : { tour_id: watch.tour.id, visits: {} };
  const stopOf = new Map(watch.tour.stops.map((stop) => [stop.case_id, stop]));
  const changes = new Map<string, StopChange>();
  const change = (caseId: string, fields: StopChange) =>
    changes.set(caseId, { ...changes.get(caseId), ...fields });
  for (const stop of watch.stops) {
    const current = stopOf.get(stop.caseId);
    if (!current || finished.has(current.status)) continue;
    const judged = judge(state.visits[stop.caseId] ?? newVisit(), stop.location, position, settings);
    state.visits[stop.caseId] = judged.visit;
    const { arrivedAt, departedAt } = judged.visit;
    if (arrivedAt !== undefined && current.status !== 'ARRIVED') {
      change(stop.caseId, { status: 'ARRIVED', arrived_at: iso(arrivedAt) });
    }
    if (departedAt !== undefined) change(stop.caseId, { status: 'DONE', departed_at: iso(departedAt) });
  }
  // ETAs of what is left, the stop being visited counting from its arrival.
  const remaining = watch.stops
    .filter((stop) => {
      const current = stopOf.get(stop.caseId);
      const next = changes.get(stop.caseId)?.status ?? current?.status;
      return current && next !== undefined && !finished.has(next);
    })
    .map((stop) => {
      const arrived = state.visits[stop.caseId]?.arrivedAt;
      return arrived !== undefined ? { ...stop, arrivedAt: arrived } : stop;
    });
  const etas = stopEtas(position, now, remaining, roadSeconds);
  const published: StopEta[] = remaining.flatMap((stop) => {
    const eta = stopOf.get(stop.caseId)?.eta;
    const late = stopOf.get(stop.caseId)?.late;
    return eta ? [{ caseId: stop.caseId, eta: Date.parse(eta), ...(late ? { lateByS: 1 } : {}) }] : [];
  });
  if (etasMoved(published, etas)) {
    for (const eta of etas) {
      if (state.visits[eta.caseId]?.arrivedAt !== undefined) continue;
      change(eta.caseId, {
        eta: iso(eta.eta),
        ...(eta.lateByS ? { late: true, late_by: lateness(eta.lateByS) } : { onTime: true }),
      });
    }
  }
  // The first stop not reached yet is the one the technician heads for.
  const heading = remaining.find((stop) => state.visits[stop.caseId]?.arrivedAt === undefined);
  if (heading && stopOf.get(heading.caseId)?.status === 'PENDING')
    change(heading.caseId, { status: 'EN_ROUTE' });
  return { live: state, changes };
}

/** The tour's stops with the changes: never back from ARRIVED or DONE, a time recorded once. */
export function changedStops(
  stops: readonly TourStop[],
  changes: ReadonlyMap<string, StopChange>,
): TourStop[] {
  const rank: Record<StopStatus, number> = { PENDING: 0, EN_ROUTE: 1, ARRIVED: 2, DONE: 3, SKIPPED: 3 };
  return stops.map((stop) => {
    const change = changes.get(stop.case_id);
    if (!change) return stop;
    const { onTime, ...fields } = change;
    const next: TourStop = { ...stop };
    if (fields.status && rank[fields.status] > rank[stop.status]) next.status = fields.status;
    if (fields.arrived_at && !stop.arrived_at) next.arrived_at = fields.arrived_at;
    if (fields.departed_at && !stop.departed_at) next.departed_at = fields.departed_at;
    if (fields.eta) next.eta = fields.eta;
    if (fields.late) Object.assign(next, { late: true, late_by: fields.late_by });
    if (onTime) {
      delete next.late;
      delete next.late_by;
    }
    if (next.status === 'DONE' || next.status === 'SKIPPED' || next.status === 'ARRIVED') delete next.eta;
    return next;
  });
}
