/** Custom objects: definitions, instances, relations, permissions: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type CustomObjectErrorCode =
  | CommonErrorCode
  /** A required relation is missing at instance creation. */
  | 'required-relation'
  /** Side a is ONE and already links another b. */
  | 'cardinality-violation-source'
  /** Side b is ONE and already links another a. */
  | 'cardinality-violation-target'
  /** A relation of a batch is malformed. */
  | 'relation-invalid'
  /** A relation lacks side a or b. */
  | 'relation-side-missing'
  /** A side names no definition of the workspace. */
  | 'relation-definition-unknown'
  /** A side's cardinality is not ONE or MANY. */
  | 'relation-cardinality-invalid'
  /** A side's slug is malformed or taken. */
  | 'relation-slug-invalid';

export class CustomObjectError extends DomainError<'custom-objects'> {
  readonly module = 'custom-objects';
}
