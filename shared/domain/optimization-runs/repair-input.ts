/**
 * What a REPAIR run re-plans (API-DECISIONS.md, "The live day"), read when the solver takes it up:
 * the rest of the day of each shift it names.
 *
 * - A shift's day is its current tour (shift-day.ts `currentTour`: the one on the road, else the
 *   PLANNED one); a shift whose tours are all DONE has nothing left and is left out.
 * - Stops already started, done or skipped (their stop status ARRIVED, DONE or SKIPPED, or their
 *   case IN_PROGRESS or DONE) stay where they are: they are pinned (apply never writes them and
 *   keeps them first on the tour) and are not planned again.
 * - The rest of the day starts where and when the current work ends: at the stop the technician is
 *   at, when its work is due to end; else at the last position the live day heard from the tour's
 *   device, if at most 30 minutes old; else at the last stop done; else at the shift's start place;
 *   never before now or the shift's start. Breaks whose window is over are left out as the slot
 *   search leaves them (planning-problem.ts clips them to the rest of the day).
 * - The remaining stops (NEW or SCHEDULED cases with a location) are the jobs, with their windows
 *   (a promised window stays a promise) and locks, and `current` keeps their order, which the
 *   repair changes as little as it can (repair-plan.ts). Other stops (on hold, cancelled) are read
 *   for apply to take them off the tour, as a PLAN run's replaced tours lose them.
 * - `case_ids` adds cases, as a PLAN run takes named cases (not those on another tour on the road).
 *
 * Cost: 1 BatchGetItem for the shifts, 1 Query per shift for its tours, 1 BatchGetItem per 100
 * cases, 1 GetItem per technician, and per tour on the road 2 GetItem (its device and its state).
 */
import { getPrincipal } from '../../data/directory.store.ts';
import { keys } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord } from '../../data/table.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { durationSecondsOf, withPlanningDefaults } from '../cases/case-planning.ts';
import { deviceStateStore } from '../devices/device-state.store.ts';
import type { PlanningProblem } from '../scheduling/planning-problem.ts';
import { currentTour } from '../scheduling/shift-day.ts';
import type { Place } from '../scheduling/travel.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import type { Tour, TourStop } from '../tours/tour.schema.ts';
import { toursOfShift } from '../tours/tour.store.ts';
import type { RunRecord } from './optimization-run.record.ts';
import {
  basisRead,
  holdingTours,
  type PlanningInput,
  placesRead,
  planCase,
  planShift,
  type ReadCase,
} from './planning-input.ts';

const plannable = new Set(['NEW', 'SCHEDULED']);
const startedStop = new Set(['ARRIVED', 'DONE', 'SKIPPED']);
const startedCase = new Set(['IN_PROGRESS', 'DONE']);
/** A position older than this no longer says where the technician is. */
const freshPositionMs = 30 * 60_000;
const defined = <T>(value: T | undefined): value is T => value !== undefined;
const iso = (ms: number) => new Date(ms).toISOString();

interface Day {
  shift: Shift;
  tour: Tour | undefined;
}

async function daysOf(scope: StoreScope, run: RunRecord): Promise<Day[]> {
  const shifts = (await shiftStore.of(scope).getMany(run.shift_ids ?? [])).filter(defined);
  const tours = await Promise.all(shifts.map((shift) => toursOfShift(scope, shift.id)));
  return shifts.flatMap((shift, index) => {
    const tour = currentTour(tours[index] ?? []);
    return tour === 'over' ? [] : [{ shift, tour }];
  });
}

const isStarted = (stop: TourStop, record: Case | undefined) =>
  startedStop.has(stop.status ?? 'PENDING') || (record !== undefined && startedCase.has(record.status));

/** Where the technician is, from the device that last moved the tour, when recent enough. */
async function livePosition(scope: StoreScope, tour: Tour, now: number): Promise<Place | undefined> {
  if (tour.status !== 'IN_PROGRESS') return undefined;
  const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
  const speaker = await getRecord(keys.liveSpeaker(workspaceId, tour.id));
  if (typeof speaker?.device_id !== 'string') return undefined;
  const state = await deviceStateStore.of(scope).get(speaker.device_id);
  const recorded = state?.location_recorded_at ? Date.parse(state.location_recorded_at) : Number.NaN;
  if (
    state?.latitude === undefined ||
    state.longitude === undefined ||
    !(now - recorded <= freshPositionMs)
  ) {
    return undefined;
  }
  return { latitude: state.latitude, longitude: state.longitude };
}

