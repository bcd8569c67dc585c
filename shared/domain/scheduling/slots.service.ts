/**
 * Appointment slots on the request path (API-DECISIONS.md, "Appointment slots" as tightened by
 * "Dispatch you can trust"): where a case can still be booked without breaking what is planned.
 * Reads the current day of every shift that could take it (shift-day.ts), then hands the search to
 * slot-search.ts (pure, every slot verified there by re-inserting the case into the tour and
 * recomputing the day). Booking (booking.service.ts) sees the same day, through the same code, so
 * every slot offered can be booked at that moment.
 *
 * - The case: of the workspace (otherwise not-found: it is named in the query, as comments' target
 *   is), with a location, not IN_PROGRESS, DONE or CANCELLED (otherwise invalid at
 *   `#/query/case_id`). Its duration, required skills and windows are its planning fields.
 * - The shifts: every shift overlapping [from, to) whose technician offers every required skill.
 * - Nothing starts in the past: the case's windows are cut at `now`.
 * - Travel: the workspace's (the wiring passes its port: Amazon Location where it routes with it),
 *   as its optimization runs use.
 *
 * Cost: 1 GetItem (the case), the overlapping shifts (a key range), 1 GetItem per technician,
 * the PLANNED, IN_PROGRESS and DONE tours dated around the search (three key ranges of the tours'
 * date index, 1 BatchGetItem per 100 tours), 1 BatchGetItem per 100 stops, one travel matrix; no
 * write.
 */
import type { Actor } from '../../auth/actor.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { formatIsoDuration, parseIsoDuration } from '../../schema/duration.ts';
import { queryFieldError } from '../../schema/field-error.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { durationSecondsOf } from '../cases/case-planning.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftsOverlapping } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { toursOfStatus } from '../tours/tour.store.ts';
import { SchedulingError } from './scheduling-error.ts';
import { currentTour, type ShiftDay, shiftDayOf } from './shift-day.ts';
import { type SlotTask, searchSlots, slotScore, type TravelSeconds } from './slot-search.ts';
import { type AppointmentSlot, type SlotQueryInput, slotLimits } from './slots.schema.ts';
import { greatCircleTravel, type Place, type TravelPort } from './travel.ts';

/** Statuses of a case that is no longer to be booked. */
export const unbookable = new Set(['IN_PROGRESS', 'DONE', 'CANCELLED']);

const seconds = (instant: string) => Date.parse(instant) / 1000;
const iso = (second: number) => new Date(second * 1000).toISOString();
const durationSeconds = (value: string) => {
  const parsed = parseIsoDuration(value);
  return 'seconds' in parsed ? parsed.seconds : 0;
};

export interface PlanningOptions {
  /** The workspace's travel (default: great-circle). */
  travel?: TravelPort;
  /** Epoch milliseconds of "now". */
  now?: number;
}

function invalidCase(detail: string): SchedulingError {
  return new SchedulingError('invalid', { fields: [queryFieldError('case_id', 'field-invalid', detail)] });
}

async function bookableCaseOrThrow(ctx: Actor, id: string): Promise<Case & { location: Place }> {
  const record = await caseStore.of(ctx).get(id.toLowerCase());
  if (!record) throw new SchedulingError('not-found', { detail: 'No case with this id exists.' });
  if (!record.location) throw invalidCase('the case has no location: it cannot be planned');
  if (unbookable.has(record.status)) {
    throw invalidCase(`the case is ${record.status}: only open work is booked`);
  }
  return record as Case & { location: Place };
}

/** The case as a task of the search: its windows (or [from, to]) cut at `now`. */
export function taskOf(record: Case & { location: Place }, from: number, to: number, now: number): SlotTask {
  const own = (record.time_windows ?? []).map(
    (window) => [seconds(window.start), seconds(window.end)] as const,
  );
  const windows = (own.length > 0 ? own : [[from, to] as const])
    .map(([open, close]) => [Math.max(open, now), close] as const)
    .filter(([open, close]) => open <= close);
  return { caseId: record.id, place: record.location, durationSeconds: durationSecondsOf(record), windows };
}

