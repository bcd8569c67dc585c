/**
 * Booking an appointment (POST /api/v2/cases/{case_id}/book, API-DECISIONS.md "Dispatch you can
 * trust"): a slot as GET /api/v2/scheduling/slots offered it (shift_id, start, end) becomes the
 * window promised to the customer, as Salesforce Field Service's arrival windows are.
 *
 * - The shift's day is read as the slot search reads it (shift-day.ts, the workspace's travel), and
 *   the case goes where the search would put it for that window (slot-search.ts `bestInsertion`),
 *   so a slot just offered is bookable. No place works any more: 409 `slot_unavailable`.
 * - In one transaction: the stop inserted into the shift's current tour (or a PLANNED tour created
 *   for a shift without one), with planned_arrival; taken off another open tour the case was a stop
 *   of (a booking moves it); the case SCHEDULED for the shift's technician, `time_windows` the
 *   promised window (which every later run keeps), `scheduled_start` inside it where the day puts
 *   it, `scheduled_end` after its duration, and `schedule_lock` as asked (NONE by default).
 * - Races: every record is written on the version read, and guards keep one open tour per case and
 *   one PLANNED tour per shift (tour-claims.ts). A booking that loses reads the day again and checks
 *   once more, so of two bookings racing for room for one, one is 200 and the other 409.
 * - Bookings into one shift that arrive while another is being written are written together
 *   (group-commit.ts, booking-batch.ts): one read of the day, each placed in arrival order into the
 *   day with the ones before it, one transaction. A batch that loses a race falls back to booking
 *   each alone, so the answers are what one-at-a-time bookings in that order would give.
 *
 * Cost per attempt: the case, the shift, its technician, the shift's tours (a key range and its
 * guard), the case's guard and the stops' cases (1 BatchGetItem), one travel matrix, one
 * transaction of 7 items (the case, the tour, their events, the tour's list entry, the case's
 * guard, the tally), then the tally's apply. A batch of n: the same reads once (the cases and
 * guards in one BatchGetItem each), n travel matrices, one transaction of 3n + 4 items.
 */
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { type TableWrite, transactWrite } from '../../data/table.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { withPlanningDefaults } from '../cases/case-planning.ts';
import { groupCommitted, type Outcome } from '../group-commit.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore, toursOfShift } from '../tours/tour.store.ts';
import { heldCases, openToursOfCases, plannedTourOfShift, tourClaims } from '../tours/tour-claims.ts';
import type { BookAppointment } from './booking.schema.ts';
import { type BookingRequest, bookTogether, maxBatch } from './booking-batch.ts';
import {
  bookableCase,
  bookedCaseWrites,
  currentTourOf,
  early,
  placeCase,
  shiftOrThrow,
  tourWithStops,
  tourWritesOf,
  unavailable,
} from './booking-parts.ts';
import type { PlanningOptions } from './slots.service.ts';

/** Attempts of a booking that keeps losing races before it gives up. */
const maxAttempts = 6;

export async function bookCase(
  ctx: Actor,
  caseId: string,
  input: BookAppointment,
  options: PlanningOptions = {},
): Promise<Case> {
  // Bookings of a workspace queue up in this process and are written together (group-commit.ts):
  // contention becomes one shared transaction instead of lost ones; across processes the
  // conditional writes still decide.
  const queue = `booking:${ctx.workspaceId}`;
  const request: BookingRequest = { ctx, caseId: caseId.toLowerCase(), input, options };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const outcome = await groupCommitted(queue, request, bookBatch, maxBatch);
    if ('value' in outcome) return outcome.value;
    if ('error' in outcome) throw outcome.error;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
  }
  throw unavailable('The shift’s day kept changing while the case was booked; read the slots again.');
}

/** A batch of one is booked alone; more are written together. */
async function bookBatch(requests: BookingRequest[]): Promise<Array<Outcome<Case>>> {
  const [first] = requests;
  if (requests.length === 1 && first) return [await bookAlone(first)];
  return bookTogether(requests, bookAlone);
}

