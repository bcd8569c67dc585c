/** Maintenance plans: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type MaintenancePlanErrorCode = CommonErrorCode;

export class MaintenancePlanError extends DomainError<'maintenance-plans'> {
  readonly module = 'maintenance-plans';
}
