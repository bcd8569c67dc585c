/**
 * The day of a shift that does a fixed order of tasks: when the technician gets to each task and
 * starts it, and where each break is taken; undefined when no placement of the breaks works.
 * Pure. The appointment-slot search (slot-search.ts) and booking use it, so both accept exactly
 * the days the optimizer can plan.
 *
 * The rule is the optimizer's (shared/optimizer/route.ts, "Breaks follow VROOM's rule"), so a plan
 * it produces is always accepted here, and a day accepted here is one it could produce:
 * - The technician leaves the start place at the shift's start at the earliest.
 * - Breaks sit in the gaps between consecutive stops (start place, tasks, end place). A gap left
 *   at t with travel d and breaks b1..bk: each break starts as early as it may after the previous
 *   one (cur = t; start = max(cur, earliestStart) ≤ latestEnd − duration; cur = its end), waiting
 *   for a break's window counts as driving, and the next stop is reached at
 *   max(t + d + Σ durations, cur).
 * - A task starts at the first instant ≥ its arrival that one of its windows allows (a window
 *   bounds the start; none: any time) and ends `durationSeconds` later; its gap starts then.
 * - Every break is taken once, the end place reached by the shift's end.
 * - The optimizer keeps a shift's breaks in one order along the route (by window start, clipped to
 *   the hours as planning-problem.ts clips it, then as given: route.ts `clear`) and only moves
 *   tasks around them. So the breaks taken before any stop are a prefix of that order, and a day
 *   that needs another order is one the optimizer cannot produce: it is refused here too.
 *
 * Exact, by dynamic programming over (stop, breaks taken so far): every step of a gap is
 * nondecreasing in the time the gap starts, and a later start never makes a break window or a task
 * window reachable that an earlier start missed, so keeping the earliest departure per state loses
 * nothing. Each gap tries, from each state, every number of the next breaks in order.
 * Cost: O((n + 1) · (k + 1)(k + 2)/2 · w) for n tasks, k breaks (a shift has at most 5) and w
 * windows per task; n + 1 travel look-ups; O(n · k) memory. With 2 breaks, 6 transitions a gap.
 */
import type { Place } from './travel.ts';

/** Seconds since the epoch. */
type Second = number;

export interface DayTask {
  caseId: string;
  place: Place;
  durationSeconds: number;
  /** When the work may start; empty: any time. A promised start is a window of one instant. */
  windows: ReadonlyArray<readonly [Second, Second]>;
}

export interface DayBreak {
  earliestStart: Second;
  latestEnd: Second;
  durationSeconds: number;
}

export interface DayShift {
  id: string;
  userId: string;
  /** The earliest the technician leaves the start place. */
  start: Second;
  /** The latest the technician reaches the end place. */
  end: Second;
  startPlace: Place;
  endPlace: Place;
  breaks: readonly DayBreak[];
  skillIds: readonly string[];
  /** The shift's current stops in driving order. */
  stops: readonly DayTask[];
}

/** What of a shift its day depends on. */
export type ShiftBounds = Pick<DayShift, 'start' | 'end' | 'startPlace' | 'endPlace' | 'breaks'>;

export type TravelSeconds = (from: Place, to: Place) => number;

export interface TaskTimes {
  /** When the technician gets there. */
  arrival: Second;
  /** When the work starts (after waiting for a window). */
  start: Second;
}

export interface BreakTimes {
  start: Second;
  end: Second;
  /** The index of the task the break precedes; the number of tasks: before the end place. */
  gap: number;
}

export interface DaySchedule {
  /** One per task, in the given order. */
  tasks: TaskTimes[];
  /** One per break, in the shift's order of `breaks`. */
  breaks: BreakTimes[];
  /** When the technician reaches the end place. */
  endArrival: Second;
}

/** The first start of `task` at or after `time` that one of its windows allows; Infinity when none does. */
export function firstStart(task: DayTask, time: Second): Second {
  const windows = task.windows;
  if (windows.length === 0) return time;
  let best = Number.POSITIVE_INFINITY;
  for (let w = 0; w < windows.length; w++) {
    const window = windows[w] as readonly [Second, Second];
    const start = time > window[0] ? time : window[0];
    if (start <= window[1] && start < best) best = start;
  }
  return best;
}

/** The shift's breaks in the order the optimizer keeps them along a route, by index. */
function breakOrder(shift: ShiftBounds): number[] {
  const key = (index: number) => Math.max((shift.breaks[index] as DayBreak).earliestStart, shift.start);
  return shift.breaks.map((_, index) => index).sort((a, b) => key(a) - key(b) || a - b);
}

/**
 * The placement with the earliest arrival at the end place, by the dynamic programming of the
 * file's comment: `taken[g]`, the number of breaks (in order) taken by the end of gap g; undefined
 * when none works. Fills `legs` with each gap's travel.
 */