/** One booking on its own: booked, a race lost (queue again), or its error. */
async function bookAlone(request: BookingRequest): Promise<Outcome<Case>> {
  try {
    const booked = await tryBooking(request.ctx, request.caseId, request.input, request.options);
    return booked ? { value: booked } : { again: true };
  } catch (error) {
    return { error };
  }
}

/** One attempt: the booked case, or undefined when a race was lost (the caller reads again). */
async function tryBooking(
  ctx: Actor,
  id: string,
  input: BookAppointment,
  options: PlanningOptions,
): Promise<Case | undefined> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  // Everything that needs no answer of another read goes out at once (a booking is a round trip each).
  const shiftId = input.shift_id.toLowerCase();
  const tourReads = {
    tours: early(toursOfShift(ctx, shiftId)),
    planned: early(plannedTourOfShift(ctx, shiftId)),
  };
  const holdersRead = early(openToursOfCases(ctx, [id]));
  const [record, shift] = await Promise.all([bookableCase(ctx, id), shiftOrThrow(ctx, input.shift_id)]);
  const [technician, tour, holders] = await Promise.all([
    getPrincipal(ctx.workspaceId, shift.user_id),
    currentTourOf(ctx, shift.id, tourReads),
    holdersRead,
  ]);
  if (tour === 'over') throw unavailable('The shift’s day is over: its tour is DONE.');
  const stopIds = (tour?.stops ?? []).map((stop) => stop.case_id).filter((stopId) => stopId !== id);
  const stopCases = await caseStore.of(ctx).getManyConsistent(stopIds);
  const cases = new Map(stopCases.flatMap((stop) => (stop ? [[stop.id, stop]] : [])));
  const stamp = new Date().toISOString();
  const skillIds = technician?.skill_ids ?? [];
  const { stops, nextCase } = await placeCase(
    record,
    input,
    { shift, tour, cases, skillIds, now, stamp },
    options,
  );
  const nextTour = tourWithStops(shift, tour, stops, stamp);
  const writes = await bookingWrites(ctx, { record, nextCase, tour, nextTour, holder: holders.get(id) });
  if (!writes) return undefined;
  try {
    await transactWrite(writes);
  } catch (error) {
    if (error instanceof DataError && error.code !== 'unavailable') return undefined;
    throw error;
  }
  return withPlanningDefaults(nextCase);
}

/**
 * The booking's transaction: the case, the shift's tour (created or replaced, its guards taken),
 * and the other open tour the case leaves; undefined when a guard shows a race was lost.
 */
async function bookingWrites(
  ctx: Actor,
  parts: { record: Case; nextCase: Case; tour: Tour | undefined; nextTour: Tour; holder: string | undefined },
): Promise<TableWrite[] | undefined> {
  const { record, nextCase, tour, nextTour, holder } = parts;
  const leaving =
    holder && holder !== nextTour.id ? await tourStore.of(ctx).getConsistent(holder) : undefined;
  const left =
    leaving && heldCases(leaving).has(record.id)
      ? {
          ...leaving,
          stops: leaving.stops.filter((stop) => stop.case_id !== record.id),
          lock_version: leaving.lock_version + 1,
          updated_at: nextCase.updated_at,
        }
      : undefined;
  const [taking, giving] = await Promise.all([
    tourClaims(ctx, tour, nextTour, left ? { from: new Map([[record.id, left.id]]) } : {}),
    left && leaving
      ? tourClaims(ctx, leaving, left, { to: new Set([record.id]) })
      : { writes: [], conflicts: [] },
  ]);
  if (taking.conflicts.length > 0 || giving.conflicts.length > 0) return undefined;
  const leftWrites = left && leaving ? tourWritesOf(ctx, leaving, left) : [];
  // The tour first: a booking is a write of the tour that takes the case (its transaction's own
  // item, test/contract/transaction-keys.test.ts), which schedules the case with it.
  return [
    ...tourWritesOf(ctx, tour, nextTour),
    ...bookedCaseWrites(ctx, record, nextCase),
    ...taking.writes,
    ...leftWrites,
    ...giving.writes,
  ];
}
