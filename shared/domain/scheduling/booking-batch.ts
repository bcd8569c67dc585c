/**
 * Bookings of one workspace written together (booking.service.ts hands over the ones that queued
 * up behind another, group-commit.ts): each shift's day is read once, each booking is placed in
 * arrival order into its shift's day with the bookings before it (placeCase, as a booking alone
 * is), and the cases, the tours with their new stops and the cases' guards are written in as few
 * transactions as DynamoDB's 100 items allow (a shift's bookings always in one).
 *
 * Each booking gets the answer it would get alone in that order: its own 404, 409 or 422 when it
 * does not fit (the others go on), 200 with its case once its transaction commits. What a batch
 * does not handle goes to the booking alone, after the batch, in the same turn of the queue:
 * - a case on another open tour (its booking moves it, which writes that tour too);
 * - the bookings of a shift whose transaction lost a race or whose guards name another tour
 *   (alone, each reads the day again: the same answers as one-at-a-time bookings).
 * A case named twice in one batch is queued again.
 *
 * Why: DynamoDB Local serves one call at a time per core, and a booking alone is about twelve
 * calls, two of them transactions; twenty bookings at once then wait on each other's calls. In a
 * batch they share the reads of each shift and the transaction.
 */
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { type TableWrite, transactWrite } from '../../data/table.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { withPlanningDefaults } from '../cases/case-planning.ts';
import type { Outcome } from '../group-commit.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore, toursOfShift } from '../tours/tour.store.ts';
import { openToursOfCases, plannedToursOfShifts, tourClaims } from '../tours/tour-claims.ts';
import type { BookAppointment } from './booking.schema.ts';
import {
  type BookableCase,
  bookable,
  bookedCaseWrites,
  type CurrentTourChoice,
  currentTourChoice,
  currentTourFrom,
  early,
  noSuchShift,
  placeCase,
  tourWithStops,
  tourWritesOf,
  unavailable,
} from './booking-parts.ts';
import type { PlanningOptions } from './slots.service.ts';

export interface BookingRequest {
  ctx: Actor;
  caseId: string;
  input: BookAppointment;
  options: PlanningOptions;
}

/**
 * Bookings per batch. A booking writes 3 items (the case, its event, its guard) and each shift 3 or
 * 4 more (its tour, the tour's event, its list entry, a guard), so 25 bookings over up to 7 shifts
 * fit one transaction; more shifts take more.
 */
export const maxBatch = 25;

/** DynamoDB's bound on the items of one transaction. */
const transactionItems = 100;

interface Placed {
  index: number;
  /** Who booked it: the case's event is theirs. */
  ctx: Actor;
  record: BookableCase;
  nextCase: Case;
}

/** A shift's day as the batch reads it, and the bookings placed into it. */
interface ShiftBatch {
  shift: Shift;
  tour: Tour | undefined;
  skillIds: readonly string[];
  stops: Tour['stops'];
  placed: Placed[];
}

type Answer = Outcome<Case> | 'alone';

/**
 * Each shift, its technician's skills and its current tour, or why it takes no booking: the
 * shifts, their PLANNED guards and their current tours in one BatchGetItem each, a key range of
 * tours and the technician per shift.
 */
async function readShifts(
  ctx: Actor,
  shiftIds: readonly string[],
): Promise<Array<ShiftBatch | { error: unknown }>> {
  const plannedRead = early(plannedToursOfShifts(ctx, shiftIds));
  const toursRead = early(Promise.all(shiftIds.map((id) => toursOfShift(ctx, id))));
  const shifts = await shiftStore.of(ctx).getManyConsistent(shiftIds);
  const userIds = [...new Set(shifts.flatMap((shift) => (shift ? [shift.user_id] : [])))];
  const [planned, tours, technicians] = await Promise.all([
    plannedRead,
    toursRead,
    Promise.all(userIds.map((userId) => getPrincipal(ctx.workspaceId, userId))),
  ]);
  const skillsOf = new Map(userIds.map((userId, index) => [userId, technicians[index]?.skill_ids ?? []]));
  const choices = shiftIds.map((id, index) => currentTourChoice(tours[index] ?? [], planned.get(id)));
  const reads = await tourStore
    .of(ctx)
    .getManyConsistent([...new Set(choices.flatMap((choice) => (choice.read ? [choice.read] : [])))]);
  const readTours = new Map(reads.flatMap((tour) => (tour ? [[tour.id, tour]] : [])));
  return shiftIds.map((id, index) => {
    const shift = shifts[index];
    const choice = choices[index] as CurrentTourChoice;
    if (!shift) return { error: noSuchShift() };
    const tour = currentTourFrom(id, choice, choice.read ? readTours.get(choice.read) : undefined);
    if (tour === 'over') return { error: unavailable('The shift’s day is over: its tour is DONE.') };
    return { shift, tour, skillIds: skillsOf.get(shift.user_id) ?? [], stops: tour?.stops ?? [], placed: [] };
  });
}

