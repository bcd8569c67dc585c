/** Cases (work orders): the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type CaseErrorCode = CommonErrorCode;

export class CaseError extends DomainError<'cases'> {
  readonly module = 'cases';
}
