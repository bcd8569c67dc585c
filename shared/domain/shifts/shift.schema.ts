/**
 * Shift: the hours a technician or driver works on one day, where they set off and finish, the
 * vehicle they drive (when one is planned) and the breaks they take. Optimization runs plan
 * cases into shifts, and appointment slots are offered within them (API-DECISIONS.md,
 * "Scheduling and dispatch"). Dispatchers manage shifts (scheduling:update) and read them
 * (scheduling:read). Published schema names: Shift, ShiftLocation, ShiftBreak, CreateShift,
 * UpdateShift, ShiftList.
 *
 * Rules between fields (shift-rules.ts): start before end and at most 24 hours apart; every
 * break inside the shift, with room for its duration between earliest_start and latest_end;
 * no two shifts of one user overlap (shift.service.ts). The time of the shift is stored in UTC.
 */
import * as z from 'zod';
import { isoDuration } from '../../schema/duration.ts';
import { dateTime, latitude, lockVersion, longitude, storedVersion } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';

/** A shift is one working day at most: the list's time filter relies on it (shift.list.ts). */
export const maxShiftSeconds = 24 * 3600;
export const maxBreaks = 5;
/** A break lasts a minute at least, and never longer than a shift. */
export const minBreakSeconds = 60;
/** User ids of one list filter at most: each is one facet partition walked. */
export const maxUserIdsFilter = 50;

export const ShiftLocationSchema = z
  .object({ latitude: latitude(), longitude: longitude() })
  .meta({ id: 'ShiftLocation', description: 'A place (WGS 84): where a shift starts or ends.' });

export type ShiftLocation = z.infer<typeof ShiftLocationSchema>;

export const ShiftBreakSchema = z
  .object({
    earliest_start: z.iso.datetime().meta({ description: 'The break may start from this instant (UTC).' }),
    latest_end: z.iso.datetime().meta({ description: 'The break must be over by this instant (UTC).' }),
    duration: z.string().meta({
      format: 'duration',
      example: 'PT30M',
      description: 'How long the break lasts (ISO 8601, shortest form, e.g. `PT30M`).',
    }),
  })
  .meta({
    id: 'ShiftBreak',
    description:
      'A break taken some time between earliest_start and latest_end; the planner places it where it fits.',
  });

export type ShiftBreak = z.infer<typeof ShiftBreakSchema>;

export const ShiftSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the shift (UUIDv7).' }),
    user_id: z.uuid().meta({ description: 'The technician or driver who works the shift.' }),
    vehicle_id: z
      .uuid()
      .optional()
      .meta({ description: 'The vehicle driven during the shift; omitted when none is planned.' }),
    start: z.iso.datetime().meta({ description: 'When the shift starts (UTC).' }),
    end: z.iso
      .datetime()
      .meta({ description: 'When the shift ends (UTC): after start, at most 24 hours later.' }),
    start_location: ShiftLocationSchema.meta({ description: 'Where the shift starts (a depot, a home).' }),
    end_location: ShiftLocationSchema.meta({
      description: 'Where the shift ends; the start location unless another was given.',
    }),
    breaks: z
      .array(ShiftBreakSchema)
      .meta({ description: `The breaks of the shift, at most ${maxBreaks}; [] when none.` }),
    created_at: z.iso.datetime().meta({ description: 'When the shift was created.' }),
    updated_at: z.iso.datetime().meta({ description: 'When the shift was last changed.' }),
    lock_version: storedVersion().meta({ description: 'Starts at 0 and increments with every change.' }),
  })
  .meta({ id: 'Shift', description: 'The working hours of one technician or driver.' });

/**
 * A shift as stored and published. Instants are ISO strings in UTC; `end_location` is always
 * stored (the start location when none was given); durations in their shortest ISO 8601 form.
 */
export type Shift = z.infer<typeof ShiftSchema>;

const userId = z.uuid().meta({
  description:
    'A user of the workspace holding the technician or driver role, not deactivated (otherwise 422 at ' +
    '`#/user_id`).',
});
const vehicleId = z.uuid().meta({
  description: 'A vehicle of the workspace that is in service (otherwise 422 at `#/vehicle_id`).',
});

