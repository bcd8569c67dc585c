/**
 * Appointment slots (GET /api/v2/scheduling/slots): the windows in which a case can start without
 * breaking anything already planned, best first.
 *
 * - Candidates: every shift whose technician offers the case's skills, and every place in the
 *   order of its current stops where the case could go (after the stops under way or past). The
 *   stops keep their order and their promised starts (a scheduled stop starts exactly when it was
 *   promised; others within their windows), the shift its hours, places and breaks.
 * - Slots are windows of `slotSeconds` from the asked `from` on. A slot is offered when the case
 *   can start inside it (and inside one of its own windows) somewhere; among the ways it can,
 *   the one that adds the least driving time is kept (`bestInsertion`, which booking uses too,
 *   so a booked case goes where its slot was found).
 * - Every offered slot is verified by re-inserting the case into that tour and recomputing the
 *   whole day (`daySchedule`, breaks placed wherever they fit as the optimizer places them): a
 *   slot is never offered on an estimate alone.
 * - Best first: least added driving time, then earliest start.
 */
import {
  type DayBreak,
  type DaySchedule,
  type DayShift,
  type DayTask,
  daySchedule,
  firstStart,
  type TravelSeconds,
} from './day-schedule.ts';

export type { DaySchedule, TravelSeconds };
export type SlotTask = DayTask;
export type SlotBreak = DayBreak;

/** Seconds since the epoch. */
type Second = number;

export interface SlotShift extends DayShift {
  /**
   * The first `fixedStops` stops are under way or past (started, done, or scheduled before now):
   * a new case goes after them. Absent: 0.
   */
  fixedStops?: number;
}

export interface SlotRequest {
  task: SlotTask;
  requiredSkillIds: readonly string[];
  from: Second;
  to: Second;
  slotSeconds: number;
  limit: number;
}

export interface Slot {
  start: Second;
  end: Second;
  shiftId: string;
  userId: string;
  /** Seconds of driving the case adds to the shift. */
  addedTravelSeconds: number;
  /** When the technician would get there. */
  arrival: Second;
  /** When the technician would start the work. */
  plannedStart: Second;
  /** Where in the shift's stops the case goes (0: first; stops.length: last). */
  position: number;
}

export interface Insertion {
  /** Where in the shift's stops the task goes (0: first; stops.length: last). */
  position: number;
  arrival: Second;
  start: Second;
  addedTravelSeconds: number;
  /** The whole day with the task inserted (its tasks include the inserted one at `position`). */
  schedule: DaySchedule;
}

/**
 * The day of a shift without its breaks, which only ever delay: per position p of an insertion,
 * the earliest departure from the place before it (`leave`), the latest arrival at the place after
 * it that keeps the rest of the day (`latest`), and the drive between the two (`leg`). A position
 * where the task cannot fit between them cannot work with the breaks either, so it is skipped
 * without recomputing the day (most positions, for a slot hours away from them).
 */
interface RelaxedDay {
  leave: Float64Array;
  latest: Float64Array;
  leg: Float64Array;
}

/** The latest start of `task` at or before `time` that one of its windows allows; -Infinity when none does. */
function lastStart(task: SlotTask, time: Second): Second {
  if (task.windows.length === 0) return time;
  let best = Number.NEGATIVE_INFINITY;
  for (const [open, close] of task.windows) {
    const start = Math.min(time, close);
    if (start >= open && start > best) best = start;
  }
  return best;
}

function relaxedDay(shift: SlotShift, travel: TravelSeconds): RelaxedDay {
  const stops = shift.stops;
  const n = stops.length;
  const placeAt = (position: number) =>
    position === n ? shift.endPlace : (stops[position] as SlotTask).place;
  const leg = new Float64Array(n + 1);
  const leave = new Float64Array(n + 1);
  const latest = new Float64Array(n + 1);
  leave[0] = shift.start;
  for (let p = 0; p <= n; p++) {
    leg[p] = travel(p === 0 ? shift.startPlace : placeAt(p - 1), placeAt(p));
    const stop = stops[p];
    if (stop)
      leave[p + 1] = firstStart(stop, (leave[p] as number) + (leg[p] as number)) + stop.durationSeconds;
  }
  latest[n] = shift.end;
  for (let p = n - 1; p >= 0; p--) {
    const stop = stops[p] as SlotTask;
    latest[p] = lastStart(stop, (latest[p + 1] as number) - (leg[p + 1] as number) - stop.durationSeconds);
  }
  return { leave, latest, leg };
}

/**
 * The cheapest position (least added driving, then earliest) adding less than `bound` where the
 * whole day still works. Positions are tried cheapest first, so the first day that works is the
 * answer.
 */
