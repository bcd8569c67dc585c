/**
 * The step that turns a parsed query string into the object a route's query schema validates.
 * Array parameters are repeated plural keys; a literal comma in an array value, any comma in
 * `sort`, a repeated singular key and a parameter the operation does not publish are 422s
 * (SPEC.md, rule 2; API-DECISIONS.md, "Strict input").
 */
import type * as z from 'zod';
import { queryFieldError } from '../schema/field-error.ts';
import { nearestKey } from './input-shape.ts';
import type { FieldError } from './problem.ts';
import type { ParsedQuery } from './query-string.ts';

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
