/**
 * Tour: one day's run of a vehicle and its driver through an ordered list of stops, each a case
 * of the workspace. Dispatchers plan tours (tours:update); callers whose roles are only
 * technician and/or driver read the tours they drive. Published schema names: Tour, TourStop,
 * CreateTour, UpdateTour, TourList.
 */
import * as z from 'zod';
import { dateTime, lockVersion, nonBlank, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';
import { tourStatuses } from './tour-statuses.ts';

export { tourStatuses };
export type TourStatus = (typeof tourStatuses)[number];

/** Stops of one tour at most: a long day of short stops, and what one record holds comfortably. */
export const maxStops = 200;

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  const match = datePattern.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A date (SPEC.md, Conventions: `YYYY-MM-DD`), published as `format: date`. */
function calendarDate() {
  return nonBlank((ctx) => {
    if (!isCalendarDate(ctx.value)) {
      ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must be a date YYYY-MM-DD' });
    }
  }).meta({ format: 'date' });
}

const status = z.enum(tourStatuses).meta({
  description:
    'PLANNED (default), IN_PROGRESS (on the road), DONE or CANCELLED. Any status may follow any other, ' +
    'so a dispatcher can correct a mistake.',
});

/**
 * Where a stop stands (API-DECISIONS.md, "The live day"): PENDING until the technician heads for
 * it, EN_ROUTE, ARRIVED (telemetry saw them stay), DONE (they left, or dispatch says so) or
 * SKIPPED (dispatch took it out of the day's run without removing it).
 */
export const stopStatuses = ['PENDING', 'EN_ROUTE', 'ARRIVED', 'DONE', 'SKIPPED'] as const;
export type StopStatus = (typeof stopStatuses)[number];

export const TourStopSchema = z
  .object({
    case_id: z.uuid().meta({ description: 'The case served at this stop; a case appears once per tour.' }),
    planned_arrival: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the vehicle is expected at the stop (UTC); omitted when not planned.' }),
    status: z.enum(stopStatuses).meta({
      description:
        'PENDING (not yet headed for), EN_ROUTE (the next stop of a tour on the road), ARRIVED (the technician ' +
        'stayed within the arrival radius for the dwell time), DONE (left again, or set by dispatch) or SKIPPED ' +
        '(set by dispatch).',
    }),
    arrived_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the technician arrived (from telemetry).' }),
    departed_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the technician left (from telemetry).' }),
    eta: z.iso
      .datetime()
      .optional()
      .meta({ description: 'Estimated arrival, while the tour is IN_PROGRESS and the stop not reached.' }),
    late: z.boolean().optional().meta({
      description: 'true when the eta passes the end of the case’s time window; omitted otherwise.',
    }),
    late_by: z.string().optional().meta({
      description: 'How far the eta passes the window’s end (ISO 8601 duration, e.g. PT12M); with late.',
    }),
  })
  .meta({ id: 'TourStop', description: 'One stop of a tour, in driving order.' });

export const TourSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the tour.' }),
    name: z.string().optional().meta({ description: 'Display name, e.g. `North loop`; omitted when none.' }),
    date: z.string().meta({ format: 'date', description: 'The day the tour is driven (YYYY-MM-DD).' }),
    vehicle_id: z
      .uuid()
      .optional()
      .meta({ description: 'The vehicle the tour is driven with; omitted while none is assigned.' }),
    driver_id: z
      .uuid()
      .optional()
      .meta({
        description:
          'The user who drives the tour; omitted while none is assigned. Technicians and drivers see the ' +
          'tours they drive.',
      }),
    shift_id: z
      .uuid()
      .optional()
      .meta({
        description:
          'The shift (GET /api/v2/shifts/{shift_id}) the tour is driven in: an applied optimization run sets it; ' +
          'omitted when none.',
      }),
    stops: z
      .array(TourStopSchema)
      .meta({ description: `The stops in driving order, at most ${maxStops}; [] when none.` }),
    status,
    created_at: z.iso.datetime().meta({ description: 'When the tour was created.' }),
    updated_at: z.iso.datetime().meta({ description: 'When the tour was last changed.' }),
    lock_version: storedVersion().meta({ description: 'Starts at 0 and increments with every change.' }),
  })
  .meta({
    id: 'Tour',
    description: 'A tour: the ordered stops one vehicle and its driver serve on one day.',
  });

