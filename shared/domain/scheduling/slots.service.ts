/**
 * Appointment slots on the request path (API-DECISIONS.md, "Appointment slots"): where a case can
 * still be booked without breaking what is planned. Reads the current day of every shift that
 * could take it, then hands the search to slot-search.ts (pure, every slot verified there by
 * re-inserting the case into the tour and recomputing the day).
 *
 * - The case: of the workspace (otherwise not-found: it is named in the query, as comments' target
 *   is), with a location, not IN_PROGRESS, DONE or CANCELLED (otherwise invalid at
 *   `#/query/case_id`). Its duration, required skills and windows are its planning fields.
 * - The shifts: every shift overlapping [from, to) whose technician offers every required skill.
 * - Their current tours: a shift's PLANNED tour (the first, as runs read it) gives its stops in
 *   order; each stop's case keeps its promised start (`scheduled_start`) exactly, or else its
 *   windows. Stops whose case is gone, done, cancelled or has no location are not driven to. A
 *   shift whose only tours are IN_PROGRESS or DONE offers nothing: its day is under way. The
 *   case itself is taken off the tour it is on (booking it again moves it).
 * - Nothing starts in the past: the case's windows are cut at `now`.
 * - Travel: the great-circle model unless the wiring passes another port.
 *
 * Cost: 1 GetItem (the case), the overlapping shifts (a key range), 1 GetItem per technician,
 * the PLANNED, IN_PROGRESS and DONE tours dated around the search (three key ranges of the tours'
 * date index, 1 BatchGetItem per 100 tours), 1 BatchGetItem per 100 stops; no write. About 50 ms
 * locally for 500 planned cases over 50 shifts.
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
import { type SlotShift, type SlotTask, searchSlots, slotScore, type TravelSeconds } from './slot-search.ts';
import { type AppointmentSlot, type SlotQueryInput, slotLimits } from './slots.schema.ts';
import { greatCircleTravel, type Place, type TravelPort } from './travel.ts';

/** Statuses of a case that is no longer to be booked. */
const unbookable = new Set(['IN_PROGRESS', 'DONE', 'CANCELLED']);
/** Stops that are not driven to any more. */
const gone = new Set(['DONE', 'CANCELLED']);

const seconds = (instant: string) => Date.parse(instant) / 1000;
const iso = (second: number) => new Date(second * 1000).toISOString();
const durationSeconds = (value: string) => {
  const parsed = parseIsoDuration(value);
  return 'seconds' in parsed ? parsed.seconds : 0;
};

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

/** The case as a task of the search: its windows (or the whole search) cut at `now`. */
function taskOf(record: Case & { location: Place }, from: number, to: number, now: number): SlotTask {
  const own = (record.time_windows ?? []).map(
    (window) => [seconds(window.start), seconds(window.end)] as const,
  );
  const windows = (own.length > 0 ? own : [[from, to] as const])
    .map(([open, close]) => [Math.max(open, now), close] as const)
    .filter(([open, close]) => open <= close);
  return { caseId: record.id, place: record.location, durationSeconds: durationSecondsOf(record), windows };
}

/** A stop of a current tour: promised starts hold exactly, others keep their windows. */
function stopTask(record: Case): SlotTask | undefined {
  if (!record.location || gone.has(record.status)) return undefined;
  const windows = record.scheduled_start
    ? [[seconds(record.scheduled_start), seconds(record.scheduled_start)] as const]
    : (record.time_windows ?? []).map((window) => [seconds(window.start), seconds(window.end)] as const);
  return { caseId: record.id, place: record.location, durationSeconds: durationSecondsOf(record), windows };
}

