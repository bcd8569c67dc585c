/** The settings singletons: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type SettingsErrorCode = CommonErrorCode;

export class SettingsError extends DomainError<'settings'> {
  readonly module = 'settings';
}
