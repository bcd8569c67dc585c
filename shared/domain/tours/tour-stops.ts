/**
 * A tour's stops with the live day's fields (API-DECISIONS.md, "The live day"): every stop has a
 * status (stops stored before statuses existed read as PENDING), and a write that lists a case's
 * stop again keeps what telemetry recorded of it (arrived_at, departed_at, eta, late, late_by)
 * and its status unless the write sets one. So re-planning, re-ordering or a booking never
 * forgets that a technician was already there.
 */
import type { StopStatus, StoredStop, Tour, TourStop } from './tour.schema.ts';

/** The fields of a stop only the live day writes. */
const liveFields = ['arrived_at', 'departed_at', 'eta', 'late', 'late_by'] as const;

/**
 * Stops in one key order (case_id, planned_arrival, status, then the live fields), each with its
 * status: what the apply compares when it asks whether a tour holds what it wrote, whichever
 * writer stored the stops.
 */
export function canonicalStops(stops: readonly StoredStop[]): TourStop[] {
  return stops.map((stop) => {
    const ordered: TourStop = {
      case_id: stop.case_id,
      ...(stop.planned_arrival !== undefined ? { planned_arrival: stop.planned_arrival } : {}),
      status: stop.status ?? 'PENDING',
    };
    for (const field of liveFields) {
      if (stop[field] !== undefined) Object.assign(ordered, { [field]: stop[field] });
    }
    return ordered;
  });
}

/** The tour as read: each stop with its status. */
export function withStopStatuses<T extends Pick<Tour, 'stops'>>(tour: T): T {
  // Records stored before stops had statuses: typed as read, checked here.
  if (tour.stops.every((stop) => stop.status !== undefined)) return tour;
  return {
    ...tour,
    stops: tour.stops.map((stop) => (stop.status ? stop : { ...stop, status: 'PENDING' as const })),
  };
}

/**
 * The stops a write stores: each case id lower case, its planned arrival as sent, its status as
 * sent or as its stop had it before (PENDING for a new one), and the live fields of its stop
 * before.
 */
export function storedStops(
  stops: ReadonlyArray<{
    case_id: string;
    planned_arrival?: string | undefined;
    status?: StopStatus | undefined;
  }>,
  before: readonly StoredStop[] = [],
): TourStop[] {
  const previous = new Map(before.map((stop) => [stop.case_id, stop]));
  return stops.map((stop) => {
    const caseId = stop.case_id.toLowerCase();
    const old = previous.get(caseId);
    const kept: Partial<TourStop> = {};
    for (const field of liveFields) {
      if (old?.[field] !== undefined) Object.assign(kept, { [field]: old[field] });
    }
    return {
      case_id: caseId,
      ...(stop.planned_arrival !== undefined ? { planned_arrival: stop.planned_arrival } : {}),
      status: stop.status ?? old?.status ?? 'PENDING',
      ...kept,
    };
  });
}

/** The fields of a stop the live day rewrites as the technician moves: never a plan's. */
const etaFields = ['eta', 'late', 'late_by'] as const;

/**
 * The stops without their ETAs: what a plan decides of a tour (its order, planned arrivals,
 * statuses, arrivals and departures). A tour on the road whose ETAs moved since a REPAIR run read
 * it still holds what the run planned from.
 */
export function plannedShape(stops: readonly StoredStop[]): TourStop[] {
  return canonicalStops(stops).map((stop) => {
    const shaped = { ...stop };
    for (const field of etaFields) delete shaped[field];
    return shaped;
  });
}

/** `stops` with the ETAs the live day wrote since into `current` (by case), the newest it knows. */
export function withCurrentEtas(stops: readonly TourStop[], current: readonly StoredStop[]): TourStop[] {
  const now = new Map(current.map((stop) => [stop.case_id, stop]));
  return stops.map((stop) => {
    const latest = now.get(stop.case_id);
    if (!latest) return stop;
    const next = { ...stop };
    for (const field of etaFields) {
      if (latest[field] === undefined) delete next[field];
      else Object.assign(next, { [field]: latest[field] });
    }
    return next;
  });
}
