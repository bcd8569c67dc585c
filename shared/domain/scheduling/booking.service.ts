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
 *
 * Cost per attempt: the case, the shift, its technician, the shift's tours (a key range and its
 * guard), the case's guard and the stops' cases (1 BatchGetItem), one travel matrix, one
 * transaction of about 15 to 25 items.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { type TableWrite, transactWrite } from '../../data/table.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { withPlanningDefaults } from '../cases/case-planning.ts';
import { serialized } from '../keyed-mutex.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore, toursOfShift } from '../tours/tour.store.ts';
import { heldCases, openToursOfCases, plannedTourOfShift, tourClaims } from '../tours/tour-claims.ts';
import type { BookAppointment } from './booking.schema.ts';
import { SchedulingError } from './scheduling-error.ts';
import { currentTour, shiftDayOf, tourPositionOf } from './shift-day.ts';
import { bestInsertion, type SlotTask } from './slot-search.ts';
import { type PlanningOptions, taskOf, travelBetween, unbookable } from './slots.service.ts';
import { greatCircleTravel, type Place } from './travel.ts';

/** Attempts of a booking that keeps losing races before it gives up. */
const maxAttempts = 6;

const seconds = (instant: string) => Date.parse(instant) / 1000;
const iso = (second: number) => new Date(second * 1000).toISOString();

const unavailable = (detail: string) =>
  new SchedulingError('conflict', { detail, data: { reason: 'slot_unavailable' } });

function notBookable(record: Case, detail: string): SchedulingError {
  return new SchedulingError('conflict', {
    detail,
    data: { reason: 'case_not_bookable', status: record.status },
  });
}

/** A read started before it is awaited: its failure is awaited later, never an unhandled rejection. */
function early<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}

/** The case's task restricted to the booked window. */
function bookedTask(task: SlotTask, start: number, end: number): SlotTask {
  const windows = task.windows
    .map(([open, close]) => [Math.max(open, start), Math.min(close, end)] as const)
    .filter(([open, close]) => open <= close);
  return { ...task, windows };
}

export async function bookCase(
  ctx: Actor,
  caseId: string,
  input: BookAppointment,
  options: PlanningOptions = {},
): Promise<Case> {
  // Bookings into one shift queue up in this process (keyed-mutex.ts): contention becomes waiting
  // instead of lost transactions; across processes the conditional writes still decide.
  const queue = `booking:${ctx.workspaceId}:${input.shift_id.toLowerCase()}`;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const booked = await serialized(queue, () => tryBooking(ctx, caseId.toLowerCase(), input, options));
    if (booked) return booked;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
  }
  throw unavailable('The shift’s day kept changing while the case was booked; read the slots again.');
}

async function bookableCase(ctx: Actor, id: string): Promise<Case & { location: Place }> {
  const found = await caseStore.of(ctx).getConsistent(id);
  if (!found) throw new SchedulingError('not-found', { detail: 'No case with this id exists.' });
  const record = withPlanningDefaults(found);
  if (!record.location) throw notBookable(record, 'The case has no location: it cannot be planned.');
  if (unbookable.has(record.status))
    throw notBookable(record, `The case is ${record.status}: only open work is booked.`);
  return record as Case & { location: Place };
}

async function shiftOrThrow(ctx: Actor, id: string): Promise<Shift> {
  const shift = await shiftStore.of(ctx).getConsistent(id.toLowerCase());
  if (shift) return shift;
  throw new SchedulingError('invalid', {
    fields: [
      {
        type: 'field-invalid',
        pointer: '#/shift_id',
        detail: 'no shift with this id exists in the workspace',
      },
    ],
  });
}

/**
 * The shift's current tour: its IN_PROGRESS one (the shift's tours, a key range), else its PLANNED
 * one (found through its guard and read strongly consistent: the version the booking writes on).
 */
