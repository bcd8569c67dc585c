/**
 * What a run plans, read from the workspace when the solver takes it up (API-DECISIONS.md,
 * "Optimization runs"), and what it read, for apply's conflict rule and the map:
 *
 * - shifts: those the run names (deleted since: left out), or every shift overlapping the horizon;
 *   each with its technician's skills (the user's skill offerings);
 * - cases: those the run names (deleted, done, cancelled or in progress since: left out), or the
 *   default selection (case-planning.ts `planningCandidates`); in both cases also every case on a
 *   PLANNED tour of a planned shift, since applying replaces that tour;
 * - tours IN_PROGRESS or DONE are fixed: their cases are not planned;
 * - the basis: the lock_version of every case and shift planned with and of the PLANNED tours of
 *   those shifts, with the fields apply would write (to restore them if it has to undo);
 * - the places of cases and shifts, for the map.
 *
 * Cost: the candidates as planningCandidates says (or 1 BatchGetItem per 100 named cases), the
 * shifts (a key range, or 1 BatchGetItem), 1 Query per shift for its tours, 1 GetItem per
 * technician, and with named cases the tours on the road and done around the horizon.
 */

import { getPrincipal } from '../../data/directory.store.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { parseIsoDuration } from '../../schema/duration.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { durationSecondsOf, planningCandidates, withPlanningDefaults } from '../cases/case-planning.ts';
import type { PlanCase, PlanningProblem, PlanShift } from '../scheduling/planning-problem.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftStore, shiftsOverlapping } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { toursOfShift, toursOfStatus } from '../tours/tour.store.ts';
import type { RunPlan, RunRecord, TourBasis } from './optimization-run.record.ts';
import { maxPlannedCases, maxPlannedShifts } from './optimization-run-statuses.ts';

export interface PlanningInput {
  problem: PlanningProblem;
  basis: RunPlan['basis'];
  places: RunPlan['places'];
}

/** The run asks for more than one run plans: FAILED with TOO_LARGE. */
export class PlanTooLargeError extends Error {}

const open = new Set(['NEW', 'SCHEDULED', 'ON_HOLD']);
const defined = <T>(value: T | undefined): value is T => value !== undefined;

