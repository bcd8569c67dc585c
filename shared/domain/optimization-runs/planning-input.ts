/**
 * What a run plans, read from the workspace when the solver takes it up (API-DECISIONS.md,
 * "Scheduling and dispatch" as tightened by "Dispatch you can trust"), and what it read, for
 * apply's conflict rule and the map:
 *
 * - shifts: those the run names (deleted since: left out), or every shift overlapping the horizon;
 *   a shift whose day is under way (a tour IN_PROGRESS or DONE) is left out: its tour is the live
 *   day's. Each brings its technician's skills (the user's skill offerings) and its PLANNED tour,
 *   which applying replaces;
 * - cases: those the run names (left out when since deleted, not NEW or SCHEDULED, or on a tour on
 *   the road or done), or the default selection (case-planning.ts `planningCandidates`); and the
 *   stops of the replaced tours, whose work must be planned again, not dropped silently;
 * - what locks keep: a case's schedule_lock (its technician, its start), and the stops of a
 *   replaced tour that are under way, done or due before now, pinned on their shift at their start;
 * - "now": work not pinned starts at the earliest when the run reads (the slot search's rule too);
 * - the basis: the lock_version of every case and shift read and of every PLANNED tour apply may
 *   write (the replaced ones, and another shift's tour holding a case the run may move: its guard,
 *   tour-claims.ts, names it), with the fields apply writes (to restore them if it has to undo);
 * - the places of cases and shifts, for the map.
 *
 * Cost: the candidates as planningCandidates says (or 1 BatchGetItem per 100 named cases), the
 * shifts (a key range, or 1 BatchGetItem), 1 Query per shift for its tours, 1 GetItem per
 * technician, 1 BatchGetItem per 100 cases for their guards and 1 for the other tours they name,
 * and with named cases or replaced tours the tours on the road and done around the horizon.
 */

import { getPrincipal } from '../../data/directory.store.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { parseIsoDuration } from '../../schema/duration.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { locksAssignee, locksTime } from '../cases/case-enums.ts';
import { durationSecondsOf, planningCandidates, withPlanningDefaults } from '../cases/case-planning.ts';
import type { PlanCase, PlanningProblem, PlanShift } from '../scheduling/planning-problem.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftStore, shiftsOverlapping } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore, toursOfShift, toursOfStatus } from '../tours/tour.store.ts';
import { openToursOfCases } from '../tours/tour-claims.ts';
import type { CaseBasis, RunPlan, RunRecord, TourBasis } from './optimization-run.record.ts';
import { maxPlannedCases, maxPlannedShifts } from './optimization-run-statuses.ts';
import { planningFingerprint } from './planning-fingerprint.ts';

export interface PlanningInput {
  problem: PlanningProblem;
  basis: RunPlan['basis'];
  places: RunPlan['places'];
  /** REPAIR runs: each shift's remaining stops (case ids) in their current order. */
  current?: Record<string, string[]>;
}

/** The run asks for more than one run plans: FAILED with TOO_LARGE. */
export class PlanTooLargeError extends Error {}

const plannable = new Set(['NEW', 'SCHEDULED']);
/** A stop whose case is in one of these is under way or over: pinned where it is. */
const underWay = new Set(['IN_PROGRESS', 'DONE']);
const defined = <T>(value: T | undefined): value is T => value !== undefined;

const day = (instant: string, offsetDays: number) =>
  new Date(Date.parse(instant) + offsetDays * 86_400_000).toISOString().slice(0, 10);

interface PlannedShift {
  shift: Shift;
  /** Its PLANNED tour, which applying replaces. */
  tour: Tour | undefined;
}

async function shiftsOf(scope: StoreScope, run: RunRecord): Promise<PlannedShift[]> {
  const read = run.shift_ids
    ? (await shiftStore.of(scope).getMany(run.shift_ids)).filter(defined)
    : await shiftsOverlapping(scope, run.from, run.to);
  if (read.length > maxPlannedShifts) {
    throw new PlanTooLargeError(
      `${read.length} shifts overlap the horizon; a run plans ${maxPlannedShifts} at most.`,
    );
  }
  const tours = await Promise.all(read.map((shift) => toursOfShift(scope, shift.id)));
  return read.flatMap((shift, index) => {
    const own = tours[index] ?? [];
    if (own.some((tour) => tour.status === 'IN_PROGRESS' || tour.status === 'DONE')) return [];
    return [{ shift, tour: own.find((tour) => tour.status === 'PLANNED') }];
  });
}

