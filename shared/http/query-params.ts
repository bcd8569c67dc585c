/**
 * Query parameter schemas and the step that turns a parsed query string into the object a
 * route's query schema validates. Array parameters are repeated plural keys; a literal comma
 * in an array value, any comma in `sort`, and a repeated singular key are 422s (SPEC.md, rule 2).
 */
import * as z from 'zod';
import { nearestKey } from './input-shape.ts';
import type { FieldError } from './problem.ts';
import type { ParsedQuery } from './query-string.ts';
import { queryFieldError } from './validation.ts';

function integerParam(min: number, max: number) {
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

/** The innermost schema type, under optional/default/pipe wrappers. */
function baseType(schema: z.ZodType): string {
  let current = schema as z.ZodType & {
    _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } };
  };
  for (;;) {
    const def = current._zod.def;
    if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) {
      current = def.innerType as typeof current;
    } else if (def.type === 'pipe' && def.in) {
      current = def.in as typeof current;
    } else {
      return def.type;
    }
  }
}

/**
 * Shape the parsed query for `schema`: arrays for array parameters, single strings otherwise.
 * Returns the rule violations of the query string itself: commas, repeated singular keys, and
 * parameters the operation does not publish (API-DECISIONS.md, "Strict input": an ignored filter
 * would answer an unfiltered list as if it had filtered).
 */
export function queryObjectFor(
  schema: z.ZodObject | undefined,
  query: ParsedQuery,
): { input: Record<string, unknown>; errors: FieldError[] } {
  const input: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  const shape = (schema?.shape ?? {}) as Record<string, z.ZodType>;
  for (const [key, values] of query) {
    const fieldSchema = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!fieldSchema) {
      const suggestion = nearestKey(key, Object.keys(shape));
      const error = queryFieldError(
        key,
        'field-unknown',
        `is not a parameter of this operation${suggestion ? `; did you mean ${suggestion}?` : ''}`,
      );
      if (suggestion) error.data = { ...error.data, suggestion };
      errors.push(error);
      continue;
    }
    if (key === 'sort' && values.some((v) => v.value.includes(','))) {
      errors.push(
        queryFieldError(
          key,
          'field-invalid',
          'sort takes no commas; repeat the parameter: sort=name:asc&sort=id:desc',
        ),
      );
      continue;
    }
    if (baseType(fieldSchema) === 'array') {
      const comma = values.findIndex((v) => v.hasLiteralComma);
      if (comma !== -1) {
        errors.push(
          queryFieldError(
            key,
            'field-invalid',
            `comma-separated values are not accepted; repeat the parameter (${key}=a&${key}=b) and encode a comma inside a value as %2C`,
            [comma],
          ),
        );
        continue;
      }
      input[key] = values.map((v) => v.value);
    } else if (values.length > 1) {
      errors.push(queryFieldError(key, 'field-invalid', 'must be given once'));
    } else {
      input[key] = values[0]?.value;
    }
  }
  return { input, errors };
}
