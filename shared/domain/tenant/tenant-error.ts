/** The tenant record and its uploads: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type TenantErrorCode = CommonErrorCode;

export class TenantError extends DomainError<'tenant'> {
  readonly module = 'tenant';
}
