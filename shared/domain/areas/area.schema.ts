/**
 * Area: a service region of the workspace, described by postal-code ranges and shown in a
 * colour. Published schema names: Area, CreateArea, UpdateArea, AreaList.
 */
import * as z from 'zod';
import { hexColor, hexColorPattern, lockVersion, storedVersion, text } from '../../http/fields.ts';
import { pagedListSchema } from '../../http/list.ts';
import { paginationQuery, sortParam } from '../../http/query-params.ts';

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

export const AreaSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().optional(),
    color: z.string().meta({ description: 'Hex colour, e.g. #1a2b3c.', pattern: hexColorPattern }),
    zip_ranges: z.array(ZipRangeSchema),
    lock_version: storedVersion().meta({ description: 'Starts at 0 and increments with every change.' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Area' });

export type Area = z.infer<typeof AreaSchema>;

const description = text({ max: 2000 });

export const CreateAreaSchema = z
  .object({
    name: text({ max: 255 }),
    description: description.optional(),
    color: hexColor(),
    zip_ranges: z.array(ZipRangeSchema).max(1000).optional(),
  })
  .meta({ id: 'CreateArea' });

export const UpdateAreaSchema = z
  .object({
    name: text({ max: 255 }).optional(),
    description: description.nullable().optional().meta({ description: 'null clears it.' }),
    color: hexColor().optional(),
    zip_ranges: z.array(ZipRangeSchema).max(1000).optional(),
    lock_version: lockVersion(),
  })
  .meta({ id: 'UpdateArea', description: 'JSON Merge Patch of an area.' });

export const areaSortFields = ['name', 'color', 'created_at', 'updated_at', 'id'] as const;

export const AreaListQuery = z.object({ ...paginationQuery, sort: sortParam(areaSortFields) });

export const AreaIdParams = z.object({ area_id: z.uuid() });

export const AreaListSchema = pagedListSchema(AreaSchema, 'AreaList');
