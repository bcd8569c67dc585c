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
  excluded: Array<{ caseId: string; reason: 'NO_LOCATION' | 'NO_SHIFT_IN_WINDOW' }>;
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
    placeOfCase: new Map(),
    placeOfShift: new Map(),
  };

  for (const work of problem.cases) {
    if (!work.location) {
      translation.excluded.push({ caseId: work.id, reason: 'NO_LOCATION' });
      continue;
    }
    const windows =
      work.timeWindows.length === 0
        ? [[0, horizon] as Window]
        : work.timeWindows
            .map((window) => clip([seconds(window.start, origin), seconds(window.end, origin)], [0, horizon]))
            .filter((window): window is Window => window !== undefined);
    if (windows.length === 0) {
      translation.excluded.push({ caseId: work.id, reason: 'NO_SHIFT_IN_WINDOW' });
      continue;
    }
    const place = indexOf.get(placeKey(work.location)) as number;
    translation.placeOfCase.set(work.id, place);
    translation.caseOfJob.push(work.id);
    translation.input.jobs.push({
      id: translation.caseOfJob.length,
      location_index: place,
      service: work.durationSeconds,
      skills: work.requiredSkillIds.map(skillNumber),
      priority: vroomPriority[work.priority],
      time_windows: windows,
    });
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
      skills: shift.skillIds.map(skillNumber),
      breaks,
    });
  }
  return translation;
}
