/**
 * Domain errors as GraphQL errors: the GraphQL transport's one mapper of every module's codes
 * (shared/domain/domain-error.ts), as `extensions.code` in the style GraphQL servers share
 * (NOT_FOUND, FORBIDDEN, BAD_USER_INPUT, …). Complete by construction: a module or code missing
 * from the table does not build. Field errors travel as `extensions.errors` (pointer and kind).
 */
import type { GraphQLFormattedError } from 'graphql';
import {
  type CommonErrorCode,
  type DomainError,
  type DomainModule,
  isCommonErrorCode,
} from '../domain/domain-error.ts';
import type { DomainErrorCodes } from '../domain/domain-error-codes.ts';

const commonCodes: Record<CommonErrorCode, string> = {
  'not-found': 'NOT_FOUND',
  invalid: 'BAD_USER_INPUT',
  'version-conflict': 'CONFLICT',
  'already-exists': 'CONFLICT',
  conflict: 'CONFLICT',
  forbidden: 'FORBIDDEN',
  unavailable: 'SERVICE_UNAVAILABLE',
  failed: 'INTERNAL_SERVER_ERROR',
};

type OwnCodes<M extends DomainModule> = Exclude<DomainErrorCodes[M], CommonErrorCode>;

const ownCodes: { [M in DomainModule]: Record<OwnCodes<M>, string> } = {
  common: {},
  areas: {},
  'audit-logs': {},
  billing: {},
  cases: {},
  comments: {
    'cannot-edit-others': 'FORBIDDEN',
    'cannot-restore-not-deleted': 'BAD_USER_INPUT',
    'reaction-on-deleted-comment': 'BAD_USER_INPUT',
  },
  'custom-objects': {
    'required-relation': 'BAD_USER_INPUT',
    'cardinality-violation-source': 'BAD_USER_INPUT',
    'cardinality-violation-target': 'BAD_USER_INPUT',
    'relation-invalid': 'BAD_USER_INPUT',
    'relation-side-missing': 'BAD_USER_INPUT',
    'relation-definition-unknown': 'BAD_USER_INPUT',
    'relation-cardinality-invalid': 'BAD_USER_INPUT',
    'relation-slug-invalid': 'BAD_USER_INPUT',
  },
  devices: { unauthenticated: 'UNAUTHENTICATED' },
  'maintenance-plans': {},
  'optimization-runs': {},
  scheduling: {},
  settings: {},
  shifts: {},
  skills: {},
  tags: {},
  tenant: {},
  tours: {},
  users: { 'login-failed': 'UNAUTHENTICATED' },
  vehicles: {},
  webhooks: {},
  workspaces: {},
};

/** The `extensions` of a domain error's GraphQL error. */
export function graphqlExtensionsOf(error: DomainError): NonNullable<GraphQLFormattedError['extensions']> {
  const code = error.code as string;
  const graphqlCode = isCommonErrorCode(code)
    ? commonCodes[code]
    : (ownCodes[error.module] as Record<string, string>)[code];
  const { fields, data } = error.init;
  return {
    code: graphqlCode ?? 'INTERNAL_SERVER_ERROR',
    ...(fields?.length
      ? { errors: fields.map(({ type, pointer, detail }) => ({ type, pointer, detail })) }
      : {}),
    ...(data ? { data } : {}),
  };
}
