/** Shifts: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type ShiftErrorCode = CommonErrorCode;

export class ShiftError extends DomainError<'shifts'> {
  readonly module = 'shifts';
}