const day = (instant: string, offsetDays: number) =>
  new Date(Date.parse(instant) + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function shiftsOf(scope: StoreScope, run: RunRecord): Promise<Shift[]> {
  const shifts = run.shift_ids
    ? (await shiftStore.of(scope).getMany(run.shift_ids)).filter(defined)
    : await shiftsOverlapping(scope, run.from, run.to);
  if (shifts.length > maxPlannedShifts) {
    throw new PlanTooLargeError(
      `${shifts.length} shifts overlap the horizon; a run plans ${maxPlannedShifts} at most.`,
    );
  }
  return shifts;
}

/** Ids of the cases on tours on the road, or done around the horizon (planningCandidates's rule). */
async function fixedCaseIds(scope: StoreScope, run: RunRecord): Promise<Set<string>> {
  const [inProgress, done] = await Promise.all([
    toursOfStatus(scope, 'IN_PROGRESS'),
    toursOfStatus(scope, 'DONE', { from: day(run.from, -1), to: day(run.to, 1) }),
  ]);
  return new Set([...inProgress, ...done].flatMap((tour) => tour.stops.map((stop) => stop.case_id)));
}

async function casesOf(scope: StoreScope, run: RunRecord, plannedTours: readonly Tour[]): Promise<Case[]> {
  const onTours = plannedTours.flatMap((tour) => tour.stops.map((stop) => stop.case_id));
  const named = run.case_ids ?? [];
  const [selected, extra, fixed] = await Promise.all([
    run.case_ids ? Promise.resolve([]) : planningCandidates(scope, run.from, run.to),
    caseStore.of(scope).getMany([...new Set([...named, ...onTours])]),
    run.case_ids || onTours.length > 0 ? fixedCaseIds(scope, run) : Promise.resolve(new Set<string>()),
  ]);
  const byId = new Map<string, Case>(selected.map((record) => [record.id, record]));
  for (const record of extra.filter(defined)) {
    if (!byId.has(record.id) && open.has(record.status) && !fixed.has(record.id)) {
      byId.set(record.id, withPlanningDefaults(record));
    }
  }
  if (byId.size > maxPlannedCases) {
    throw new PlanTooLargeError(`${byId.size} cases to plan; a run plans ${maxPlannedCases} at most.`);
  }
  return [...byId.values()];
}

function planCase(record: Case): PlanCase {
  return {
    id: record.id,
    ...(record.location ? { location: record.location } : {}),
    durationSeconds: durationSecondsOf(record),
    requiredSkillIds: record.required_skill_ids ?? [],
    timeWindows: record.time_windows ?? [],
    priority: record.priority,
  };
}

const secondsOf = (duration: string) => {
  const parsed = parseIsoDuration(duration);
  return 'seconds' in parsed ? parsed.seconds : 0;
};

function planShift(shift: Shift, skillIds: readonly string[]): PlanShift {
  return {
    id: shift.id,
    userId: shift.user_id,
    ...(shift.vehicle_id ? { vehicleId: shift.vehicle_id } : {}),
    start: shift.start,
    end: shift.end,
    startLocation: shift.start_location,
    endLocation: shift.end_location,
    breaks: shift.breaks.map((pause) => ({
      earliestStart: pause.earliest_start,
      latestEnd: pause.latest_end,
      durationSeconds: secondsOf(pause.duration),
    })),
    skillIds,
  };
}

function tourBasis(tour: Tour, shiftId: string): TourBasis {
  return {
    v: tour.lock_version,
    shift_id: shiftId,
    stops: tour.stops,
    ...(tour.driver_id ? { driver_id: tour.driver_id } : {}),
    ...(tour.vehicle_id ? { vehicle_id: tour.vehicle_id } : {}),
  };
}

export async function readPlanningInput(scope: StoreScope, run: RunRecord): Promise<PlanningInput> {
  const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
  const shifts = await shiftsOf(scope, run);
  // The PLANNED tour of each shift (the first, when a shift has several): apply replaces it.
  const toursPerShift = await Promise.all(shifts.map((shift) => toursOfShift(scope, shift.id)));
  const plannedTours = toursPerShift.flatMap((tours) =>
    tours.filter((tour) => tour.status === 'PLANNED').slice(0, 1),
  );
  const users = [...new Set(shifts.map((shift) => shift.user_id))];
  const [cases, principals] = await Promise.all([
    casesOf(scope, run, plannedTours),
    Promise.all(users.map((id) => getPrincipal(workspaceId, id))),
  ]);
  const skillsOf = new Map(users.map((id, index) => [id, principals[index]?.skill_ids ?? []]));
  const problem: PlanningProblem = {
    from: run.from,
    to: run.to,
    cases: cases.map(planCase),
    shifts: shifts.map((shift) => planShift(shift, skillsOf.get(shift.user_id) ?? [])),
  };
  const basis: RunPlan['basis'] = {
    cases: Object.fromEntries(
      cases.map((record) => [
        record.id,
        {
          v: record.lock_version,
          status: record.status,
          ...(record.assignee_id ? { assignee_id: record.assignee_id } : {}),
          ...(record.scheduled_start ? { scheduled_start: record.scheduled_start } : {}),
          ...(record.scheduled_end ? { scheduled_end: record.scheduled_end } : {}),
        },
      ]),
    ),
    shifts: Object.fromEntries(shifts.map((shift) => [shift.id, { v: shift.lock_version }])),
    tours: Object.fromEntries(plannedTours.map((tour) => [tour.id, tourBasis(tour, tour.shift_id ?? '')])),
  };
  const places: RunPlan['places'] = {
    cases: Object.fromEntries(
      cases.flatMap((record) =>
        record.location ? [[record.id, [record.location.latitude, record.location.longitude]]] : [],
      ),
    ),
    shifts: Object.fromEntries(
      shifts.map((shift) => [
        shift.id,
        {
          start: [shift.start_location.latitude, shift.start_location.longitude],
          end: [shift.end_location.latitude, shift.end_location.longitude],
        },
      ]),
    ),
  };
  return { problem, basis, places };
}
