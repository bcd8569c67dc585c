/**
 * The steps of a booking that a booking alone (booking.service.ts) and bookings written together
 * (booking-batch.ts) share: the records read and checked, and where a case goes in the shift's day
 * (the slot search's own `bestInsertion` over the day as shift-day.ts reads it), so both paths
 * answer the same 404, 409 and 422 for the same day.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import type { TableWrite } from '../../data/table.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { withPlanningDefaults } from '../cases/case-planning.ts';
import { withServiceLevel } from '../cases/case-service-level.ts';
import type { Shift } from '../shifts/shift.schema.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore } from '../tours/tour.store.ts';
import type { BookAppointment } from './booking.schema.ts';
import { SchedulingError } from './scheduling-error.ts';
import { currentTour, shiftDayOf, tourPositionOf } from './shift-day.ts';
import { bestInsertion, type SlotTask } from './slot-search.ts';
import { type PlanningOptions, taskOf, travelBetween, unbookable } from './slots.service.ts';
import { greatCircleTravel, type Place } from './travel.ts';

const seconds = (instant: string) => Date.parse(instant) / 1000;
const iso = (second: number) => new Date(second * 1000).toISOString();

export const unavailable = (detail: string) =>
  new SchedulingError('conflict', { detail, data: { reason: 'slot_unavailable' } });

function notBookable(record: Case, detail: string): SchedulingError {
  return new SchedulingError('conflict', {
    detail,
    data: { reason: 'case_not_bookable', status: record.status },
  });
}

/** A read started before it is awaited: its failure is awaited later, never an unhandled rejection. */
export function early<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}

export type BookableCase = Case & { location: Place };

/** The case as read (undefined: none), with its planning defaults, or the reason it is not bookable. */
export function bookable(found: Case | undefined): BookableCase {
  if (!found) throw new SchedulingError('not-found', { detail: 'No case with this id exists.' });
  const record = withPlanningDefaults(found);
  if (!record.location) throw notBookable(record, 'The case has no location: it cannot be planned.');
  if (unbookable.has(record.status))
    throw notBookable(record, `The case is ${record.status}: only open work is booked.`);
  return record as BookableCase;
}

export async function bookableCase(ctx: Actor, id: string): Promise<BookableCase> {
  return bookable(await caseStore.of(ctx).getConsistent(id));
}

export async function shiftOrThrow(ctx: Actor, id: string): Promise<Shift> {
  const shift = await shiftStore.of(ctx).getConsistent(id.toLowerCase());
  if (shift) return shift;
  throw noSuchShift();
}