function cheapestInsertion(
  shift: SlotShift,
  task: SlotTask,
  travel: TravelSeconds,
  bound: number,
  relaxed: RelaxedDay = relaxedDay(shift, travel),
): Insertion | undefined {
  const stops = shift.stops;
  const n = stops.length;
  const first = Math.min(Math.max(shift.fixedStops ?? 0, 0), n);
  const candidates: Array<{ position: number; added: number }> = [];
  for (let position = first; position <= n; position++) {
    const before = position === 0 ? shift.startPlace : (stops[position - 1] as SlotTask).place;
    const after = position === n ? shift.endPlace : (stops[position] as SlotTask).place;
    const into = travel(before, task.place);
    const out = travel(task.place, after);
    const added = into + out - (relaxed.leg[position] as number);
    if (!(added < bound)) continue;
    const start = firstStart(task, (relaxed.leave[position] as number) + into);
    if (start + task.durationSeconds + out > (relaxed.latest[position] as number)) continue;
    candidates.push({ position, added });
  }
  candidates.sort((a, b) => a.added - b.added || a.position - b.position);
  for (const { position, added } of candidates) {
    const tasks = [...stops.slice(0, position), task, ...stops.slice(position)];
    const schedule = daySchedule(shift, tasks, travel);
    if (!schedule) continue;
    const times = schedule.tasks[position] as { arrival: Second; start: Second };
    return { position, arrival: times.arrival, start: times.start, addedTravelSeconds: added, schedule };
  }
  return undefined;
}

/**
 * Where `task` goes into `shift`'s stops (after its fixed ones) with the whole day still working,
 * adding the least driving (ties: the earliest position); undefined when it fits nowhere.
 * Restrict the task's windows to search within a slot or to book a chosen window.
 */
export function bestInsertion(
  shift: SlotShift,
  task: SlotTask,
  travel: TravelSeconds,
): Insertion | undefined {
  return cheapestInsertion(shift, task, travel, Number.POSITIVE_INFINITY);
}

/**
 * Each task's start in the day of `daySchedule`, or undefined when the day does not work: for the
 * callers that only check a day (the slots' integration test and the scheduling bench).
 */
export function scheduleOf(
  shift: SlotShift,
  tasks: readonly SlotTask[],
  travel: TravelSeconds,
): Second[] | undefined {
  return daySchedule(shift, tasks, travel)?.tasks.map((times) => times.start);
}

/** The task restricted to start within [open, close] and its own windows. */
function restricted(task: SlotTask, open: Second, close: Second): SlotTask {
  const own = task.windows.length === 0 ? [[open, close] as const] : task.windows;
  const windows = own
    .map(([a, b]) => [Math.max(a, open), Math.min(b, close)] as const)
    .filter(([a, b]) => a <= b);
  return { ...task, windows };
}

export function searchSlots(
  request: SlotRequest,
  shifts: readonly SlotShift[],
  travel: TravelSeconds,
): Slot[] {
  const skilled = shifts.filter((shift) =>
    request.requiredSkillIds.every((skill) => shift.skillIds.includes(skill)),
  );
  const best = new Map<Second, Slot>();
  // Shift by shift (the day without breaks once per shift), each slot keeping the first shift of
  // the least added driving.
  for (const shift of skilled) {
    let relaxed: RelaxedDay | undefined;
    for (let open = request.from; open < request.to; open += request.slotSeconds) {
      const close = Math.min(open + request.slotSeconds, request.to);
      if (shift.end <= open || shift.start >= close) continue;
      const task = restricted(request.task, open, close);
      if (task.windows.length === 0) continue;
      relaxed ??= relaxedDay(shift, travel);
      // Only a cheaper insertion than the slot's best so far can replace it.
      const bound = best.get(open)?.addedTravelSeconds ?? Number.POSITIVE_INFINITY;
      const insertion = cheapestInsertion(shift, task, travel, bound, relaxed);
      if (!insertion) continue;
      best.set(open, {
        start: open,
        end: close,
        shiftId: shift.id,
        userId: shift.userId,
        addedTravelSeconds: insertion.addedTravelSeconds,
        arrival: insertion.arrival,
        plannedStart: insertion.start,
        position: insertion.position,
      });
    }
  }
  return [...best.values()]
    .sort((a, b) => a.addedTravelSeconds - b.addedTravelSeconds || a.start - b.start)
    .slice(0, request.limit);
}

/** A slot's score for the answer: 1 when it adds no driving, halving with every 10 minutes added. */
export function slotScore(addedTravelSeconds: number): number {
  return Math.round(1000 * 0.5 ** (Math.max(0, addedTravelSeconds) / 600)) / 1000;
}
