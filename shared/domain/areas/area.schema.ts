/**
 * Area: a service region of the workspace, described by postal-code ranges and shown in a
 * colour. Published schema names: Area, CreateArea, UpdateArea, AreaList.
 */
import * as z from 'zod';
import { hexColor, hexColorPattern, lockVersion, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';
import { waitingTime, waitingTimePattern } from './waiting-time.ts';

const zipCode = text({ max: 16 }).check((ctx) => {
  if (ctx.value.trim() && !/^[A-Za-z0-9][A-Za-z0-9 -]*$/.test(ctx.value)) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: 'may hold only letters, digits, spaces and hyphens',
    });
  }
});

function compareZip(a: string, b: string): number {
  return /^\d+$/.test(a) && /^\d+$/.test(b)
    ? Number(a) - Number(b)
    : a.localeCompare(b, 'en', { numeric: true });
}

export const ZipRangeSchema = z
  .object({ from: zipCode, to: zipCode })
  .check((ctx) => {
    if (compareZip(ctx.value.from, ctx.value.to) > 0) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['to'],
        message: 'must not be lower than from',
      });
    }
  })
  .meta({ id: 'ZipRange', description: 'Inclusive range of postal codes.' });

const waitingTimeDescription =
  'Operational waiting time: how long a customer in the area currently waits for a visit, as an ' +
  'ISO 8601 duration of days, hours, minutes and seconds (`PT45M`, `P1DT2H`, `PT0S`) or of weeks ' +
  'alone (`P2W`); at most 365 days; years and months are refused (no fixed length).';

export const AreaSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the area.' }),
    name: z.string().meta({ description: 'Display name; need not be unique.' }),
    description: z.string().optional().meta({ description: 'Free text; omitted when the area has none.' }),
    color: z.string().meta({ description: 'Hex colour, e.g. #1a2b3c.', pattern: hexColorPattern }),
    zip_ranges: z.array(ZipRangeSchema).meta({ description: 'The postal-code ranges the area covers.' }),
    waiting_time: z
      .string()
      .optional()
      .meta({
        format: 'duration',
        pattern: waitingTimePattern,
        example: 'PT45M',
        description: `${waitingTimeDescription} Omitted when not set.`,
      }),
    lock_version: storedVersion().meta({ description: 'Starts at 0 and increments with every change.' }),
    created_at: z.iso.datetime().meta({ description: 'When the area was created.' }),
    updated_at: z.iso.datetime().meta({ description: 'When the area was last changed.' }),
  })
  .meta({ id: 'Area' });

export type Area = z.infer<typeof AreaSchema>;

const description = text({ max: 2000 });

export const CreateAreaSchema = z
  .object({
    name: text({ max: 255 }).meta({ description: 'Display name, up to 255 characters; need not be unique.' }),
    description: description.optional().meta({ description: 'Free text, up to 2000 characters.' }),
    color: hexColor(),
    zip_ranges: z
      .array(ZipRangeSchema)
      .max(1000)
      .optional()
      .meta({ description: 'Postal-code ranges the area covers, at most 1000; [] when omitted.' }),
    waiting_time: waitingTime()
      .optional()
      .meta({ description: `${waitingTimeDescription} Not set when omitted.` }),
  })
  .meta({ id: 'CreateArea' });

export const UpdateAreaSchema = z
  .object({
    name: text({ max: 255 }).optional().meta({ description: 'Display name; cannot be cleared.' }),
    description: description.nullable().optional().meta({ description: 'null clears it.' }),
    color: hexColor().optional(),
    zip_ranges: z
      .array(ZipRangeSchema)
      .max(1000)
      .optional()
      .meta({ description: 'Replaces the whole list when sent; [] removes every range.' }),
    waiting_time: waitingTime()
      .nullable()
      .optional()
      .meta({
        description: `${waitingTimeDescription} null clears it. A change is an area.updated like any other (and AREA_WAITING_TIME_UPDATED:V1 on the event stream).`,
      }),
    lock_version: lockVersion(),
  })
  .meta({ id: 'UpdateArea', description: 'JSON Merge Patch of an area.' });

export const areaSortFields = ['name', 'color', 'created_at', 'updated_at', 'id'] as const;

export const AreaListQuery = z.object({ ...paginationQuery, sort: sortParam(areaSortFields) });

export const AreaIdParams = z.object({ area_id: z.uuid().meta({ description: 'Identifier of the area.' }) });

export const AreaListSchema = pagedListSchema(AreaSchema, 'AreaList');
