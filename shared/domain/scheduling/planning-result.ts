/**
 * The optimizer's answer (a VROOM output) as the run's result (API-DECISIONS.md, "Optimization
 * runs"): one route per shift that got work, its stops with arrival, start and end times, the
 * distance and driving time; the cases left out with their reason; and a summary.
 */
import { formatIsoDuration } from '../../schema/duration.ts';
import type { PlanningProblem, VroomTranslation } from './planning-problem.ts';
import type { TravelMatrix } from './travel.ts';
import { reasonFor, type UnassignedReason } from './unassigned-reasons.ts';

export interface PlannedStop {
  case_id: string;
  /** When the technician gets there. */
  arrival: string;
  /** When the work starts (later than arrival when a window opens later). */
  start: string;
  end: string;
  /** Due work planned to end after its due date (it could not be met): by how much. */
  late?: true;
  late_by?: string;
}

export interface PlannedRoute {
  shift_id: string;
  user_id: string;
  vehicle_id?: string;
  stops: PlannedStop[];
  distance_m: number;
  travel_duration: string;
}

export interface PlanResult {
  routes: PlannedRoute[];
  unassigned: Array<{ case_id: string; reason: UnassignedReason }>;
  summary: {
    assigned: number;
    unassigned: number;
    distance_m: number;
    travel_duration: string;
    solve_ms: number;
  };
}

/** What this module reads of a VROOM output. */
export interface VroomAnswer {
  routes: Array<{
    vehicle: number;
    duration: number;
    distance?: number;
    steps: Array<{ type: string; id?: number; arrival: number; waiting_time: number; service: number }>;
  }>;
  unassigned: Array<{ id: number }>;
}

export function toPlanResult(
  problem: PlanningProblem,
  translation: VroomTranslation,
  matrix: TravelMatrix,
  answer: VroomAnswer,
  solveMs: number,
): PlanResult {
  const at = (second: number) => new Date(translation.origin + second * 1000).toISOString();
  const dueOf = new Map(
    problem.cases.flatMap((work) => (work.dueBy ? [[work.id, Date.parse(work.dueBy)]] : [])),
  );
  const routes: PlannedRoute[] = [];
  let travelSeconds = 0;
  for (const route of answer.routes) {
    const shift = translation.shiftOfVehicle[route.vehicle - 1];
    if (!shift) continue;
    const stops = route.steps
      .filter((step) => step.type === 'job' && step.id !== undefined)
      .map((step) => {
        const start = step.arrival + step.waiting_time;
        const caseId = translation.caseOfJob[(step.id as number) - 1] as string;
        const end = translation.origin + (start + step.service) * 1000;
        const due = dueOf.get(caseId);
        return {
          case_id: caseId,
          arrival: at(step.arrival),
          start: at(start),
          end: at(start + step.service),
          ...(due !== undefined && end > due
            ? { late: true as const, late_by: formatIsoDuration(Math.ceil((end - due) / 60_000) * 60) }
            : {}),
        };
      });
    if (stops.length === 0) continue;
    travelSeconds += route.duration;
    routes.push({
      shift_id: shift.id,
      user_id: shift.userId,
      ...(shift.vehicleId ? { vehicle_id: shift.vehicleId } : {}),
      stops,
      distance_m: Math.round(route.distance ?? 0),
      travel_duration: formatIsoDuration(route.duration),
    });
  }
  const horizon = Math.round((Date.parse(problem.to) - translation.origin) / 1000);
  const caseById = new Map(problem.cases.map((work) => [work.id, work]));
  const unassigned = [
    ...translation.excluded.map(({ caseId, reason }) => ({ case_id: caseId, reason })),
    ...answer.unassigned.map(({ id }) => {
      const caseId = translation.caseOfJob[id - 1] as string;
      const work = caseById.get(caseId);
      return {
        case_id: caseId,
        reason: work ? reasonFor(work, translation, matrix, horizon) : ('NO_CAPACITY' as const),
      };
    }),
  ];
  const assigned = routes.reduce((count, route) => count + route.stops.length, 0);
  return {
    routes,
    unassigned,
    summary: {
      assigned,
      unassigned: unassigned.length,
      distance_m: routes.reduce((sum, route) => sum + route.distance_m, 0),
      travel_duration: formatIsoDuration(travelSeconds),
      solve_ms: Math.round(solveMs),
    },
  };
}