/** 422 at `#/shift_id`: the shift named is not one of the workspace. */
export function noSuchShift(): SchedulingError {
  return new SchedulingError('invalid', {
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
export async function currentTourOf(
  ctx: Actor,
  shiftId: string,
  reads: { tours: Promise<Tour[]>; planned: Promise<string | undefined> },
): Promise<Tour | 'over' | undefined> {
  const [tours, plannedId] = await Promise.all([reads.tours, reads.planned]);
  const choice = currentTourChoice(tours, plannedId);
  const read = choice.read ? await tourStore.of(ctx).getConsistent(choice.read) : undefined;
  return currentTourFrom(shiftId, choice, read);
}

/** Which tour holds the shift's day, as far as its tours and its PLANNED guard tell, and which to read. */
export interface CurrentTourChoice {
  onTheRoad: Tour | 'over' | undefined;
  /** The tour to read strongly consistent. */
  read: string | undefined;
}

export function currentTourChoice(tours: readonly Tour[], plannedId: string | undefined): CurrentTourChoice {
  const others = tours.filter((tour) => tour.id !== plannedId && tour.status !== 'PLANNED');
  const onTheRoad = currentTour(others);
  return { onTheRoad, read: onTheRoad && onTheRoad !== 'over' ? onTheRoad.id : plannedId };
}

/** The current tour from the choice and the tour it named, as read. */
export function currentTourFrom(
  shiftId: string,
  choice: CurrentTourChoice,
  read: Tour | undefined,
): Tour | 'over' | undefined {
  if (choice.onTheRoad && choice.onTheRoad !== 'over') return read;
  if (read?.status === 'PLANNED' && read.shift_id === shiftId) return read;
  return choice.onTheRoad;
}

/** The case's task restricted to the booked window. */
function bookedTask(task: SlotTask, start: number, end: number): SlotTask {
  const windows = task.windows
    .map(([open, close]) => [Math.max(open, start), Math.min(close, end)] as const)
    .filter(([open, close]) => open <= close);
  return { ...task, windows };
}

/** What a placement works on: the shift's day as it stands (with bookings placed before this one). */
export interface BookingDay {
  shift: Shift;
  /** The shift's current tour (undefined: none yet). */
  tour: Tour | undefined;
  /** The records of the tour's stops. */
  cases: ReadonlyMap<string, Case>;
  skillIds: readonly string[];
  /** Epoch seconds of "now". */
  now: number;
  /** The write's timestamp. */
  stamp: string;
}

/**
 * Where the booked case goes in the day: the tour's stops with it inserted (planned_arrival set)
 * and the case as it is written (SCHEDULED for the shift's technician, the window promised, its
 * start where the day puts it, the lock asked). 409 `slot_unavailable` when no place works.
 */
export async function placeCase(
  record: BookableCase,
  input: BookAppointment,
  day: BookingDay,
  options: PlanningOptions,
): Promise<{ stops: Tour['stops']; nextCase: Case }> {
  const { shift, tour, cases, skillIds, now, stamp } = day;
  if (!(record.required_skill_ids ?? []).every((skill) => skillIds.includes(skill))) {
    throw unavailable('The shift’s technician does not offer every skill the case requires.');
  }
  const shiftDay = shiftDayOf({ shift, tour, cases, skillIds, booking: record.id, now });
  const [start, end] = [seconds(input.start), seconds(input.end)];
  const task = bookedTask(taskOf(record, start, end, now), start, end);
  if (task.windows.length === 0) throw unavailable('The slot is past, or outside the case’s time windows.');
  const travel = await travelBetween(options.travel ?? greatCircleTravel, task, [shiftDay]);
  const insertion = bestInsertion(shiftDay.search, task, travel);
  if (!insertion)
    throw unavailable('The slot is no longer free: the case fits nowhere in the shift’s day then.');
  const stops = [...shiftDay.stops];
  stops.splice(tourPositionOf(shiftDay, insertion.position), 0, {
    case_id: record.id,
    planned_arrival: iso(insertion.arrival),
    status: 'PENDING',
  });
  // A booked window past due_by puts the case AT_RISK at once (case-service-level.ts).
  const nextCase: Case = withServiceLevel<Case>(
    {
      ...record,
      status: 'SCHEDULED',
      assignee_id: shift.user_id,
      scheduled_start: iso(insertion.start),
      scheduled_end: iso(insertion.start + task.durationSeconds),
      time_windows: [{ start: input.start, end: input.end }],
      schedule_lock: input.schedule_lock ?? 'NONE',
      lock_version: record.lock_version + 1,
      updated_at: stamp,
    },
    Date.now(),
    record,
  );
  return { stops, nextCase };
}

/** The shift's tour with `stops`: the current one on its next version, or a PLANNED one created. */
export function tourWithStops(
  shift: Shift,
  tour: Tour | undefined,
  stops: Tour['stops'],
  stamp: string,
): Tour {
  return tour
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
}

/** The tour's writes with its event: replaced on its version, or created. */
export function tourWritesOf(ctx: Actor, tour: Tour | undefined, nextTour: Tour): TableWrite[] {
  const resource = { type: 'tour', id: nextTour.id };
  return tour
    ? tourStore
        .of(ctx)
        .writes.replace(
          nextTour,
          tour,
          domainEvent(ctx, 'tour.updated', resource, nextTour, previousAttributes(tour, nextTour)),
        )
    : tourStore.of(ctx).writes.create(nextTour, domainEvent(ctx, 'tour.created', resource, nextTour));
}

/** The booked case's writes on the version read, with its event (the booker's). */
export function bookedCaseWrites(actor: Actor, record: Case, nextCase: Case): TableWrite[] {
  return caseStore
    .of(actor)
    .writes.replace(
      nextCase,
      record,
      domainEvent(
        actor,
        'case.updated',
        { type: 'case', id: record.id },
        nextCase,
        previousAttributes(record, nextCase),
      ),
    );
}
