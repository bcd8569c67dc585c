/**
 * Appointment slots (GET /api/v2/scheduling/slots): the windows in which a case can start without
 * breaking anything already planned, best first.
 *
 * - Candidates: every shift whose technician offers the case's skills, and every place in the
 *   order of its current stops where the case could go. The stops keep their order and their
 *   promised starts (a scheduled stop starts exactly when it was promised; others within their
 *   windows), the shift its hours, places and breaks.
 * - Slots are windows of `slotSeconds` from the asked `from` on. A slot is offered when the case
 *   can start inside it (and inside one of its own windows) somewhere; among the ways it can,
 *   the one that adds the least driving time is kept.
 * - Every offered slot is verified by re-inserting the case into that tour and recomputing the
 *   whole day (`scheduleOf`), breaks included: a slot is never offered on an estimate alone.
 * - Best first: least added driving time, then earliest start.
 */
import type { Place } from './travel.ts';

/** Seconds since the epoch. */
type Second = number;

export interface SlotTask {
  caseId: string;
  place: Place;
  durationSeconds: number;
  /** When the work may start; empty: any time. A promised start is a window of one instant. */
  windows: ReadonlyArray<readonly [Second, Second]>;
}

export interface SlotBreak {
  earliestStart: Second;
  latestEnd: Second;
  durationSeconds: number;
}

export interface SlotShift {
  id: string;
  userId: string;
  start: Second;
  end: Second;
  startPlace: Place;
  endPlace: Place;
  breaks: readonly SlotBreak[];
  skillIds: readonly string[];
  /** The shift's current stops in driving order. */
  stops: readonly SlotTask[];
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
  /** When the technician would start the work. */
  plannedStart: Second;
}

export type TravelSeconds = (from: Place, to: Place) => number;

/** The first start at or after `time` that one of the windows allows; undefined when none does. */
function startWithin(task: SlotTask, time: Second): Second | undefined {
  if (task.windows.length === 0) return time;
  let best: Second | undefined;
  for (const [open, close] of task.windows) {
    const start = Math.max(time, open);
    if (start <= close && (best === undefined || start < best)) best = start;
  }
  return best;
}

/**
 * The day of a shift doing `tasks` in order: each task's start, or undefined when something breaks
 * (a window missed, a break that cannot be taken in its window, the end place reached too late).
 * Breaks are taken between tasks, as late as they may: before a task only when the wait for it
 * holds the break anyway (it costs nothing then) or when after the task it would be too late.
 * Taking a break earlier than that never lets a later task start sooner, so a day this finds no
 * way through has none with these tasks in this order.
 */
export function scheduleOf(
  shift: SlotShift,
  tasks: readonly SlotTask[],
  travel: TravelSeconds,
): Second[] | undefined {
  const pending = [...shift.breaks].sort((a, b) => a.earliestStart - b.earliestStart);
  const starts: Second[] = [];
  let now = shift.start;
  let here = shift.startPlace;
  for (const task of tasks) {
    const leg = travel(here, task.place);
    for (let pause = pending[0]; pause; pause = pending[0]) {
      const start = startWithin(task, now + leg);
      if (start === undefined) return undefined;
      const breakStart = Math.max(now, pause.earliestStart);
      const latestStart = pause.latestEnd - pause.durationSeconds;
      if (breakStart > latestStart) return undefined;
      const free = breakStart + pause.durationSeconds + leg <= start;
      const forced = start + task.durationSeconds > latestStart;
      if (!free && !forced) break;
      now = breakStart + pause.durationSeconds;
      pending.shift();
    }
    const begin = startWithin(task, now + leg);
    if (begin === undefined) return undefined;
    starts.push(begin);
    now = begin + task.durationSeconds;
    here = task.place;
  }
  for (const pause of pending) {
    const breakStart = Math.max(now, pause.earliestStart);
    if (breakStart > pause.latestEnd - pause.durationSeconds) return undefined;
    now = breakStart + pause.durationSeconds;
  }
  return now + travel(here, shift.endPlace) <= shift.end ? starts : undefined;
}

function addedTravel(shift: SlotShift, position: number, task: SlotTask, travel: TravelSeconds): number {
  const before = position === 0 ? shift.startPlace : (shift.stops[position - 1] as SlotTask).place;
  const after = position === shift.stops.length ? shift.endPlace : (shift.stops[position] as SlotTask).place;
  return travel(before, task.place) + travel(task.place, after) - travel(before, after);
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
  for (let open = request.from; open < request.to; open += request.slotSeconds) {
    const close = Math.min(open + request.slotSeconds, request.to);
    for (const shift of skilled) {
      if (shift.end <= open || shift.start >= close) continue;
      const task = restricted(request.task, open, close);
      if (task.windows.length === 0) continue;
      for (let position = 0; position <= shift.stops.length; position++) {
        const added = addedTravel(shift, position, task, travel);
        const known = best.get(open);
        if (known && known.addedTravelSeconds <= added) continue;
        const tasks = [...shift.stops.slice(0, position), task, ...shift.stops.slice(position)];
        const starts = scheduleOf(shift, tasks, travel);
        if (!starts) continue;
        best.set(open, {
          start: open,
          end: close,
          shiftId: shift.id,
          userId: shift.userId,
          addedTravelSeconds: added,
          plannedStart: starts[position] as Second,
        });
      }
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
