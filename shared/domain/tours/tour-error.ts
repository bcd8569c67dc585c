/** Tours: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type TourErrorCode = CommonErrorCode;

export class TourError extends DomainError<'tours'> {
  readonly module = 'tours';
}