const dayOf = (instant: string, offsetDays: number) =>
  new Date(Date.parse(instant) + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * The stops (case ids in driving order) of each shift's PLANNED tour (the first by date, then id);
 * undefined: the shift's day is under way (a tour IN_PROGRESS or DONE). Tours are read by status
 * and date around the search (a day either side), three key ranges, not one Query per shift.
 */
async function currentStops(
  ctx: Actor,
  shifts: readonly Shift[],
  from: string,
  to: string,
): Promise<Array<string[] | undefined>> {
  const days = { from: dayOf(from, -1), to: dayOf(to, 1) };
  const [planned, started, done] = await Promise.all(
    (['PLANNED', 'IN_PROGRESS', 'DONE'] as const).map((status) => toursOfStatus(ctx, status, days)),
  );
  const underWay = new Set([...(started ?? []), ...(done ?? [])].map((tour) => tour.shift_id));
  const first = new Map<string, Tour>();
  for (const tour of planned ?? []) {
    if (!tour.shift_id) continue;
    const known = first.get(tour.shift_id);
    if (!known || tour.date < known.date || (tour.date === known.date && tour.id < known.id)) {
      first.set(tour.shift_id, tour);
    }
  }
  return shifts.map((shift) => {
    const tour = first.get(shift.id);
    if (tour) return tour.stops.map((stop) => stop.case_id);
    return underWay.has(shift.id) ? undefined : [];
  });
}

async function skilledShifts(ctx: Actor, record: Case, from: string, to: string) {
  const shifts = await shiftsOverlapping(ctx, from, to);
  const users = [...new Set(shifts.map((shift) => shift.user_id))];
  const principals = await Promise.all(users.map((id) => getPrincipal(ctx.workspaceId, id)));
  const skillsOf = new Map(users.map((id, index) => [id, principals[index]?.skill_ids ?? []]));
  const required = record.required_skill_ids ?? [];
  return shifts
    .filter((shift) => required.every((skill) => skillsOf.get(shift.user_id)?.includes(skill)))
    .map((shift) => ({ shift, skillIds: skillsOf.get(shift.user_id) ?? [] }));
}

/** The shifts as the search sees them: hours, places, breaks, skills and current stops. */
async function slotShifts(ctx: Actor, record: Case, from: string, to: string): Promise<SlotShift[]> {
  const skilled = await skilledShifts(ctx, record, from, to);
  const stopsOf = await currentStops(
    ctx,
    skilled.map(({ shift }) => shift),
    from,
    to,
  );
  const caseIds = [...new Set(stopsOf.flatMap((ids) => ids ?? []))].filter((id) => id !== record.id);
  const cases = await caseStore.of(ctx).getMany(caseIds);
  const tasks = new Map<string, SlotTask>();
  cases.forEach((stop) => {
    const task = stop ? stopTask(stop) : undefined;
    if (task) tasks.set(task.caseId, task);
  });
  return skilled.flatMap(({ shift, skillIds }, index) => {
    const stops = stopsOf[index];
    if (!stops) return [];
    return [
      {
        id: shift.id,
        userId: shift.user_id,
        start: seconds(shift.start),
        end: seconds(shift.end),
        startPlace: shift.start_location,
        endPlace: shift.end_location,
        breaks: shift.breaks.map((pause) => ({
          earliestStart: seconds(pause.earliest_start),
          latestEnd: seconds(pause.latest_end),
          durationSeconds: durationSeconds(pause.duration),
        })),
        skillIds,
        stops: stops.flatMap((id) => tasks.get(id) ?? []),
      },
    ];
  });
}

/** Travel between the places of the search, from one matrix of the travel port. */
async function travelBetween(port: TravelPort, task: SlotTask, shifts: readonly SlotShift[]) {
  const key = (place: Place) => `${place.latitude},${place.longitude}`;
  const index = new Map<string, number>();
  const places: Place[] = [];
  const add = (place: Place) => {
    if (index.has(key(place))) return;
    index.set(key(place), places.length);
    places.push(place);
  };
  add(task.place);
  for (const shift of shifts) {
    add(shift.startPlace);
    add(shift.endPlace);
    for (const stop of shift.stops) add(stop.place);
  }
  const { durations } = await port.matrix(places);
  const travel: TravelSeconds = (a, b) =>
    durations[index.get(key(a)) ?? 0]?.[index.get(key(b)) ?? 0] ?? Number.POSITIVE_INFINITY;
  return travel;
}

export async function findSlots(
  ctx: Actor,
  query: SlotQueryInput,
  options: { travel?: TravelPort; now?: number } = {},
): Promise<{ items: AppointmentSlot[] }> {
  const record = await bookableCaseOrThrow(ctx, query.case_id);
  const from = seconds(query.from);
  const to = seconds(query.to);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const task = taskOf(record, from, to, now);
  const shifts = task.windows.length > 0 ? await slotShifts(ctx, record, query.from, query.to) : [];
  if (shifts.length === 0) return { items: [] };
  const travel = await travelBetween(options.travel ?? greatCircleTravel, task, shifts);
  const slots = searchSlots(
    {
      task,
      requiredSkillIds: record.required_skill_ids ?? [],
      from,
      to,
      slotSeconds: durationSeconds(query.slot_length ?? slotLimits.defaultSlotLength),
      limit: query.limit ?? slotLimits.defaultItems,
    },
    shifts,
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
