/** Devices and their telemetry: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type DeviceErrorCode =
  | CommonErrorCode
  /** Telemetry intake without the device's current intake secret. */
  | 'unauthenticated';

export class DeviceError extends DomainError<'devices'> {
  readonly module = 'devices';
}
