/**
 * Turns zod issues into the field errors of SPEC.md: a missing, null or blank value is
 * `field-required`; a value of the wrong JSON type or shape (1.5 for an integer, a string for
 * a number, an object for an array) is `field-type-invalid`; every other rule is `field-invalid`.
 */
import type { z } from 'zod';
import { type FieldError, validationProblem } from './problem.ts';
import type { FieldErrorType } from './problem-types.ts';

/** Marks a custom issue with the field error kind it stands for (see `fields.ts`). */
export interface FieldIssueParams {
  fieldErrorType?: FieldErrorType;
}

export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '#';
  return `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

export function fieldErrorsOf(error: z.ZodError, location: 'body' | 'query' | 'path'): FieldError[] {
  return error.issues.map((issue) => {
    const pointer = toPointer(issue.path);
    const parameter = location === 'body' ? undefined : String(issue.path[0] ?? '');
    return {
      type: fieldErrorType(issue),
      detail: issue.message,
      pointer,
      ...(parameter ? { parameter } : {}),
    };
  });
}

function fieldErrorType(issue: z.core.$ZodIssue): FieldErrorType {
  if (issue.code === 'custom') {
    return (issue.params as FieldIssueParams | undefined)?.fieldErrorType ?? 'field-invalid';
  }
  if (issue.code === 'invalid_type') {
    return issue.input === undefined || issue.input === null ? 'field-required' : 'field-type-invalid';
  }
  // null on a closed set (an enum) is a missing value like null on any required field.
  if (issue.code === 'invalid_value' && (issue.input === undefined || issue.input === null)) {
    return 'field-required';
  }
  if (issue.code === 'invalid_union') {
    return issue.input === undefined || issue.input === null ? 'field-required' : 'field-type-invalid';
  }
  return 'field-invalid';
}

/** Parse or throw the 422 problem for the location. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  location: 'body' | 'query' | 'path',
): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw validationProblem(fieldErrorsOf(result.error, location));
}
