/** Optimization runs: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type OptimizationRunErrorCode = CommonErrorCode;

export class OptimizationRunError extends DomainError<'optimization-runs'> {
  readonly module = 'optimization-runs';
}
