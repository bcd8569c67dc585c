/**
 * What each problem type means and what a client should do about it: served at the type URI
 * itself (GET /problems/{problem_type}), so a type in a response is a working link.
 */
import type { FieldErrorType } from '../schema/field-error.ts';
import { fieldErrorTypes, type ProblemType, problemTypes } from './problem-types.ts';

const descriptions: Record<ProblemType | FieldErrorType, string> = {
  'invalid-json':
    'The body is not valid JSON (syntax error or truncated). Fix the payload; retrying it unchanged fails again.',
  'bad-request':
    'The request is not well-formed HTTP (for example a broken request line or header). Fix the client; retrying it unchanged fails again.',
  'location-relation-invalid':
    'A relation of a batch is malformed: not an object, a field of the wrong type (title, required, is_hidden, translations, read_only) or a field that is not part of a relation. errors[].pointer names each (`#/relations/0/a/title`). Fix the body; retrying it unchanged fails again.',
  'location-relation-side-missing':
    'A relation of a batch lacks side a or side b, or a side is not an object. errors[].pointer names it (`#/relations/0/b`).',
  'location-relation-definition-unknown':
    'A side of a relation names no definition of your workspace in definition_slug (or none at all). errors[].pointer names it (`#/relations/0/a/definition_slug`); create the definition first or fix the slug.',
  'location-relation-cardinality-invalid':
    'A side of a relation has a cardinality other than ONE or MANY. errors[].pointer names it (`#/relations/0/a/cardinality`).',
  'location-relation-slug-invalid':
    "A side's slug is malformed (a lower-case letter, then a-z, 0-9 and _, at most 63) or is already a name on the other side's type: a property, a system field (id, created_at, updated_at, lock_version) or the slug of another relation of that type (also one of the same batch, and the other side of a self-relation). errors[].pointer names it (`#/relations/0/b/slug`).",
  'required-relation':
    'A relation side of this definition is required, so a new instance must link to the other side: send its ids in `relations` under the relation slug that errors[].pointer names (`#/relations/customer`).',
  'cardinality-violation-source':
    'A record of side a, whose cardinality is ONE, would link to more than one record of side b: it already links to another one, or several were sent. Remove its current association first.',
  'cardinality-violation-target':
    'A record of side b, whose cardinality is ONE, would link to more than one record of side a: it already links to another one, or several were sent. Remove its current association first.',
  'request-timeout':
    'The request headers or body did not arrive in time; the connection is closed. Retry with a complete request.',
  'uri-too-long':
    'The request line (method, path and query string) is longer than 8 KiB. Shorten the query: send fewer repeated values per request.',
  'request-header-fields-too-large':
    'The request line and headers together are larger than 16 KiB. Send fewer or smaller headers.',
  'authentication-required':
    'No usable identity. data.reason: token_missing (send a bearer token), token_expired (refresh and replay once), token_invalid (discard the token and authenticate again).',
  'login-failed': 'A credential-based login was rejected.',
  'tenant-billing-locked':
    'The workspace is locked for billing reasons; only the billing operations stay available.',
  'access-denied':
    'Authenticated but not permitted. data.reason says why; data.required_grants lists the missing grants when the denial is grant-based. Retrying never helps.',
  'tenant-disabled': 'The workspace is deactivated (data.reason TENANT_INACTIVE).',
  'comments/cannot-edit-others':
    'A narrower access-denied (status 403): the comment is someone else’s. Its body can be edited by its author only, whatever the role; deleting it needs comments:update (moderators). data.reason is not_author; data.required_grants names comments:update where holding it would allow the action. Retrying never helps.',
  'comments.cannot-restore-not-deleted':
    'Only a deleted comment (a tombstone, is_deleted true) can be restored; this one is live. Nothing changed.',
  'comments.reaction-on-deleted-comment':
    'The comment is deleted (a tombstone): reactions on it can be neither added nor removed. Restore it first (comments:update).',
  'not-found': 'No record with this id exists in your workspace (records of other workspaces look the same).',
  'method-not-allowed':
    'The path exists but not with this method; the Allow header lists the methods it takes.',
  'resource-conflict':
    'The lock_version you sent differs from the stored one (someone else changed the record), or a unique value is taken. Re-read, re-apply, retry.',
  'payload-too-large': 'The request body is larger than the service accepts (1 MiB).',
  'unsupported-media-type':
    'Send JSON bodies as application/json; PATCH takes application/merge-patch+json or application/json.',
  'field-required': 'A required field is missing, null, or a blank string. errors[].pointer names it.',
  'field-type-invalid':
    'A field has the wrong JSON type or shape (1.5 for an integer, a string for a number, an object for an array). errors[].pointer names it.',
  'validation-failed':
    'One or more fields or parameters break a rule (format, range, enumeration). See errors[].',
  'too-many-requests': 'Too many concurrent connections or requests; wait as Retry-After says.',
  'internal-error': 'An unexpected failure on our side. The request-id header identifies it for support.',
  'service-unavailable': 'A dependency is busy or unreachable. Retry after the Retry-After header.',
  'field-invalid':
    'The field breaks a rule other than type or presence (format, range, enumeration, pattern).',
  'field-unknown': 'The field is not part of this resource.',
};

export interface ProblemTypeDoc {
  type: string;
  title: string;
  status?: number;
  description: string;
}

export function problemTypeDoc(slug: string, typeUri: string): ProblemTypeDoc | undefined {
  if (slug in problemTypes) {
    const { title, status } = problemTypes[slug as ProblemType];
    return { type: typeUri, title, status, description: descriptions[slug as ProblemType] };
  }
  if (slug in fieldErrorTypes) {
    return {
      type: typeUri,
      title: fieldErrorTypes[slug as FieldErrorType],
      description: descriptions[slug as FieldErrorType],
    };
  }
  return undefined;
}
