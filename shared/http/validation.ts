/**
 * Turns zod issues into the field errors of SPEC.md: a missing, null or blank value is
 * `field-required`; a value of the wrong JSON type or shape (1.5 for an integer, a string for
 * a number, an object for an array) is `field-type-invalid`; a key the operation does not know
 * is `field-unknown` (input-shape.ts); every other rule is `field-invalid`. Details are the
 * service's own words (field-messages.ts), and a 422 lists at most `maxFieldErrors` entries.
 */
import type { z } from 'zod';
import {
  type FieldError,
  type FieldErrorType,
  type FieldIssueParams,
  queryFieldError,
  toPointer,
} from '../schema/field-error.ts';
import { fieldMessage } from './field-messages.ts';
import { shapeErrorsOf } from './input-shape.ts';
import { validationProblem } from './problem.ts';

/**
 * The most entries one 422 lists: enough for any form a person fills in, and a bounded answer
 * for a machine that sends 100,000 bad elements (`data` then says how many there were).
 */
export const maxFieldErrors = 100;

export type InputLocation = 'body' | 'query' | 'path';

const isBlank = (input: unknown) => typeof input === 'string' && input.trim() === '';

export function fieldErrorsOf(error: z.ZodError, location: InputLocation): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    // Unknown keys are reported by the shape walk, with a suggestion (input-shape.ts).
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({
          type: 'field-unknown',
          detail: 'is not a field of this operation',
          pointer: toPointer([...issue.path, key]),
        });
      }
      continue;
    }
    const type = fieldErrorType(issue);
    const detail = type === 'field-required' && isBlank(issue.input) ? 'must not be blank' : issue.message;
    if (location === 'body') {
      errors.push({ type, detail, pointer: toPointer(issue.path) });
    } else {
      const [name, ...rest] = issue.path;
      errors.push(
        location === 'query'
          ? queryFieldError(String(name ?? ''), type, detail, rest)
          : { type, detail, pointer: toPointer(issue.path), parameter: String(name ?? '') },
      );
    }
  }
  return errors;
}

function fieldErrorType(issue: z.core.$ZodIssue): FieldErrorType {
  // A blank string is never an absent value, whatever the field's type (SPEC.md, "Blank strings").
  if (isBlank(issue.input) && issue.code !== 'invalid_type') return 'field-required';
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

/** Drops entries past the cap; the problem's `data` says how many there were. */
export function boundedValidationProblem(errors: FieldError[], truncated = false) {
  const total = errors.length;
  if (total <= maxFieldErrors && !truncated) return validationProblem(errors);
  const shown = errors.slice(0, maxFieldErrors);
  const problem = validationProblem(
    shown,
    `${shown.map((e) => `${e.pointer}: ${e.detail}`).join('; ')}; and more (errors lists the first ${maxFieldErrors})`,
  );
  problem.init.data = {
    errors_truncated: true,
    errors_listed: shown.length,
    ...(truncated ? {} : { errors_total: total }),
  };
  return problem;
}

const parseOptions = { reportInput: true, error: fieldMessage } as const;

/**
 * Parse or throw the 422 problem for the location. A body is first walked for keys its schema
 * does not know and arrays over their maximum (input-shape.ts); an array over its maximum is
 * answered without validating its elements.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  location: InputLocation,
): z.output<S> {
  const shape = location === 'body' ? shapeErrorsOf(schema, input, maxFieldErrors + 1) : undefined;
  if (shape?.errors.some((e) => e.type === 'field-invalid') || shape?.truncated) {
    throw boundedValidationProblem(shape.errors, shape.truncated);
  }
  const result = schema.safeParse(input, parseOptions);
  const unknown = shape?.errors ?? [];
  if (result.success && unknown.length === 0) return result.data;
  const errors = [...unknown];
  if (!result.success) {
    const known = new Set(unknown.map((e) => e.pointer));
    for (const error of fieldErrorsOf(result.error, location)) {
      if (!(error.type === 'field-unknown' && known.has(error.pointer))) errors.push(error);
    }
  }
  throw boundedValidationProblem(errors, false);
}
