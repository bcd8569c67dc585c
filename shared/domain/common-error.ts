/** Rules shared by every resource (versioned writes, field work): the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from './domain-error.ts';

export type CommonDomainErrorCode = CommonErrorCode;

export class CommonDomainError extends DomainError<'common'> {
  readonly module = 'common';
}
