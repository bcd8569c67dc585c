/**
 * The errors of the domain. Each module throws its own type (`AreaError`, `CommentError`, …),
 * with a closed list of codes: the codes every resource shares (below) plus its own. Domain code
 * never builds a problem document or a GraphQL error: one mapper per transport turns these into
 * its answer (shared/http/domain-problem.ts, shared/graphql/domain-errors.ts), exhaustively, so a
 * code cannot ship unmapped. Module codes are registered in domain-error-codes.ts.
 */
import type { FieldError } from '../schema/field-error.ts';
import type { DomainErrorCodes } from './domain-error-codes.ts';

/** What every resource can answer. */
export type CommonErrorCode =
  /** No such record in the actor's workspace (another workspace's records do not exist). */
  | 'not-found'
  /** Input breaks a rule: `fields` say where (an empty list: `detail` and `data` say why). */
  | 'invalid'
  /** The lock_version sent differs from the stored one; `data.current_lock_version` when known. */
  | 'version-conflict'
  /** A value that must be unique is taken; `fields` point at it. */
  | 'already-exists'
  /** The record's state refuses the change for now (it kept changing, a limit is reached). */
  | 'conflict'
  /** The actor may not do this; `data.reason` (and `required_grants`) say why. */
  | 'forbidden'
  /** A store or provider the operation needs is busy or unreachable; retry after `retryAfterSeconds`. */
  | 'unavailable'
  /** A provider refused in a way the caller cannot fix; the logs say why. */
  | 'failed';

export const commonErrorCodes: readonly CommonErrorCode[] = [
  'not-found',
  'invalid',
  'version-conflict',
  'already-exists',
  'conflict',
  'forbidden',
  'unavailable',
  'failed',
];

export type DomainModule = keyof DomainErrorCodes;

export interface DomainErrorInit {
  detail?: string;
  fields?: FieldError[];
  data?: Record<string, unknown>;
  /** `unavailable`: how long a retry should wait. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export abstract class DomainError<M extends DomainModule = DomainModule> extends Error {
  abstract readonly module: M;
  readonly code: DomainErrorCodes[M];
  readonly init: DomainErrorInit;

  constructor(code: DomainErrorCodes[M], init: DomainErrorInit = {}) {
    super(init.detail ?? String(code), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = code;
    this.init = init;
  }
}

export function isCommonErrorCode(code: string): code is CommonErrorCode {
  return (commonErrorCodes as readonly string[]).includes(code);
}
