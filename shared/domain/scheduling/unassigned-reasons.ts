/**
 * Why a case stayed out of a plan, in the terms a dispatcher acts on (API-DECISIONS.md,
 * "Optimization runs"): the first of these that holds, checked case by case against every shift.
 *
 * - NO_LOCATION: the case has no location (decided before solving).
 * - NO_SKILLED_TECHNICIAN: no shift's technician offers every skill the case requires.
 * - NO_SHIFT_IN_WINDOW: no skilled shift's hours meet a window of the case (with room for the work).
 * - NOT_REACHABLE_IN_TIME: a skilled shift meets a window, but driving there from the shift's
 *   start and home again afterwards cannot fit, even with nothing else to do.
 * - NO_CAPACITY: the case fits a shift on its own, but not beside the work planned: more shifts or
 *   looser windows would place it.
 * - LOCK_NOT_KEPT: the case is locked (its schedule_lock, or a stop under way pinned where it is),
 *   and the plan could not keep the lock: it is left as it is.
 */
import type { PlanCase, PlanShift, VroomTranslation } from './planning-problem.ts';
import type { TravelMatrix } from './travel.ts';

export const unassignedReasons = [
  'NO_LOCATION',
  'NO_SKILLED_TECHNICIAN',
  'NO_SHIFT_IN_WINDOW',
  'NOT_REACHABLE_IN_TIME',
  'NO_CAPACITY',
  'LOCK_NOT_KEPT',
] as const;
export type UnassignedReason = (typeof unassignedReasons)[number];

const seconds = (iso: string, origin: number) => Math.round((Date.parse(iso) - origin) / 1000);

function windowsOf(work: PlanCase, origin: number, horizon: number): Array<[number, number]> {
  if (work.timeWindows.length === 0) return [[0, horizon]];
  return work.timeWindows.map((window) => [seconds(window.start, origin), seconds(window.end, origin)]);
}

/** The reason a case the optimizer left out could not be placed. */
export function reasonFor(
  work: PlanCase,
  translation: VroomTranslation,
  matrix: TravelMatrix,
  horizonSeconds: number,
): UnassignedReason {
  if (!work.location) return 'NO_LOCATION';
  if (work.locked) return 'LOCK_NOT_KEPT';
  const skilled = translation.shiftOfVehicle.filter((shift) =>
    work.requiredSkillIds.every((skill) => shift.skillIds.includes(skill)),
  );
  if (skilled.length === 0) return 'NO_SKILLED_TECHNICIAN';
  const origin = translation.origin;
  const windows = windowsOf(work, origin, horizonSeconds);
  const hoursOf = (shift: PlanShift): [number, number] => [
    Math.max(0, seconds(shift.start, origin)),
    Math.min(horizonSeconds, seconds(shift.end, origin)),
  ];
  // A window meets the shift when the work can start in it and end before the shift does.
  const meeting = skilled.filter((shift) => {
    const [open, close] = hoursOf(shift);
    return windows.some(
      ([start, end]) => Math.max(start, open) <= Math.min(end, close - work.durationSeconds),
    );
  });
  if (meeting.length === 0) return 'NO_SHIFT_IN_WINDOW';
  const place = translation.placeOfCase.get(work.id);
  const reachable = meeting.some((shift) => {
    const places = translation.placeOfShift.get(shift.id);
    if (place === undefined || !places) return false;
    const [open, close] = hoursOf(shift);
    const there = matrix.durations[places.start]?.[place] ?? Number.POSITIVE_INFINITY;
    const back = matrix.durations[place]?.[places.end] ?? Number.POSITIVE_INFINITY;
    return windows.some(([start, end]) => {
      const begin = Math.max(start, open + there);
      return begin <= end && begin + work.durationSeconds + back <= close;
    });
  });
  return reachable ? 'NO_CAPACITY' : 'NOT_REACHABLE_IN_TIME';
}
