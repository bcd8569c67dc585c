/**
 * Query parameter schemas of lists: page, size, sort and typed filter values, as the public
 * representation states them (bounds, defaults, the sort keys a client may send). How a query
 * string becomes the object they validate is the HTTP kernel's (shared/http/query-input.ts).
 */
import * as z from 'zod';

/** An integer within [min, max]; `1e3`, decimals and blanks are refused. */
export function integerParam(min: number, max: number) {
  return z.string().transform((value, ctx) => {
    if (!/^-?\d+$/.test(value)) {
      ctx.issues.push({ code: 'custom', input: value, message: 'must be an integer' });
      return z.NEVER;
    }
    const n = Number(value);
    if (n < min || n > max) {
      ctx.issues.push({ code: 'custom', input: value, message: `must be between ${min} and ${max}` });
      return z.NEVER;
    }
    return n;
  });
}

/** Pages are numbered within 32 bits: a client never needs more, and page × size stays exact. */
const maxPage = 2 ** 31 - 1;

export function pageParam() {
  return integerParam(0, maxPage).optional().meta({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: maxPage,
    default: 0,
    description: '0-based page number; past the last page the list is empty.',
  });
}

export function sizeParam(max = 100) {
  return integerParam(1, max)
    .optional()
    .meta({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: max,
      default: 20,
      description: `Page size, 1..${max}, default 20.`,
    });
}

/** A decimal number within [min, max] (coordinates); `1e3`, hex and blanks are refused. */
export function numberParam(min: number, max: number) {
  return z.string().transform((value, ctx) => {
    if (!/^-?\d+(?:\.\d+)?$/.test(value)) {
      ctx.issues.push({ code: 'custom', input: value, message: 'must be a decimal number' });
      return z.NEVER;
    }
    const n = Number(value);
    if (n < min || n > max) {
      ctx.issues.push({ code: 'custom', input: value, message: `must be between ${min} and ${max}` });
      return z.NEVER;
    }
    return n;
  });
}

/**
 * `search`: words to find, at most `max` characters; what a word matches (the start of a word
 * of which fields) is the list's own, said in `description`. Optional: omitted, nothing is
 * searched.
 */
export function searchParam(description: string, max = 200) {
  return z.string().max(max).optional().meta({ description });
}

export function booleanParam() {
  return z.enum(['true', 'false']).transform((v) => v === 'true');
}

export interface SortOrder<F extends string = string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** Repeated `sort=<field>:<asc|desc>`; unknown fields and directions are 422s. */
export function sortParam<const F extends string>(fields: readonly F[]) {
  return z
    .array(z.string())
    .transform((values, ctx) => {
      const orders: SortOrder<F>[] = [];
      values.forEach((value, index) => {
        const [field, direction = 'asc', ...rest] = value.split(':');
        if (!(fields as readonly string[]).includes(field ?? '') || rest.length > 0) {
          ctx.issues.push({
            code: 'custom',
            input: value,
            path: [index],
            message: `unknown sort field; sortable fields: ${fields.join(', ')}`,
          });
        } else if (direction !== 'asc' && direction !== 'desc') {
          ctx.issues.push({
            code: 'custom',
            input: value,
            path: [index],
            message: 'direction must be asc or desc',
          });
        } else {
          orders.push({ field: field as F, direction });
        }
      });
      return orders;
    })
    .optional()
    .meta({
      description: `Repeated \`sort=<field>:<asc|desc>\` (direction asc when omitted). Fields: ${fields.join(', ')}.`,
      // Published as the values a client may send, so generated clients can type them.
      items: { type: 'string', enum: fields.flatMap((field) => [`${field}:asc`, `${field}:desc`]) },
    });
}

/** The sort keys a query schema's `sort` parameter serves, read back from what it publishes. */
export function sortKeysOf(query: z.ZodObject | undefined): string[] {
  const sort = (query?.shape as Record<string, z.ZodType> | undefined)?.sort;
  const values =
    (z.globalRegistry.get(sort ?? z.never())?.items as { enum?: string[] } | undefined)?.enum ?? [];
  return [...new Set(values.map((value) => value.split(':')[0] ?? value))];
}

export const paginationQuery = { page: pageParam(), size: sizeParam() };