const breakInput = z.object({
  earliest_start: dateTime().meta({
    description: 'The break may start from this instant, inside the shift.',
  }),
  latest_end: dateTime().meta({ description: 'The break is over by this instant, inside the shift.' }),
  duration: isoDuration({ minSeconds: minBreakSeconds, maxSeconds: maxShiftSeconds, example: 'PT30M' }).meta({
    description:
      'ISO 8601 duration, PT1M..PT24H; earliest_start + duration must not pass latest_end (otherwise 422 ' +
      'at `#/breaks/<index>/duration`).',
  }),
});

const breaks = z
  .array(breakInput)
  .max(maxBreaks)
  .meta({
    description:
      `At most ${maxBreaks} breaks, each inside the shift (422 at \`#/breaks/<index>/earliest_start\` or ` +
      '`…/latest_end` otherwise); the whole list is replaced when sent.',
  });

const patchLocation = z
  .object({ latitude: latitude().optional(), longitude: longitude().optional() })
  .meta({ description: 'Merged into the stored place (RFC 7386); cannot be null.' });

export const CreateShiftSchema = z
  .object({
    user_id: userId,
    vehicle_id: vehicleId.optional(),
    start: dateTime().meta({ description: 'When the shift starts (RFC 3339).' }),
    end: dateTime().meta({
      description: 'When the shift ends: after start (422 at `#/end`), at most 24 hours later.',
    }),
    start_location: ShiftLocationSchema.meta({ description: 'Where the shift starts.' }),
    end_location: ShiftLocationSchema.optional().meta({
      description: 'Where the shift ends; default: start_location.',
    }),
    breaks: breaks.optional().meta({ description: `Default []. ${breaks.description ?? ''}` }),
  })
  .meta({ id: 'CreateShift' });

export const UpdateShiftSchema = z
  .object({
    user_id: userId.optional(),
    vehicle_id: vehicleId.nullable().optional().meta({ description: 'null: no vehicle planned.' }),
    start: dateTime().optional().meta({ description: 'Cannot be null.' }),
    end: dateTime().optional().meta({ description: 'Cannot be null.' }),
    start_location: patchLocation.optional(),
    end_location: patchLocation.optional(),
    breaks: breaks.nullable().optional().meta({ description: 'null or [] removes every break.' }),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateShift',
    description:
      'JSON Merge Patch of a shift; vehicle_id and breaks are clearable with null. The rules between ' +
      'fields (start before end, at most 24 hours, breaks inside the shift, no overlap with another shift ' +
      'of the user) are checked on the resulting shift.',
  });

export type CreateShift = z.output<typeof CreateShiftSchema>;
export type UpdateShift = z.output<typeof UpdateShiftSchema>;

export const shiftSortFields = ['start', 'created_at', 'updated_at'] as const;

export const ShiftListQuery = z
  .object({
    ...paginationQuery,
    sort: sortParam(shiftSortFields).meta({
      description:
        'Repeated `sort=<field>:<asc|desc>`. Fields: start, created_at, updated_at. Default start:asc; ties by ' +
        'id. Further keys order the ties of the first.',
    }),
    user_ids: z
      .array(z.uuid())
      .max(maxUserIdsFilter)
      .optional()
      .meta({
        description: `Repeated (\`user_ids=…&user_ids=…\`, at most ${maxUserIdsFilter}): shifts of any of these users.`,
      }),
    from: dateTime()
      .optional()
      .meta({
        description:
          'With `to` (either may be left out): shifts that overlap [from, to), i.e. end > from and start < to. ' +
          'A shift that ends exactly at `from` or starts exactly at `to` does not overlap.',
      }),
    to: dateTime().optional().meta({ description: 'Exclusive end of the window `from` opens.' }),
  })
  .check((ctx) => {
    const { from, to } = ctx.value;
    if (from && to && to <= from) {
      ctx.issues.push({ code: 'custom', input: to, path: ['to'], message: 'must be after from' });
    }
  });

export const ShiftIdParams = z.object({
  shift_id: z.uuid().meta({ description: 'Identifier of the shift.' }),
});

export const ShiftListSchema = pagedListSchema(ShiftSchema, 'ShiftList');