async function currentTourOf(
  ctx: Actor,
  shiftId: string,
  reads: { tours: Promise<Tour[]>; planned: Promise<string | undefined> },
): Promise<Tour | 'over' | undefined> {
  const [tours, plannedId] = await Promise.all([reads.tours, reads.planned]);
  const others = tours.filter((tour) => tour.id !== plannedId && tour.status !== 'PLANNED');
  const onTheRoad = currentTour(others);
  if (onTheRoad && onTheRoad !== 'over') return tourStore.of(ctx).getConsistent(onTheRoad.id);
  const planned = plannedId ? await tourStore.of(ctx).getConsistent(plannedId) : undefined;
  if (planned?.status === 'PLANNED' && planned.shift_id === shiftId) return planned;
  return onTheRoad;
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
  const skills = technician?.skill_ids ?? [];
  if (!(record.required_skill_ids ?? []).every((skill) => skills.includes(skill))) {
    throw unavailable('The shift’s technician does not offer every skill the case requires.');
  }
  if (tour === 'over') throw unavailable('The shift’s day is over: its tour is DONE.');
  const stopIds = (tour?.stops ?? []).map((stop) => stop.case_id).filter((stopId) => stopId !== id);
  const stopCases = await caseStore.of(ctx).getManyConsistent(stopIds);
  const cases = new Map(stopCases.flatMap((stop) => (stop ? [[stop.id, stop]] : [])));
  const day = shiftDayOf({ shift, tour, cases, skillIds: skills, booking: id, now });
  const [start, end] = [seconds(input.start), seconds(input.end)];
  const task = bookedTask(taskOf(record, start, end, now), start, end);
  if (task.windows.length === 0) throw unavailable('The slot is past, or outside the case’s time windows.');
  const travel = await travelBetween(options.travel ?? greatCircleTravel, task, [day]);
  const insertion = bestInsertion(day.search, task, travel);
  if (!insertion)
    throw unavailable('The slot is no longer free: the case fits nowhere in the shift’s day then.');

  const stops = [...day.stops];
  stops.splice(tourPositionOf(day, insertion.position), 0, {
    case_id: id,
    planned_arrival: iso(insertion.arrival),
  });
  const stamp = new Date().toISOString();
  const nextTour: Tour = tour
    ? { ...tour, stops, lock_version: tour.lock_version + 1, updated_at: stamp }
    : {
        id: uuidv7(),
        date: shift.start.slice(0, 10),
        driver_id: shift.user_id,
        ...(shift.vehicle_id ? { vehicle_id: shift.vehicle_id } : {}),
        shift_id: shift.id,
        stops,
        status: 'PLANNED',
        created_at: stamp,
        updated_at: stamp,
        lock_version: 0,
      };
  const nextCase: Case = {
    ...record,
    status: 'SCHEDULED',
    assignee_id: shift.user_id,
    scheduled_start: iso(insertion.start),
    scheduled_end: iso(insertion.start + task.durationSeconds),
    time_windows: [{ start: input.start, end: input.end }],
    schedule_lock: input.schedule_lock ?? 'NONE',
    lock_version: record.lock_version + 1,
    updated_at: stamp,
  };
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
  const caseEvent = domainEvent(
    ctx,
    'case.updated',
    { type: 'case', id: record.id },
    nextCase,
    previousAttributes(record, nextCase),
  );
  const tourResource = { type: 'tour', id: nextTour.id };
  const tourWrites = tour
    ? tourStore
        .of(ctx)
        .writes.replace(
          nextTour,
          tour,
          domainEvent(ctx, 'tour.updated', tourResource, nextTour, previousAttributes(tour, nextTour)),
        )
    : tourStore.of(ctx).writes.create(nextTour, domainEvent(ctx, 'tour.created', tourResource, nextTour));
  const leftWrites =
    left && leaving
      ? tourStore
          .of(ctx)
          .writes.replace(
            left,
            leaving,
            domainEvent(
              ctx,
              'tour.updated',
              { type: 'tour', id: left.id },
              left,
              previousAttributes(leaving, left),
            ),
          )
      : [];
  return [
    ...caseStore.of(ctx).writes.replace(nextCase, record, caseEvent),
    ...tourWrites,
    ...taking.writes,
    ...leftWrites,
    ...giving.writes,
  ];
}
