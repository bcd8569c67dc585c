/**
 * The day of a shift as appointment slots and bookings see it (API-DECISIONS.md, "Dispatch you can
 * trust": slots and runs see the same day), so that every slot offered can be booked:
 *
 * - its current tour: the IN_PROGRESS one, else the PLANNED one (one per shift, tour-claims.ts);
 *   a shift whose tours are all DONE offers nothing (its day is over); none: an empty day;
 * - the stops in driving order: a stop keeps its case's promised start (`scheduled_start`)
 *   exactly, else its windows; a stop whose case is gone, done, cancelled or has no location is
 *   not driven to; the case being booked is taken off the tour (booking it again moves it);
 * - what is under way or past is fixed: the stops up to the last one whose case is IN_PROGRESS or
 *   DONE or whose start is not after now. The rest of the day starts where the last of them ends,
 *   when it ends (not before now), and a new case goes after them;
 * - breaks as runs take them (planning-problem.ts): a break that cannot fit inside the shift's
 *   hours is left out, and one that can no longer start when the rest of the day starts is over.
 */
import { parseIsoDuration } from '../../schema/duration.ts';
import type { Case } from '../cases/case.schema.ts';
import { durationSecondsOf } from '../cases/case-planning.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import type { Tour, TourStop } from '../tours/tour.schema.ts';
import type { DayBreak, DayTask } from './day-schedule.ts';
import type { SlotShift } from './slot-search.ts';
import type { Place } from './travel.ts';

export interface ShiftDay {
  shift: Shift;
  /** The current tour (undefined: none yet). */
  tour: Tour | undefined;
  /** The tour's stops without the case being booked: what an insertion position counts in. */
  stops: TourStop[];
  /** Index in `stops` of each stop of the search. */
  tourIndexOf: number[];
  /** Stops of `stops` that are under way or past: a new case goes after them. */
  fixedCount: number;
  /** The rest of the day, as the slot search sees it. */
  search: SlotShift;
}

const seconds = (instant: string) => Date.parse(instant) / 1000;
const durationSeconds = (value: string) => {
  const parsed = parseIsoDuration(value);
  return 'seconds' in parsed ? parsed.seconds : 0;
};

/** Statuses of a stop's case that are not driven to any more. */
const gone = new Set(['DONE', 'CANCELLED']);
/** Statuses of a stop's case that fix it: the work is under way or over. */
const underWay = new Set(['IN_PROGRESS', 'DONE']);

/** The tour of a shift that is its current day, or 'over' when its tours are all DONE. */
export function currentTour(tours: readonly Tour[]): Tour | 'over' | undefined {
  const byStatus = (status: Tour['status']) =>
    tours
      .filter((tour) => tour.status === status)
      .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1))[0];
  return byStatus('IN_PROGRESS') ?? byStatus('PLANNED') ?? (byStatus('DONE') ? 'over' : undefined);
}

/** A stop of the tour as a task of the search: its promised start exactly, else its windows. */
export function stopTask(record: Case): DayTask | undefined {
  if (!record.location || gone.has(record.status)) return undefined;
  const windows = record.scheduled_start
    ? [[seconds(record.scheduled_start), seconds(record.scheduled_start)] as const]
    : (record.time_windows ?? []).map((window) => [seconds(window.start), seconds(window.end)] as const);
  return { caseId: record.id, place: record.location, durationSeconds: durationSecondsOf(record), windows };
}

/** The shift's breaks in seconds, those that cannot fit inside its hours left out. */
function breaksOf(shift: Shift, from: number): DayBreak[] {
  const start = seconds(shift.start);
  const end = seconds(shift.end);
  return shift.breaks.flatMap((pause) => {
    const duration = durationSeconds(pause.duration);
    const earliest = Math.max(seconds(pause.earliest_start), start);
    const latestEnd = Math.min(seconds(pause.latest_end), end);
    return latestEnd - duration >= Math.max(earliest, from)
      ? [{ earliestStart: earliest, latestEnd, durationSeconds: duration }]
      : [];
  });
}

/** How many stops are under way or past, and where and when the rest of the day starts. */
function fixedPart(stops: readonly TourStop[], cases: ReadonlyMap<string, Case>, shift: Shift, now: number) {
  let fixedCount = 0;
  stops.forEach((stop, index) => {
    const record = cases.get(stop.case_id);
    const started = record?.scheduled_start !== undefined && seconds(record.scheduled_start) <= now;
    if (record && (underWay.has(record.status) || started)) fixedCount = index + 1;
  });
  const last = fixedCount > 0 ? cases.get((stops[fixedCount - 1] as TourStop).case_id) : undefined;
  if (!last) return { fixedCount, start: seconds(shift.start), place: shift.start_location as Place };
  const lastStart = last.scheduled_start ? seconds(last.scheduled_start) : now;
  const lastEnd = last.scheduled_end ? seconds(last.scheduled_end) : lastStart + durationSecondsOf(last);
  return {
    fixedCount,
    start: Math.max(now, lastEnd, seconds(shift.start)),
    place: (last.location ?? shift.start_location) as Place,
  };
}

/**
 * The day of `shift` with `tour` as its current tour, `cases` holding the stops' cases, the
 * case `booking` taken off it; `now` in seconds.
 */
export function shiftDayOf(input: {
  shift: Shift;
  tour: Tour | undefined;
  cases: ReadonlyMap<string, Case>;
  skillIds: readonly string[];
  booking: string;
  now: number;
}): ShiftDay {
  const { shift, tour, cases, skillIds, booking, now } = input;
  const stops = (tour?.stops ?? []).filter((stop) => stop.case_id !== booking);
  const fixed = fixedPart(stops, cases, shift, now);
  const tasks: DayTask[] = [];
  const tourIndexOf: number[] = [];
  stops.forEach((stop, index) => {
    const record = cases.get(stop.case_id);
    const task = index >= fixed.fixedCount && record ? stopTask(record) : undefined;
    if (!task) return;
    tasks.push(task);
    tourIndexOf.push(index);
  });
  return {
    shift,
    tour,
    stops,
    tourIndexOf,
    fixedCount: fixed.fixedCount,
    search: {
      id: shift.id,
      userId: shift.user_id,
      start: fixed.start,
      end: seconds(shift.end),
      startPlace: fixed.place,
      endPlace: shift.end_location,
      breaks: breaksOf(shift, fixed.start),
      skillIds,
      stops: tasks,
    },
  };
}

/** Where in `day.stops` a case inserted at `position` of the search's stops goes. */
export function tourPositionOf(day: ShiftDay, position: number): number {
  if (position < day.tourIndexOf.length) return day.tourIndexOf[position] as number;
  const last = day.tourIndexOf.at(-1);
  return last === undefined ? day.fixedCount : last + 1;
}
