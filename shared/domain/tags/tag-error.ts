/** Tags: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type TagErrorCode = CommonErrorCode;

export class TagError extends DomainError<'tags'> {
  readonly module = 'tags';
}