/** Ids of the cases on tours on the road, or done around the horizon (planningCandidates's rule). */
async function fixedCaseIds(scope: StoreScope, run: RunRecord): Promise<Set<string>> {
  const [inProgress, done] = await Promise.all([
    toursOfStatus(scope, 'IN_PROGRESS'),
    toursOfStatus(scope, 'DONE', { from: day(run.from, -1), to: day(run.to, 1) }),
  ]);
  return new Set([...inProgress, ...done].flatMap((tour) => tour.stops.map((stop) => stop.case_id)));
}

/** A case as read, and what planning keeps of it. */
export interface ReadCase {
  record: Case;
  /** Planned as a job (else only kept, or taken off its tour, by apply). */
  job: boolean;
  /** The shift a pinned stop stays on. */
  pinnedTo?: string;
}

/**
 * The cases to plan: the selection (or the named ones still plannable), then the stops of the
 * replaced tours: plannable ones are planned again, those under way, done or due before now are
 * pinned, the rest (on hold, cancelled) only read, for apply to take off the tour.
 */
async function casesOf(
  scope: StoreScope,
  run: RunRecord,
  planned: readonly PlannedShift[],
  now: number,
): Promise<Map<string, ReadCase>> {
  const stops = planned.flatMap(({ shift, tour }) =>
    (tour?.stops ?? []).map((stop) => ({ caseId: stop.case_id, shiftId: shift.id })),
  );
  const named = run.case_ids ?? [];
  const [selected, extra, fixed] = await Promise.all([
    run.case_ids ? Promise.resolve([]) : planningCandidates(scope, run.from, run.to),
    caseStore.of(scope).getMany([...new Set([...named, ...stops.map((stop) => stop.caseId)])]),
    run.case_ids || stops.length > 0 ? fixedCaseIds(scope, run) : Promise.resolve(new Set<string>()),
  ]);
  const found = new Map(extra.filter(defined).map((record) => [record.id, withPlanningDefaults(record)]));
  const cases = new Map<string, ReadCase>(selected.map((record) => [record.id, { record, job: true }]));
  for (const id of named) {
    const record = found.get(id);
    if (record && plannable.has(record.status) && !fixed.has(id)) cases.set(id, { record, job: true });
  }
  for (const { caseId, shiftId } of stops) {
    const record = found.get(caseId);
    if (!record) continue;
    const due = record.scheduled_start !== undefined && Date.parse(record.scheduled_start) <= now;
    if (underWay.has(record.status) || (record.status === 'SCHEDULED' && due)) {
      cases.set(caseId, { record, job: true, pinnedTo: shiftId });
    } else if (!cases.has(caseId)) {
      cases.set(caseId, { record, job: plannable.has(record.status) && !fixed.has(caseId) });
    }
  }
  const jobs = [...cases.values()].filter((entry) => entry.job).length;
  if (jobs > maxPlannedCases) {
    throw new PlanTooLargeError(`${jobs} cases to plan; a run plans ${maxPlannedCases} at most.`);
  }
  return cases;
}

/**
 * The other PLANNED tours that hold a case the run may plan (a stop apply moves), and the cases
 * held by a tour on the road, which are not planned. Guards name the tours (tour-claims.ts).
 */
export async function holdingTours(
  scope: StoreScope,
  cases: Map<string, ReadCase>,
  replaced: ReadonlySet<string>,
): Promise<Tour[]> {
  const jobs = [...cases.values()]
    .filter((entry) => entry.job && !entry.pinnedTo)
    .map((entry) => entry.record.id);
  const holders = await openToursOfCases(scope, jobs);
  const otherIds = [...new Set([...holders.values()].filter((id) => !replaced.has(id)))];
  const others = (await tourStore.of(scope).getMany(otherIds)).filter(defined);
  const onTheRoad = new Set(others.filter((tour) => tour.status === 'IN_PROGRESS').map((tour) => tour.id));
  for (const [caseId, tourId] of holders) {
    const entry = cases.get(caseId);
    if (entry && onTheRoad.has(tourId)) entry.job = false;
  }
  return others.filter((tour) => tour.status === 'PLANNED');
}

/** When a job may start: its windows (or the horizon) from `now` on. */
function windowsFrom(record: Case, run: RunRecord, now: number): Array<{ start: string; end: string }> {
  const windows = record.time_windows ?? [];
  if (now <= Date.parse(run.from)) return windows;
  const open = new Date(now).toISOString();
  if (windows.length === 0) return [{ start: open, end: run.to }];
  return windows.flatMap((window) =>
    Date.parse(window.end) < now
      ? []
      : [{ start: Date.parse(window.start) < now ? open : window.start, end: window.end }],
  );
}

