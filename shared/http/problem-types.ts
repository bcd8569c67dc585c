/**
 * The closed catalog of problem types this API answers with. The type URI is
 * `${problemsBaseUrl}${slug}`; together with the status it is the stable contract
 * (SPEC.md, Errors). Titles may be reworded; clients must never branch on them.
 */
import type { FieldErrorType } from '../schema/field-error.ts';

export const problemTypes = {
  'invalid-json': { status: 400, title: 'Invalid JSON body' },
  'bad-request': { status: 400, title: 'Bad request' },
  'location-relation-invalid': { status: 400, title: 'Relation malformed' },
  'location-relation-side-missing': { status: 400, title: 'Relation side missing' },
  'location-relation-definition-unknown': { status: 400, title: 'Relation definition unknown' },
  'location-relation-cardinality-invalid': { status: 400, title: 'Relation cardinality invalid' },
  'location-relation-slug-invalid': { status: 400, title: 'Relation slug invalid' },
  'authentication-required': { status: 401, title: 'Authentication required' },
  'login-failed': { status: 401, title: 'Login failed' },
  'tenant-billing-locked': { status: 402, title: 'Workspace locked for billing reasons' },
  'access-denied': { status: 403, title: 'Access denied' },
  'comments/cannot-edit-others': { status: 403, title: 'Cannot change comments of others' },
  'tenant-disabled': { status: 403, title: 'Workspace disabled' },
  'not-found': { status: 404, title: 'Resource not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'request-timeout': { status: 408, title: 'Request timeout' },
  'resource-conflict': { status: 409, title: 'Resource conflict' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'uri-too-long': { status: 414, title: 'URI too long' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'field-required': { status: 422, title: 'Field required' },
  'field-type-invalid': { status: 422, title: 'Field type invalid' },
  'validation-failed': { status: 422, title: 'Validation failed' },
  'required-relation': { status: 422, title: 'Required relation missing' },
  'cardinality-violation-source': { status: 422, title: 'Cardinality violated on the source side' },
  'cardinality-violation-target': { status: 422, title: 'Cardinality violated on the target side' },
  'comments.cannot-restore-not-deleted': { status: 422, title: 'Comment is not deleted' },
  'comments.reaction-on-deleted-comment': { status: 422, title: 'Comment is deleted' },
  'too-many-requests': { status: 429, title: 'Too many requests' },
  'request-header-fields-too-large': { status: 431, title: 'Request header fields too large' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'service-unavailable': { status: 503, title: 'Service temporarily unavailable' },
} as const;

export type ProblemType = keyof typeof problemTypes;

/** Titles of the field-level error kinds used in `errors[].type`. */
export const fieldErrorTypes = {
  'field-required': 'Field required',
  'field-type-invalid': 'Field type invalid',
  'field-invalid': 'Field invalid',
  'field-unknown': 'Unknown field',
} as const satisfies Record<FieldErrorType, string>;