/** Where and when the rest of the day starts (the file's comment says how). */
async function restOfDay(
  scope: StoreScope,
  day: Day,
  cases: ReadonlyMap<string, Case>,
  now: number,
): Promise<{ start: number; place: Place }> {
  const shiftStart = Date.parse(day.shift.start);
  const stops = day.tour?.stops ?? [];
  const at = stops.findLast(
    (stop) => stop.status === 'ARRIVED' || cases.get(stop.case_id)?.status === 'IN_PROGRESS',
  );
  const current = at ? cases.get(at.case_id) : undefined;
  if (at && current?.location) {
    const began = Date.parse(at.arrived_at ?? current.scheduled_start ?? '') || now;
    return {
      start: Math.max(now, shiftStart, began + durationSecondsOf(current) * 1000),
      place: current.location,
    };
  }
  const position = day.tour ? await livePosition(scope, day.tour, now) : undefined;
  const done = stops.findLast((stop) => isStarted(stop, cases.get(stop.case_id)));
  const place =
    position ?? (done ? cases.get(done.case_id)?.location : undefined) ?? day.shift.start_location;
  return { start: Math.max(now, shiftStart), place };
}

export async function readRepairInput(
  scope: StoreScope,
  run: RunRecord,
  now = Date.now(),
): Promise<PlanningInput> {
  const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
  const days = await daysOf(scope, run);
  const stopIds = days.flatMap(({ tour }) => (tour?.stops ?? []).map((stop) => stop.case_id));
  const named = run.case_ids ?? [];
  const users = [...new Set(days.map(({ shift }) => shift.user_id))];
  const [read, principals] = await Promise.all([
    caseStore.of(scope).getMany([...new Set([...stopIds, ...named])]),
    Promise.all(users.map((id) => getPrincipal(workspaceId, id))),
  ]);
  const found = new Map(read.filter(defined).map((record) => [record.id, withPlanningDefaults(record)]));
  const entries = new Map<string, ReadCase>();
  const current: Record<string, string[]> = {};
  for (const { shift, tour } of days) {
    current[shift.id] = [];
    for (const stop of tour?.stops ?? []) {
      const record = found.get(stop.case_id);
      if (!record) continue;
      if (isStarted(stop, record)) {
        entries.set(record.id, { record, job: false, pinnedTo: shift.id });
      } else {
        const job = plannable.has(record.status) && record.location !== undefined;
        entries.set(record.id, { record, job });
        if (job) current[shift.id]?.push(record.id);
      }
    }
  }
  for (const id of named) {
    const record = found.get(id);
    if (record && !entries.has(id) && plannable.has(record.status)) entries.set(id, { record, job: true });
  }
  const replaced = days.flatMap(({ tour }) => (tour ? [tour] : []));
  const others = await holdingTours(scope, entries, new Set(replaced.map((tour) => tour.id)));
  const skillsOf = new Map(users.map((id, index) => [id, principals[index]?.skill_ids ?? []]));
  const jobs = [...entries.values()].filter((entry) => entry.job);
  const shifts: PlanningProblem['shifts'] = await Promise.all(
    days.map(async (day) => {
      const rest = await restOfDay(scope, day, found, now);
      const planned = planShift(day.shift, skillsOf.get(day.shift.user_id) ?? []);
      return {
        ...planned,
        start: iso(Math.min(rest.start, Date.parse(day.shift.end))),
        startLocation: rest.place,
      };
    }),
  );
  const from = iso(Math.max(now, Date.parse(run.from)));
  const problem: PlanningProblem = {
    from,
    to: Date.parse(run.to) > Date.parse(from) ? run.to : from,
    cases: jobs.map((entry) => planCase(entry, run, now)),
    shifts,
  };
  const basis = basisRead(
    [...entries.values()],
    days.map(({ shift }) => shift),
    [...replaced, ...others],
  );
  return {
    problem,
    basis,
    places: placesRead(
      jobs,
      days.map(({ shift }) => shift),
    ),
    current,
  };
}
