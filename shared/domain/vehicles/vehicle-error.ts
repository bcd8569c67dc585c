/** Vehicles and their locations: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type VehicleErrorCode = CommonErrorCode;

export class VehicleError extends DomainError<'vehicles'> {
  readonly module = 'vehicles';
}