export type Tour = z.infer<typeof TourSchema>;
export type TourStop = z.infer<typeof TourStopSchema>;
/** A stop as a writer or an old record may hold it: the status defaults to PENDING (tour-stops.ts). */
export type StoredStop = Omit<TourStop, 'status'> & { status?: StopStatus | undefined };

const StopInputSchema = z.object({
  case_id: z.uuid().meta({
    description: 'A case of the workspace (otherwise 422 at `#/stops/<index>/case_id`), once per tour.',
  }),
  planned_arrival: dateTime().optional().meta({ description: 'Expected arrival (RFC 3339); optional.' }),
  status: z
    .enum(stopStatuses)
    .optional()
    .meta({
      description:
        'Default: the stop’s status before this write (a stop of the same case), else PENDING; dispatch sets DONE or ' +
        'SKIPPED by hand. What telemetry recorded (arrived_at, departed_at, eta) stays with the case’s stop.',
    }),
});

const stops = z
  .array(StopInputSchema)
  .max(maxStops)
  .meta({
    description:
      `Stops in driving order, at most ${maxStops}; the whole list is replaced when sent. Each case_id ` +
      'must name a case of the workspace and appear once.',
  });

const vehicleId = z.uuid().meta({
  description: 'A vehicle of the workspace that is active (otherwise 422 at `#/vehicle_id`).',
});
const driverId = z.uuid().meta({
  description:
    'A user of the workspace (not an API client) who is not deactivated (otherwise 422 at `#/driver_id`).',
});
const shiftId = z.uuid().meta({
  description: 'A shift of the workspace (otherwise 422 at `#/shift_id`): the hours the tour is driven in.',
});
const name = text({ max: 255 });

export const CreateTourSchema = z
  .object({
    name: name.optional().meta({ description: 'Display name; none when omitted.' }),
    date: calendarDate().meta({ description: 'The day the tour is driven (YYYY-MM-DD).' }),
    vehicle_id: vehicleId.optional(),
    driver_id: driverId.optional(),
    shift_id: shiftId.optional(),
    stops: stops.optional(),
    status: status.optional(),
  })
  .meta({ id: 'CreateTour' });

export const UpdateTourSchema = z
  .object({
    name: name.nullable().optional().meta({ description: 'null clears it.' }),
    date: calendarDate().optional().meta({ description: 'The day the tour is driven; cannot be cleared.' }),
    vehicle_id: vehicleId.nullable().optional(),
    driver_id: driverId.nullable().optional(),
    shift_id: shiftId.nullable().optional(),
    stops: stops.optional(),
    status: status.optional(),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateTour',
    description:
      'JSON Merge Patch of a tour; name, vehicle_id, driver_id and shift_id are clearable with null; null date, ' +
      'stops or status is rejected with 422. stops, when sent, replaces the whole list; a case listed again keeps ' +
      'its stop’s status (unless sent) and what the live day recorded of it (arrived_at, departed_at, eta, late).',
  });

export const tourSortFields = ['date', 'created_at', 'updated_at'] as const;

export const TourListQuery = z
  .object({
    ...paginationQuery,
    sort: sortParam(tourSortFields).meta({
      description:
        'Repeated `sort=<field>:<asc|desc>`. Fields: date, created_at, updated_at. Default date:asc, ties ' +
        'by creation. Further keys order the ties of the first.',
    }),
    date_from: calendarDate().optional().meta({ description: 'Tours on this day or later (YYYY-MM-DD).' }),
    date_to: calendarDate()
      .optional()
      .meta({ description: 'Tours on this day or earlier (YYYY-MM-DD); not before date_from.' }),
    vehicle_id: z.uuid().optional().meta({ description: 'Tours driven with this vehicle.' }),
    driver_id: z.uuid().optional().meta({ description: 'Tours driven by this user.' }),
    shift_id: z.uuid().optional().meta({ description: 'Tours driven in this shift.' }),
    status: z
      .enum(tourStatuses)
      .optional()
      .meta({ description: 'Tours in this status; default: every status.' }),
  })
  .check((ctx) => {
    const { date_from: from, date_to: to } = ctx.value;
    if (from && to && to < from) {
      ctx.issues.push({
        code: 'custom',
        input: to,
        path: ['date_to'],
        message: 'must not be before date_from',
      });
    }
  });

export const TourIdParams = z.object({ tour_id: z.uuid().meta({ description: 'Identifier of the tour.' }) });

export const TourListSchema = pagedListSchema(TourSchema, 'TourList');