export async function bookTogether(
  requests: BookingRequest[],
  alone: (request: BookingRequest) => Promise<Outcome<Case>>,
): Promise<Array<Outcome<Case>>> {
  const [first] = requests;
  if (!first) return [];
  const { ctx, options } = first;
  const ids = requests.map((request) => request.caseId);
  const shiftIds = [...new Set(requests.map((request) => request.input.shift_id.toLowerCase()))];
  const [found, holders, days] = await Promise.all([
    caseStore.of(ctx).getManyConsistent(ids),
    openToursOfCases(ctx, ids),
    readShifts(ctx, shiftIds),
  ]);
  const shifts = new Map(shiftIds.map((id, index) => [id, days[index] as ShiftBatch | { error: unknown }]));
  const stopIds = [...shifts.values()].flatMap((day) =>
    'error' in day ? [] : day.stops.map((stop) => stop.case_id).filter((id) => !ids.includes(id)),
  );
  const cases = new Map<string, Case>();
  for (const record of [...(await caseStore.of(ctx).getManyConsistent(stopIds)), ...found]) {
    if (record) cases.set(record.id, record);
  }

  const answers: Answer[] = requests.map(() => ({ again: true }));
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const stamp = new Date().toISOString();
  const booked = new Set<string>();
  for (const [index, request] of requests.entries()) {
    const id = request.caseId;
    const day = shifts.get(request.input.shift_id.toLowerCase());
    if (!day || booked.has(id)) continue; // named twice: queued again
    if ('error' in day) {
      answers[index] = { error: day.error };
      continue;
    }
    const holder = holders.get(id);
    if (holder && holder !== day.tour?.id) {
      answers[index] = 'alone';
      continue;
    }
    try {
      const record = bookable(found[index]);
      const working = day.tour
        ? { ...day.tour, stops: day.stops }
        : tourWithStops(day.shift, undefined, day.stops, stamp);
      const where = { shift: day.shift, tour: working, cases, skillIds: day.skillIds, now, stamp };
      const placement = await placeCase(record, request.input, where, request.options);
      day.stops = placement.stops;
      cases.set(id, placement.nextCase);
      booked.add(id);
      day.placed.push({ index, ctx: request.ctx, record, nextCase: placement.nextCase });
    } catch (error) {
      answers[index] = { error };
    }
  }

  const taking = [...shifts.values()].filter(
    (day): day is ShiftBatch => !('error' in day) && day.placed.length > 0,
  );
  await writeShifts(ctx, taking, stamp, answers);
  // What the batch left to the booking alone, one after another in arrival order.
  const outcomes: Array<Outcome<Case>> = [];
  for (const [index, answer] of answers.entries()) {
    const request = requests[index];
    outcomes.push(answer === 'alone' && request ? await alone(request) : (answer as Outcome<Case>));
  }
  return outcomes;
}

/**
 * The shifts' writes, as few transactions as the item bound allows (one shift's never split);
 * each booking's answer is its case, or 'alone' when its shift's transaction lost a race.
 */
async function writeShifts(ctx: Actor, days: readonly ShiftBatch[], stamp: string, answers: Answer[]) {
  const planned = await Promise.all(
    days.map(async (day) => ({ day, writes: await shiftWrites(ctx, day, stamp) })),
  );
  const chunks: Array<{ days: ShiftBatch[]; writes: TableWrite[]; items: number }> = [];
  for (const { day, writes } of planned) {
    if (!writes) {
      for (const booking of day.placed) answers[booking.index] = 'alone';
      continue;
    }
    const items = itemsOf(writes);
    const last = chunks.at(-1);
    if (last && last.items + items <= transactionItems) {
      last.days.push(day);
      last.writes.push(...writes);
      last.items += items;
    } else chunks.push({ days: [day], writes: [...writes], items });
  }
  await Promise.all(
    chunks.map(async (chunk) => {
      const written = chunk.items <= transactionItems ? await committed(chunk.writes) : false;
      for (const day of chunk.days) {
        for (const booking of day.placed) {
          answers[booking.index] =
            written === true
              ? { value: withPlanningDefaults(booking.nextCase) }
              : written === false
                ? 'alone'
                : written;
        }
      }
    }),
  );
}

/** Items of a transaction: its shared counters leave it as one tally item (tally.ts). */
function itemsOf(writes: readonly TableWrite[]): number {
  return writes.filter((write) => !(write.kind === 'add' && write.tally)).length + 1;
}

/** One shift's writes: its cases, its tour and the guards; undefined when a guard names another tour. */
async function shiftWrites(ctx: Actor, day: ShiftBatch, stamp: string): Promise<TableWrite[] | undefined> {
  const { tour } = day;
  const nextTour = tourWithStops(day.shift, tour, day.stops, stamp);
  const claims = await tourClaims(ctx, tour, nextTour);
  if (claims.conflicts.length > 0) return undefined;
  // The tour first: the bookings are a write of the tour (as a booking alone is, booking.service.ts).
  return [
    ...tourWritesOf(ctx, tour, nextTour),
    ...day.placed.flatMap(({ ctx: actor, record, nextCase }) => bookedCaseWrites(actor, record, nextCase)),
    ...claims.writes,
  ];
}

/**
 * Commits the writes: true, false when a condition shows a race was lost, or the error that the
 * chunk's bookings answer (the store unavailable: other chunks' answers stand).
 */
async function committed(writes: readonly TableWrite[]): Promise<boolean | { error: unknown }> {
  try {
    await transactWrite(writes);
    return true;
  } catch (error) {
    if (error instanceof DataError && error.code !== 'unavailable') return false;
    return { error };
  }
}
