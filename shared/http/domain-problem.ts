/**
 * Domain errors as problem documents: the REST transport's one mapper of every module's codes
 * (shared/domain/domain-error.ts). The codes all modules share map the same way everywhere; a
 * module's own codes map through the table below, which the compiler holds complete: a new
 * module or code that is not mapped here does not build.
 */
import {
  type CommonErrorCode,
  type DomainError,
  type DomainModule,
  isCommonErrorCode,
} from '../domain/domain-error.ts';
import type { DomainErrorCodes } from '../domain/domain-error-codes.ts';
import { conflict, ProblemError, validationProblem } from './problem.ts';
import type { ProblemType } from './problem-types.ts';

type OwnCodes<M extends DomainModule> = Exclude<DomainErrorCodes[M], CommonErrorCode>;

/** The problem type of each module's own codes. */
const ownProblems: { [M in DomainModule]: Record<OwnCodes<M>, ProblemType> } = {
  common: {},
  areas: {},
  'audit-logs': {},
  billing: {},
  cases: {},
  comments: {
    'cannot-edit-others': 'comments/cannot-edit-others',
    'cannot-restore-not-deleted': 'comments.cannot-restore-not-deleted',
    'reaction-on-deleted-comment': 'comments.reaction-on-deleted-comment',
  },
  'custom-objects': {
    'required-relation': 'required-relation',
    'cardinality-violation-source': 'cardinality-violation-source',
    'cardinality-violation-target': 'cardinality-violation-target',
    'relation-invalid': 'location-relation-invalid',
    'relation-side-missing': 'location-relation-side-missing',
    'relation-definition-unknown': 'location-relation-definition-unknown',
    'relation-cardinality-invalid': 'location-relation-cardinality-invalid',
    'relation-slug-invalid': 'location-relation-slug-invalid',
  },
  devices: { unauthenticated: 'authentication-required' },
  'maintenance-plans': {},
  'optimization-runs': {},
  scheduling: {},
  settings: {},
  shifts: {},
  skills: {},
  tags: {},
  tenant: {},
  tours: {},
  users: { 'login-failed': 'login-failed' },
  vehicles: {},
  webhooks: {},
  workspaces: {},
};

/** Headers some answers carry besides the problem (a challenge that names the credential). */
const ownHeaders: Partial<Record<string, Record<string, string>>> = {
  'devices/unauthenticated': { 'www-authenticate': 'Bearer realm="device-intake"' },
  // Every 401 names a scheme (RFC 9110); the bearer token was fine, so no error attribute.
  'users/login-failed': { 'www-authenticate': 'Bearer' },
};

function commonProblem(code: CommonErrorCode, error: DomainError): ProblemError {
  const { detail, fields = [], data, retryAfterSeconds } = error.init;
  switch (code) {
    case 'not-found':
      return new ProblemError('not-found', {
        detail: detail ?? 'No resource with this id exists.',
        ...(data ? { data } : {}),
      });
    case 'invalid': {
      if (fields.length === 0)
        return new ProblemError('validation-failed', {
          ...(detail ? { detail } : {}),
          ...(data ? { data } : {}),
        });
      const problem = validationProblem(fields, detail);
      if (data) problem.init.data = data;
      return problem;
    }
    case 'version-conflict':
      return conflict(detail, data?.current_lock_version as number | undefined);
    case 'already-exists':
    case 'conflict':
      return new ProblemError('resource-conflict', {
        ...(detail ? { detail } : {}),
        ...(fields.length ? { errors: fields } : {}),
        ...(data ? { data } : {}),
      });
    case 'forbidden':
      return new ProblemError('access-denied', { ...(detail ? { detail } : {}), ...(data ? { data } : {}) });
    case 'unavailable':
      return new ProblemError('service-unavailable', {
        ...(detail ? { detail } : {}),
        headers: { 'retry-after': String(retryAfterSeconds ?? 1) },
      });
    case 'failed':
      return new ProblemError('internal-error', { ...(detail ? { detail } : {}) });
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}

export function problemOfDomainError(error: DomainError): ProblemError {
  const code = error.code as string;
  if (isCommonErrorCode(code)) return commonProblem(code, error);
  const table = ownProblems[error.module] as Record<string, ProblemType>;
  const type = table[code];
  if (!type) throw new Error(`unmapped domain error ${error.module}/${code}`);
  const { detail, fields = [], data } = error.init;
  const headers = ownHeaders[`${error.module}/${code}`];
  return new ProblemError(type, {
    ...(detail ? { detail } : {}),
    ...(fields.length ? { errors: fields } : {}),
    ...(data ? { data } : {}),
    ...(headers ? { headers } : {}),
  });
}