function placeBreaks(
  shift: ShiftBounds,
  tasks: readonly DayTask[],
  travel: TravelSeconds,
  breaks: readonly DayBreak[],
  legs: number[],
): number[] | undefined {
  const width = breaks.length + 1;
  let departures = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
  let next = new Float64Array(width);
  departures[0] = shift.start;
  /** The state (breaks taken) at the end of the previous gap that each state of a gap comes from. */
  const from = new Uint8Array((tasks.length + 1) * width);
  let here = shift.startPlace;
  for (let gap = 0; gap <= tasks.length; gap++) {
    const task = tasks[gap];
    const place = task ? task.place : shift.endPlace;
    const d = travel(here, place);
    legs.push(d);
    next.fill(Number.POSITIVE_INFINITY);
    let alive = false;
    // From the most breaks already taken down: on equal departures the breaks stay earlier.
    for (let j = width - 1; j >= 0; j--) {
      const t = departures[j] as number;
      if (t === Number.POSITIVE_INFINITY) continue;
      let cur = t;
      let paused = 0;
      for (let taken = j; taken < width; taken++) {
        if (taken > j) {
          const pause = breaks[taken - 1] as DayBreak;
          const start = cur > pause.earliestStart ? cur : pause.earliestStart;
          if (start > pause.latestEnd - pause.durationSeconds) break;
          cur = start + pause.durationSeconds;
          paused += pause.durationSeconds;
        }
        const arrival = t + d + paused > cur ? t + d + paused : cur;
        const done = task ? firstStart(task, arrival) + task.durationSeconds : arrival;
        // Nothing after a departure past the shift's end reaches the end place in time.
        if (done > shift.end || done >= (next[taken] as number)) continue;
        next[taken] = done;
        from[gap * width + taken] = j;
        alive = true;
      }
    }
    if (!alive) return undefined;
    const swap = departures;
    departures = next;
    next = swap;
    here = place;
  }
  if (departures[width - 1] === Number.POSITIVE_INFINITY) return undefined;
  const taken: number[] = new Array(tasks.length + 1);
  for (let gap = tasks.length, count = width - 1; gap >= 0; gap--) {
    taken[gap] = count;
    count = from[gap * width + count] as number;
  }
  return taken;
}

/**
 * The day along one placement of the breaks (`taken[g]` of them, in order, by the end of gap g),
 * or undefined when it does not work. Gaps whose travel `legs` does not hold yet are looked up.
 */
function replay(
  shift: ShiftBounds,
  tasks: readonly DayTask[],
  travel: TravelSeconds,
  legs: readonly number[],
  order: readonly number[],
  taken: (gap: number) => number,
): DaySchedule | undefined {
  const times: TaskTimes[] = new Array(tasks.length);
  const breaks: BreakTimes[] = new Array(order.length);
  let t = shift.start;
  let here = shift.startPlace;
  let before = 0;
  for (let gap = 0; gap <= tasks.length; gap++) {
    const task = tasks[gap];
    const place = task ? task.place : shift.endPlace;
    let cur = t;
    let paused = 0;
    for (const end = taken(gap); before < end; before++) {
      const index = order[before] as number;
      const pause = shift.breaks[index] as DayBreak;
      const start = Math.max(cur, pause.earliestStart);
      if (start > pause.latestEnd - pause.durationSeconds) return undefined;
      cur = start + pause.durationSeconds;
      paused += pause.durationSeconds;
      breaks[index] = { start, end: cur, gap };
    }
    const arrival = Math.max(t + (legs[gap] ?? travel(here, place)) + paused, cur);
    if (!task) return arrival <= shift.end ? { tasks: times, breaks, endArrival: arrival } : undefined;
    const start = firstStart(task, arrival);
    if (start === Number.POSITIVE_INFINITY) return undefined;
    times[gap] = { arrival, start };
    t = start + task.durationSeconds;
    here = place;
  }
  return undefined;
}

const none = () => 0;

/**
 * The day of `shift` doing `tasks` in this order, with the breaks placed wherever they fit (see
 * the file's comment for the rule); undefined when no placement works.
 */
export function daySchedule(
  shift: ShiftBounds,
  tasks: readonly DayTask[],
  travel: TravelSeconds,
): DaySchedule | undefined {
  // Without breaks there is nothing to place: the day is one simulation.
  if (shift.breaks.length === 0) return replay(shift, tasks, travel, [], [], none);
  const order = breakOrder(shift);
  const legs: number[] = [];
  const taken = placeBreaks(
    shift,
    tasks,
    travel,
    order.map((index) => shift.breaks[index] as DayBreak),
    legs,
  );
  return taken && replay(shift, tasks, travel, legs, order, (gap) => taken[gap] as number);
}
