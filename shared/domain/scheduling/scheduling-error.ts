/** Scheduling (appointment slots): the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type SchedulingErrorCode = CommonErrorCode;

export class SchedulingError extends DomainError<'scheduling'> {
  readonly module = 'scheduling';
}
