/** Areas: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type AreaErrorCode = CommonErrorCode;

export class AreaError extends DomainError<'areas'> {
  readonly module = 'areas';
}