export function planCase({ record, pinnedTo }: ReadCase, run: RunRecord, now: number): PlanCase {
  const lock = record.schedule_lock;
  const pinned = pinnedTo !== undefined;
  const keepsTime = (pinned || locksTime(lock)) && record.scheduled_start !== undefined;
  const keepsUser = !pinned && locksAssignee(lock) && record.assignee_id !== undefined;
  const dueBy = record.due_by;
  return {
    id: record.id,
    ...(record.location ? { location: record.location } : {}),
    durationSeconds: durationSecondsOf(record),
    requiredSkillIds: pinned ? [] : (record.required_skill_ids ?? []),
    timeWindows: keepsTime ? [] : windowsFrom(record, run, now),
    priority: record.priority,
    ...(keepsUser ? { onlyUserId: record.assignee_id } : {}),
    ...(pinned ? { onlyShiftId: pinnedTo } : {}),
    ...(keepsTime ? { fixedStart: record.scheduled_start } : {}),
    ...(pinned || (lock !== undefined && lock !== 'NONE') ? { locked: true } : {}),
    // Service levels: the latest acceptable end, kept by the plan where it can be.
    ...(dueBy && !pinned ? { dueBy } : {}),
  };
}

const secondsOf = (duration: string) => {
  const parsed = parseIsoDuration(duration);
  return 'seconds' in parsed ? parsed.seconds : 0;
};

export function planShift(shift: Shift, skillIds: readonly string[]): PlanShift {
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

function tourBasis(tour: Tour): TourBasis {
  return {
    v: tour.lock_version,
    ...(tour.status === 'IN_PROGRESS' ? { status: 'IN_PROGRESS' as const } : {}),
    shift_id: tour.shift_id ?? '',
    stops: tour.stops,
    ...(tour.driver_id ? { driver_id: tour.driver_id } : {}),
    ...(tour.vehicle_id ? { vehicle_id: tour.vehicle_id } : {}),
  };
}

function caseBasis({ record, pinnedTo }: ReadCase): CaseBasis {
  return {
    v: record.lock_version,
    status: record.status,
    ...(record.assignee_id ? { assignee_id: record.assignee_id } : {}),
    ...(record.scheduled_start ? { scheduled_start: record.scheduled_start } : {}),
    ...(record.scheduled_end ? { scheduled_end: record.scheduled_end } : {}),
    ...(record.schedule_lock && record.schedule_lock !== 'NONE' ? { lock: record.schedule_lock } : {}),
    ...(pinnedTo ? { pinned: true as const } : {}),
    fp: planningFingerprint(record),
  };
}

export async function readPlanningInput(
  scope: StoreScope,
  run: RunRecord,
  now = Date.now(),
): Promise<PlanningInput> {
  const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
  const planned = await shiftsOf(scope, run);
  const shifts = planned.map(({ shift }) => shift);
  const replaced = planned.flatMap(({ tour }) => (tour ? [tour] : []));
  const users = [...new Set(shifts.map((shift) => shift.user_id))];
  const [cases, principals] = await Promise.all([
    casesOf(scope, run, planned, now),
    Promise.all(users.map((id) => getPrincipal(workspaceId, id))),
  ]);
  const others = await holdingTours(scope, cases, new Set(replaced.map((tour) => tour.id)));
  const skillsOf = new Map(users.map((id, index) => [id, principals[index]?.skill_ids ?? []]));
  const jobs = [...cases.values()].filter((entry) => entry.job);
  const problem: PlanningProblem = {
    from: run.from,
    to: run.to,
    cases: jobs.map((entry) => planCase(entry, run, now)),
    shifts: shifts.map((shift) => planShift(shift, skillsOf.get(shift.user_id) ?? [])),
  };
  const basis = basisRead([...cases.values()], shifts, [...replaced, ...others]);
  return { problem, basis, places: placesRead(jobs, shifts) };
}

/** What apply must find unchanged: every case, shift and tour the run read (PLAN and REPAIR alike). */
export function basisRead(
  cases: readonly ReadCase[],
  shifts: readonly Shift[],
  tours: readonly Tour[],
): RunPlan['basis'] {
  return {
    cases: Object.fromEntries(cases.map((entry) => [entry.record.id, caseBasis(entry)])),
    shifts: Object.fromEntries(shifts.map((shift) => [shift.id, { v: shift.lock_version }])),
    tours: Object.fromEntries(tours.map((tour) => [tour.id, tourBasis(tour)])),
  };
}

/** Where the planned cases and the shifts' start and end are: what the run's map draws. */
export function placesRead(jobs: readonly ReadCase[], shifts: readonly Shift[]): RunPlan['places'] {
  return {
    cases: Object.fromEntries(
      jobs.flatMap(({ record }) =>
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
}