const dayOf = (instant: string, offsetDays: number) =>
  new Date(Date.parse(instant) + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The skills each shift's technician offers (1 GetItem per technician). */
export async function skillsOfShifts(
  ctx: Actor,
  shifts: readonly Shift[],
): Promise<Map<string, readonly string[]>> {
  const users = [...new Set(shifts.map((shift) => shift.user_id))];
  const principals = await Promise.all(users.map((id) => getPrincipal(ctx.workspaceId, id)));
  return new Map(users.map((id, index) => [id, principals[index]?.skill_ids ?? []]));
}

/** The current tour of each shift, from the tours dated around the search (three key ranges). */
async function toursOfShifts(ctx: Actor, from: string, to: string): Promise<Map<string, Tour[]>> {
  const days = { from: dayOf(from, -1), to: dayOf(to, 1) };
  const read = await Promise.all(
    (['PLANNED', 'IN_PROGRESS', 'DONE'] as const).map((status) => toursOfStatus(ctx, status, days)),
  );
  const byShift = new Map<string, Tour[]>();
  for (const tour of read.flat()) {
    if (!tour.shift_id) continue;
    byShift.set(tour.shift_id, [...(byShift.get(tour.shift_id) ?? []), tour]);
  }
  return byShift;
}

/** The days of the shifts that may take the case, its stops' cases read in one batch. */
async function shiftDays(
  ctx: Actor,
  record: Case,
  from: string,
  to: string,
  now: number,
): Promise<ShiftDay[]> {
  const shifts = await shiftsOverlapping(ctx, from, to);
  const [skillsOf, toursOf] = await Promise.all([skillsOfShifts(ctx, shifts), toursOfShifts(ctx, from, to)]);
  const required = record.required_skill_ids ?? [];
  const open = shifts.flatMap((shift) => {
    const skills = skillsOf.get(shift.user_id) ?? [];
    if (!required.every((skill) => skills.includes(skill))) return [];
    const tour = currentTour(toursOf.get(shift.id) ?? []);
    return tour === 'over' ? [] : [{ shift, tour, skills }];
  });
  const caseIds = [...new Set(open.flatMap(({ tour }) => (tour?.stops ?? []).map((stop) => stop.case_id)))];
  const stopCases = await caseStore.of(ctx).getMany(caseIds);
  const cases = new Map(stopCases.flatMap((stop) => (stop ? [[stop.id, stop]] : [])));
  return open.map(({ shift, tour, skills }) =>
    shiftDayOf({ shift, tour, cases, skillIds: skills, booking: record.id, now }),
  );
}

/** Travel between the places of the search, from one matrix of the travel port. */
export async function travelBetween(
  port: TravelPort,
  task: SlotTask,
  days: readonly ShiftDay[],
): Promise<TravelSeconds> {
  const key = (place: Place) => `${place.latitude},${place.longitude}`;
  const index = new Map<string, number>();
  const places: Place[] = [];
  const add = (place: Place) => {
    if (index.has(key(place))) return;
    index.set(key(place), places.length);
    places.push(place);
  };
  add(task.place);
  for (const { search } of days) {
    add(search.startPlace);
    add(search.endPlace);
    for (const stop of search.stops) add(stop.place);
  }
  const { durations } = await port.matrix(places);
  return (a, b) => durations[index.get(key(a)) ?? 0]?.[index.get(key(b)) ?? 0] ?? Number.POSITIVE_INFINITY;
}

export async function findSlots(
  ctx: Actor,
  query: SlotQueryInput,
  options: PlanningOptions = {},
): Promise<{ items: AppointmentSlot[] }> {
  const record = await bookableCaseOrThrow(ctx, query.case_id);
  const from = seconds(query.from);
  const to = seconds(query.to);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const task = taskOf(record, from, to, now);
  const days = task.windows.length > 0 ? await shiftDays(ctx, record, query.from, query.to, now) : [];
  if (days.length === 0) return { items: [] };
  const travel = await travelBetween(options.travel ?? greatCircleTravel, task, days);
  const slots = searchSlots(
    {
      task,
      requiredSkillIds: record.required_skill_ids ?? [],
      from,
      to,
      slotSeconds: durationSeconds(query.slot_length ?? slotLimits.defaultSlotLength),
      limit: query.limit ?? slotLimits.defaultItems,
    },
    days.map((day) => day.search),
    travel,
  );
  return {
    items: slots.map((slot) => ({
      start: iso(slot.start),
      end: iso(slot.end),
      user_id: slot.userId,
      shift_id: slot.shiftId,
      added_travel_duration: formatIsoDuration(slot.addedTravelSeconds),
      score: slotScore(slot.addedTravelSeconds),
    })),
  };
}
