/**
 * What an optimization run plans, as the service sees it (cases, shifts and the skills of their
 * technicians over a horizon), and its translation into the optimizer's language: a VROOM input
 * (shared/optimizer, API-DECISIONS.md "The optimizer"). Pure: the run's service gathers the
 * records and the travel matrix; this module only translates, so the rules of the translation
 * are tested without a store.
 *
 * - Time is counted in seconds from the horizon's start; a case's windows and a shift's hours are
 *   clipped to the horizon. A case without windows may start any time of a shift.
 * - A case is a VROOM job: its on-site duration is the job's service, its required skills the
 *   job's skills (a technician must offer all), its priority VROOM's priority (which jobs stay
 *   out first when not all fit).
 * - A shift is a VROOM vehicle: its hours the time window, its start and end places, its breaks
 *   (a break may start from `earliest_start` until `latest_end - duration`), the user's skills.
 * - Travel costs are travel seconds: the plan with the least driving time wins, after serving as
 *   many (and as important) cases as can be served.
 * - What a case's lock keeps (API-DECISIONS.md, "Dispatch you can trust") is a constraint of its
 *   job: a technician (a skill only that user's shifts offer), a shift (a skill only that shift
 *   offers: a stop already under way or past stays on its shift) and a start (a window of one
 *   instant). A locked job outranks every other (VROOM's highest priority): a promise is the last
 *   thing left out. One whose start lies outside the horizon is left out before solving
 *   (LOCK_NOT_KEPT).
 * - A shift takes at most `maxStopsPerRoute` stops (a tour's limit).
 */
import type { Place, TravelMatrix } from './travel.ts';

export type CasePriority = 'LOW' | 'NORMAL' | 'HIGH' | 'URGENT';

export interface PlanCase {
  id: string;
  /** Absent: the case cannot be planned (NO_LOCATION). */
  location?: Place;
  durationSeconds: number;
  requiredSkillIds: readonly string[];
  /** When the work may start; none: any time of a shift. */
  timeWindows: ReadonlyArray<{ start: string; end: string }>;
  priority: CasePriority;
  /** Only shifts of this user may take it (an ASSIGNEE lock). */
  onlyUserId?: string;
  /** Only this shift may take it (a stop under way or past, pinned where it is). */
  onlyShiftId?: string;
  /** It starts exactly then (a TIME lock, or a pinned stop). */
  fixedStart?: string;
  /** Left out, it is reported LOCK_NOT_KEPT. */
  locked?: boolean;
  /**
   * The latest acceptable end (the case's due_by): the work must end by then where it can;
   * where it cannot, it is planned as early as possible and reported late.
   */
  dueBy?: string;
}

export interface PlanBreak {
  earliestStart: string;
  latestEnd: string;
  durationSeconds: number;
}

export interface PlanShift {
  id: string;
  userId: string;
  vehicleId?: string;
  start: string;
  end: string;
  startLocation: Place;
  endLocation: Place;
  breaks: readonly PlanBreak[];
  /** The skill definitions the shift's technician offers. */
  skillIds: readonly string[];
}

export interface PlanningProblem {
  from: string;
  to: string;
  cases: readonly PlanCase[];
  shifts: readonly PlanShift[];
}

/** VROOM's priority (0..100) of each case priority: urgent work is the last left out. */
export const vroomPriority: Record<CasePriority, number> = { LOW: 0, NORMAL: 25, HIGH: 60, URGENT: 100 };
/** Locked work: a promise outranks every priority. */
const lockedPriority = 100;
/** Work with a due date is planned first, after urgent and locked work. */
const duePriority = 90;
/** Stops one route takes at most (a tour's limit, tour.schema.ts maxStops). */
export const maxStopsPerRoute = 200;

type Window = [number, number];

/** The problem in the optimizer's terms, and what its numbers stand for. */
export interface VroomTranslation {
  input: {
    jobs: Array<Record<string, unknown>>;
    vehicles: Array<Record<string, unknown>>;
    matrices: { car: { durations: number[][]; costs: number[][]; distances: number[][] } };
  };
  /** Epoch milliseconds of second 0. */
  origin: number;
  /** Case id of VROOM job id `i + 1`. */
  caseOfJob: string[];
  /** Shift of VROOM vehicle id `i + 1`. */
  shiftOfVehicle: PlanShift[];
  /** Cases left out before solving, and why (no location, no window inside the horizon). */
  excluded: Array<{ caseId: string; reason: 'NO_LOCATION' | 'NO_SHIFT_IN_WINDOW' | 'LOCK_NOT_KEPT' }>;
  /**
   * Due work (job id → the job with its windows as they are without the due date): a job the
   * search could not plan by its due date may still be planned late, as early as possible
   * (late-work.ts). `meetable`: some window can meet the due date, and the search had the windows
   * cut at it; otherwise the search had the windows as they are (it plans the work, late).
   */
  late: Map<number, { job: Record<string, unknown>; meetable: boolean }>;
  /** Index of each case's and shift's places in the matrix. */
  placeOfCase: Map<string, number>;
  placeOfShift: Map<string, { start: number; end: number }>;
}

const seconds = (iso: string, origin: number) => Math.round((Date.parse(iso) - origin) / 1000);

/** A window clipped to [low, high]; undefined when nothing of it is left. */
function clip([start, end]: Window, [low, high]: Window): Window | undefined {
  const clipped: Window = [Math.max(low, start), Math.min(high, end)];
  return clipped[0] <= clipped[1] ? clipped : undefined;
}

