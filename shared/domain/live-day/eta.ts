/**
 * Estimated arrivals at the remaining stops of a tour on the road (API-DECISIONS.md, "The live
 * day"): from the technician's last position, through the stops in their order, each visit
 * starting no earlier than its window opens and lasting its case's duration. A stop the
 * technician is at counts from when they arrived. A stop whose ETA passes its window's end is
 * late by the difference. Pure: the travel between two places is given (`legSeconds`: the
 * workspace's travel model), so the same function serves intake, the day board and tests.
 */
import type { Place } from '../scheduling/travel.ts';

export interface EtaStop {
  caseId: string;
  location: Place;
  /** The visit's length (seconds). */
  durationS: number;
  /** The case's window (epoch ms), when it has one. */
  windowStart?: number;
  windowEnd?: number;
  /** The technician is at this stop since then (epoch ms). */
  arrivedAt?: number;
}

export interface StopEta {
  caseId: string;
  /** Epoch ms. */
  eta: number;
  /** Seconds past the window's end (absent: on time). */
  lateByS?: number;
}

/** ETA moves smaller than this are not news (no event). */
export const etaNewsThresholdMs = 5 * 60_000;

export function stopEtas(
  position: Place & { at: number },
  now: number,
  stops: readonly EtaStop[],
  legSeconds: (from: Place, to: Place) => number,
): StopEta[] {
  const etas: StopEta[] = [];
  let clock = Math.max(now, position.at);
  let here: Place = position;
  for (const stop of stops) {
    const eta = stop.arrivedAt ?? clock + legSeconds(here, stop.location) * 1000;
    const start = Math.max(eta, stop.windowStart ?? eta);
    clock = Math.max(now, start + stop.durationS * 1000);
    here = stop.location;
    const late =
      stop.windowEnd !== undefined && eta > stop.windowEnd ? Math.round((eta - stop.windowEnd) / 1000) : 0;
    etas.push({ caseId: stop.caseId, eta, ...(late > 0 ? { lateByS: late } : {}) });
  }
  return etas;
}

/** Whether new ETAs are news against the ones last published: a stop moved by more than 5 minutes, or lateness changed. */
export function etasMoved(published: readonly StopEta[], next: readonly StopEta[]): boolean {
  const before = new Map(published.map((stop) => [stop.caseId, stop]));
  return next.some((stop) => {
    const old = before.get(stop.caseId);
    return (
      !old ||
      Math.abs(old.eta - stop.eta) > etaNewsThresholdMs ||
      Boolean(old.lateByS) !== Boolean(stop.lateByS)
    );
  });
}
