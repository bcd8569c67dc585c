/** Billing: the profile and the payment provider: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type BillingErrorCode = CommonErrorCode;

export class BillingError extends DomainError<'billing'> {
  readonly module = 'billing';
}