/** The skills that stand for "this user's shifts" and "this shift" (never a skill definition's id). */
const userSkill = (userId: string) => `user:${userId}`;
const shiftSkill = (shiftId: string) => `shift:${shiftId}`;

/** A case's windows in seconds, clipped to the horizon: its fixed start, its windows, or the horizon. */
function windowsOf(work: PlanCase, origin: number, horizon: number): Window[] {
  if (work.fixedStart !== undefined) {
    const at = seconds(work.fixedStart, origin);
    return at >= 0 && at <= horizon ? [[at, at]] : [];
  }
  if (work.timeWindows.length === 0) return [[0, horizon]];
  return work.timeWindows
    .map((window) => clip([seconds(window.start, origin), seconds(window.end, origin)], [0, horizon]))
    .filter((window): window is Window => window !== undefined);
}

/**
 * The windows of due work cut so that it ends by its due date (the latest start is due_by minus
 * the duration); undefined for work without one. Empty: no window can meet the due date.
 */
function dueWindows(work: PlanCase, windows: readonly Window[], origin: number): Window[] | undefined {
  if (work.dueBy === undefined) return undefined;
  const latestStart = seconds(work.dueBy, origin) - work.durationSeconds;
  return windows.flatMap(([start, end]) =>
    start <= latestStart ? [[start, Math.min(end, latestStart)]] : [],
  );
}

const placeKey = (place: Place) => `${place.latitude},${place.longitude}`;

/** The places of a problem, each once, in the order the matrix must have them. */
export function placesOf(problem: PlanningProblem): Place[] {
  const places = new Map<string, Place>();
  for (const shift of problem.shifts) {
    places.set(placeKey(shift.startLocation), shift.startLocation);
    places.set(placeKey(shift.endLocation), shift.endLocation);
  }
  for (const work of problem.cases) if (work.location) places.set(placeKey(work.location), work.location);
  return [...places.values()];
}

export function toVroomInput(problem: PlanningProblem, matrix: TravelMatrix): VroomTranslation {
  const origin = Date.parse(problem.from);
  const horizon = seconds(problem.to, origin);
  const places = placesOf(problem);
  const indexOf = new Map(places.map((place, index) => [placeKey(place), index]));
  const skillNumbers = new Map<string, number>();
  const skillNumber = (id: string) => {
    if (!skillNumbers.has(id)) skillNumbers.set(id, skillNumbers.size + 1);
    return skillNumbers.get(id) as number;
  };

  const translation: VroomTranslation = {
    input: {
      jobs: [],
      vehicles: [],
      matrices: {
        car: { durations: matrix.durations, costs: matrix.durations, distances: matrix.distances },
      },
    },
    origin,
    caseOfJob: [],
    shiftOfVehicle: [],
    excluded: [],
    late: new Map(),
    placeOfCase: new Map(),
    placeOfShift: new Map(),
  };

  for (const work of problem.cases) {
    if (!work.location) {
      translation.excluded.push({ caseId: work.id, reason: 'NO_LOCATION' });
      continue;
    }
    const windows = windowsOf(work, origin, horizon);
    const due = dueWindows(work, windows, origin);
    if (windows.length === 0) {
      translation.excluded.push({
        caseId: work.id,
        reason: work.locked ? 'LOCK_NOT_KEPT' : 'NO_SHIFT_IN_WINDOW',
      });
      continue;
    }
    const place = indexOf.get(placeKey(work.location)) as number;
    translation.placeOfCase.set(work.id, place);
    translation.caseOfJob.push(work.id);
    const job = {
      id: translation.caseOfJob.length,
      location_index: place,
      service: work.durationSeconds,
      skills: [
        ...work.requiredSkillIds.map(skillNumber),
        ...(work.onlyUserId ? [skillNumber(userSkill(work.onlyUserId))] : []),
        ...(work.onlyShiftId ? [skillNumber(shiftSkill(work.onlyShiftId))] : []),
      ],
      priority: work.locked ? lockedPriority : Math.max(vroomPriority[work.priority], due ? duePriority : 0),
      time_windows: windows,
    };
    if (!due) {
      translation.input.jobs.push(job);
    } else {
      // Searched by its due date where a window can meet it; else as it is (it will be late).
      const meetable = due.length > 0;
      translation.late.set(job.id, { job, meetable });
      translation.input.jobs.push(meetable ? { ...job, time_windows: due } : job);
    }
  }

  for (const shift of problem.shifts) {
    const hours = clip([seconds(shift.start, origin), seconds(shift.end, origin)], [0, horizon]);
    if (!hours || hours[0] === hours[1]) continue;
    const start = indexOf.get(placeKey(shift.startLocation)) as number;
    const end = indexOf.get(placeKey(shift.endLocation)) as number;
    translation.placeOfShift.set(shift.id, { start, end });
    translation.shiftOfVehicle.push(shift);
    // A break that cannot be taken within the (clipped) hours is left out rather than refused.
    const breaks = shift.breaks.flatMap((pause, index) => {
      const window = clip(
        [seconds(pause.earliestStart, origin), seconds(pause.latestEnd, origin) - pause.durationSeconds],
        [hours[0], hours[1] - pause.durationSeconds],
      );
      return window ? [{ id: index + 1, time_windows: [window], service: pause.durationSeconds }] : [];
    });
    translation.input.vehicles.push({
      id: translation.shiftOfVehicle.length,
      start_index: start,
      end_index: end,
      time_window: hours,
      skills: [
        ...shift.skillIds.map(skillNumber),
        skillNumber(userSkill(shift.userId)),
        skillNumber(shiftSkill(shift.id)),
      ],
      breaks,
      max_tasks: maxStopsPerRoute,
    });
  }
  return translation;
}
