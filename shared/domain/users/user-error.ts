/** Users and the signed-in user: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type UserErrorCode =
  | CommonErrorCode
  /** The current password sent to change it is wrong. */
  | 'login-failed';

export class UserError extends DomainError<'users'> {
  readonly module = 'users';
}
