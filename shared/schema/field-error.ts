/**
 * A field-level error: what is wrong with one field or parameter of an input, where (a JSON
 * pointer), and in which of the kinds SPEC.md names. Transport-neutral: domain rules raise them,
 * the HTTP kernel lists them in a problem document's `errors[]`, GraphQL in an error's extensions.
 */

/** The kinds of field error (their titles are the transport's: shared/http/problem-types.ts). */
export type FieldErrorType = 'field-required' | 'field-type-invalid' | 'field-invalid' | 'field-unknown';

export interface FieldError {
  type: FieldErrorType;
  detail: string;
  /** JSON pointer into the body (`#/tag_ids/0`), or `#/query/<name>` for a query parameter. */
  pointer: string;
  /** Set for query and path parameters, so clients can tell them from body fields. */
  parameter?: string;
  data?: Record<string, unknown>;
}

/** Marks a custom issue of a zod check with the field error kind it stands for (see `fields.ts`). */
export interface FieldIssueParams {
  fieldErrorType?: FieldErrorType;
}

export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '#';
  return `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** Query parameters are pointed at under `#/query/` (API-DECISIONS.md, "Strict input"). */
export function queryPointer(name: string, rest: ReadonlyArray<PropertyKey> = []): string {
  return toPointer(['query', name, ...rest]);
}

/** A field error about a query parameter: its pointer, and its name in `parameter` and `data`. */
export function queryFieldError(
  name: string,
  type: FieldErrorType,
  detail: string,
  rest: ReadonlyArray<PropertyKey> = [],
): FieldError {
  return { type, detail, pointer: queryPointer(name, rest), parameter: name, data: { parameter: name } };
}
