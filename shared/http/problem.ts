/**
 * RFC 9457 problem documents. Every error that leaves the API, from any layer, is a
 * `ProblemError` by the time it reaches the transport, so clients see one shape everywhere.
 */
import { config } from '../config.ts';
import type { FieldError } from '../schema/field-error.ts';
import { fieldErrorTypes, type ProblemType, problemTypes } from './problem-types.ts';

export type { FieldError };

export interface ProblemInit {
  detail?: string;
  errors?: FieldError[];
  data?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export class ProblemError extends Error {
  readonly type: ProblemType;
  readonly init: ProblemInit;

  constructor(type: ProblemType, init: ProblemInit = {}) {
    super(init.detail ?? problemTypes[type].title);
    this.name = 'ProblemError';
    this.type = type;
    this.init = init;
  }

  get status(): number {
    return problemTypes[this.type].status;
  }
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: Array<{
    type: string;
    title: string;
    detail: string;
    pointer: string;
    parameter?: string;
    data?: unknown;
  }>;
  data?: Record<string, unknown>;
}

export function problemTypeUri(type: string): string {
  return `${config().problemsBaseUrl}${type}`;
}

export function toProblemDocument(error: ProblemError, instance?: string): ProblemDocument {
  const { title, status } = problemTypes[error.type];
  const doc: ProblemDocument = { type: problemTypeUri(error.type), title, status };
  if (error.init.detail) doc.detail = error.init.detail;
  if (instance) doc.instance = instance;
  if (error.init.errors?.length) {
    doc.errors = error.init.errors.map((e) => ({
      type: problemTypeUri(e.type),
      title: fieldErrorTypes[e.type],
      detail: e.detail,
      pointer: e.pointer,
      ...(e.parameter ? { parameter: e.parameter } : {}),
      ...(e.data ? { data: e.data } : {}),
    }));
  }
  if (error.init.data) doc.data = error.init.data;
  return doc;
}

/**
 * One 422 for a set of field errors. The document's type is the most specific kind the errors
 * share: a wrong JSON type wins over a missing value, which wins over other rule violations.
 */
export function validationProblem(errors: FieldError[], detail?: string): ProblemError {
  const type: ProblemType = errors.some((e) => e.type === 'field-type-invalid')
    ? 'field-type-invalid'
    : errors.some((e) => e.type === 'field-required')
      ? 'field-required'
      : 'validation-failed';
  return new ProblemError(type, {
    detail: detail ?? errors.map((e) => `${e.pointer}: ${e.detail}`).join('; '),
    errors,
  });
}

export function notFound(detail = 'No resource with this id exists.'): ProblemError {
  return new ProblemError('not-found', { detail });
}

/**
 * A lock_version mismatch. `data.current_lock_version` tells the caller which version to read
 * (or to send again, after merging) without another round trip, when it is known.
 */
export function conflict(
  detail = 'lock_version does not match the stored version.',
  currentVersion?: number,
): ProblemError {
  return new ProblemError('resource-conflict', {
    detail,
    ...(currentVersion === undefined ? {} : { data: { current_lock_version: currentVersion } }),
  });
}
