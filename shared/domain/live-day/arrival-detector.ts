/**
 * Arrival and departure at a stop from a stream of positions (API-DECISIONS.md, "The live day"):
 * a technician has arrived when their positions stay within `radius` of the case for `dwell`, and
 * has left when they stay beyond the exit radius for as long. Pure and deterministic: the
 * detector's state travels with the device's state item (one write per report, which intake makes
 * anyway), so a report that changes nothing costs no read and no write more.
 *
 * Why it never flaps on GPS jitter:
 * - **dwell**: one position inside is not an arrival; the positions must stay inside for the whole
 *   dwell, and one outside starts the count again;
 * - **hysteresis**: leaving is judged against a wider circle (radius × 1.5, at least 50 m more),
 *   so a technician standing at the edge, whose fixes scatter across the radius, stays arrived;
 * - **one visit**: a stop is arrived at once and left once; after its departure it is done with.
 *
 * Reports come late and out of order (a tracker's buffered backlog): one not newer than the last
 * one judged is ignored (it is history). A gap between reports counts as time spent where both
 * ends were (inside at 10:00 and at 10:05: five minutes inside).
 */
import { greatCircleMetres, type Place } from '../scheduling/travel.ts';

export interface DetectorSettings {
  radiusM: number;
  dwellMs: number;
}

export const defaultDetectorSettings: DetectorSettings = { radiusM: 150, dwellMs: 2 * 60_000 };

/** The radius beyond which a technician who arrived counts as leaving. */
export function exitRadius(radiusM: number): number {
  return Math.max(radiusM * 1.5, radiusM + 50);
}

export type VisitPhase = 'AWAY' | 'ARRIVED' | 'DEPARTED';

/** Where a visit stands (stored with the device's state). */
export interface VisitState {
  phase: VisitPhase;
  /** The last report judged (epoch ms): older ones are history only. */
  lastAt?: number;
  /** AWAY: since when the positions are inside (the arrival's time once the dwell is over). */
  insideSince?: number;
  /** ARRIVED: since when the positions are beyond the exit radius. */
  outsideSince?: number;
  arrivedAt?: number;
  departedAt?: number;
}

export interface Position extends Place {
  /** When the position was recorded (epoch ms). */
  at: number;
}

export type VisitChange = { arrived: number } | { departed: number };

export const newVisit = (): VisitState => ({ phase: 'AWAY' });

/** The visit after one report, and what changed (an arrival or a departure, at their times). */
export function judge(
  visit: VisitState,
  site: Place,
  position: Position,
  settings: DetectorSettings = defaultDetectorSettings,
): { visit: VisitState; change?: VisitChange } {
  if (visit.phase === 'DEPARTED' || (visit.lastAt !== undefined && position.at <= visit.lastAt)) {
    return { visit };
  }
  const distance = greatCircleMetres(site, position);
  const next: VisitState = { ...visit, lastAt: position.at };
  if (visit.phase === 'AWAY') {
    if (distance > settings.radiusM) {
      delete next.insideSince;
      return { visit: next };
    }
    next.insideSince ??= position.at;
    if (position.at - next.insideSince < settings.dwellMs) return { visit: next };
    const arrived = next.insideSince;
    delete next.insideSince;
    return { visit: { ...next, phase: 'ARRIVED', arrivedAt: arrived }, change: { arrived } };
  }
  if (distance <= exitRadius(settings.radiusM)) {
    delete next.outsideSince;
    return { visit: next };
  }
  next.outsideSince ??= position.at;
  if (position.at - next.outsideSince < settings.dwellMs) return { visit: next };
  const departed = next.outsideSince;
  delete next.outsideSince;
  return { visit: { ...next, phase: 'DEPARTED', departedAt: departed }, change: { departed } };
}
