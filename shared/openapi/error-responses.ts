/**
 * The error answers of the API as shared OpenAPI responses (`components/responses`), and which
 * of them an operation can give, derived from what the route declares: a bearer route can be
 * refused (401, 402, 403), a route with a path parameter can miss (404), a body can be
 * malformed, too large, of the wrong media type or invalid (400, 413, 415, 422), a query
 * invalid (422), a lock_version stale (409), a route that reads the store can meet an outage
 * (503). Every operation also has `default`, for what any route may answer (405, 414, 431,
 * 500). Each is an RFC 9457 problem document with an example.
 */
import { config } from '../config.ts';
import { problemTypes } from '../http/problem-types.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import type { JsonSchema } from './json-schema.ts';
import { refOf } from './json-schema.ts';

interface ErrorResponse {
  name: string;
  description: string;
  /** The problem type of the example. */
  example: {
    type: keyof typeof problemTypes;
    detail: string;
    /** Further members; `typeUri` makes a type URI of a slug. */
    extra?: (typeUri: (slug: string) => string) => Record<string, unknown>;
  };
  headers?: Record<string, JsonSchema>;
}

const retryAfter = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1 },
  },
};

export const errorResponses: Record<number | 'default', ErrorResponse> = {
  400: {
    name: 'BadRequest',
    description: 'invalid-json: the body is not valid JSON (a syntax error or a truncated payload).',
    example: { type: 'invalid-json', detail: 'The body is not valid JSON: Unexpected end of JSON input' },
  },
  401: {
    name: 'Unauthorized',
    description:
      'authentication-required, data.reason token_missing (send a token), token_expired (refresh and replay once) ' +
      'or token_invalid (authenticate again); login-failed where a password is checked. WWW-Authenticate says which.',
    example: {
      type: 'authentication-required',
      detail: 'The token has expired.',
      extra: () => ({ data: { reason: 'token_expired' } }),
    },
    headers: {
      'WWW-Authenticate': {
        description:
          'Bearer, with error="invalid_token" and error_description when a token was sent and refused; plain ' +
          'Bearer on login-failed (the token is valid, the password was not).',
        required: true,
        schema: { type: 'string' },
      },
    },
  },
  402: {
    name: 'PaymentRequired',
    description: 'tenant-billing-locked: the workspace is locked for billing reasons.',
    example: {
      type: 'tenant-billing-locked',
      detail: 'This workspace is locked for billing reasons; the billing operations stay available.',
      extra: () => ({ data: { reason: 'BILLING_LOCKED' } }),
    },
  },
  403: {
    name: 'Forbidden',
    description:
      'access-denied (data.reason, and data.required_grants for a missing grant) or tenant-disabled (data.reason ' +
      'TENANT_INACTIVE). Retrying never helps.',
    example: {
      type: 'access-denied',
      detail: 'This operation needs the grants: areas:update.',
      extra: () => ({ data: { reason: 'missing_grant', required_grants: ['areas:update'] } }),
    },
  },
  404: {
    name: 'NotFound',
    description:
      'not-found: no record with this id in the workspace (a malformed id and another workspace look the same).',
    example: { type: 'not-found', detail: 'No resource with this id exists.' },
  },
  409: {
    name: 'Conflict',
    description: 'resource-conflict: lock_version differs from the stored one, or a unique value is taken.',
    example: { type: 'resource-conflict', detail: 'The resource was changed by someone else.' },
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'payload-too-large: the body is larger than 1 MiB.',
    example: { type: 'payload-too-large', detail: 'Request bodies are limited to 1048576 bytes.' },
  },
  415: {
    name: 'UnsupportedMediaType',
    description:
      'unsupported-media-type: send application/json (PATCH: application/merge-patch+json or application/json). ' +
      'Accept-Post or Accept-Patch names them.',
    example: { type: 'unsupported-media-type', detail: 'Send the body as application/json.' },
  },
  422: {
    name: 'UnprocessableContent',
    description:
      'field-required, field-type-invalid or validation-failed, with one errors[] entry per field or parameter: ' +
      'body fields at `#/name`, `#/tag_ids/0`; query parameters at `#/query/<name>` with `data.parameter`. A ' +
      'query parameter the operation does not publish, a body key its write schema does not know (read-only ' +
      'keys of the representation included) and a body sent to an operation that takes none are ' +
      '`field-unknown` entries, with `data.suggestion` when a known name is a small edit away. At most 100 ' +
      'entries are listed; `data.errors_truncated` says when more were found.',
    example: {
      type: 'field-required',
      detail: '#/name: must not be blank',
      extra: (typeUri) => ({
        errors: [
          {
            type: typeUri('field-required'),
            title: 'Field required',
            detail: 'must not be blank',
            pointer: '#/name',
          },
        ],
      }),
    },
  },
  429: {
    name: 'TooManyRequests',
    description:
      'too-many-requests: the caller holds as many event-stream connections as allowed (5 per user or service ' +
      'account); close one, or retry after Retry-After.',
    example: {
      type: 'too-many-requests',
      detail: 'At most 5 concurrent event-stream connections per user or service account.',
    },
    headers: retryAfter,
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'service-unavailable: the data store or the identity provider is busy, unreachable or did not answer in ' +
      'time. Retry after Retry-After. On a write the outcome is unknown: retry with the same lock_version.',
    example: { type: 'service-unavailable', detail: 'The data store is busy or unreachable; retry shortly.' },
    headers: retryAfter,
  },
  default: {
    name: 'Error',
    description:
      'Any other problem document: 405 method-not-allowed (Allow lists the methods), 414 uri-too-long (request ' +
      'line over 8 KiB), 431 request-header-fields-too-large (headers over 16 KiB), 500 internal-error.',
    example: {
      type: 'internal-error',
      detail: 'An unexpected error occurred; the request id identifies it.',
    },
  },
};

/** `components/responses`: one entry per error answer. */
export function errorResponseComponents(): Record<string, unknown> {
  const { problemsBaseUrl } = config();
  return Object.fromEntries(
    Object.entries(errorResponses).map(([status, response]) => {
      const { type, detail, extra } = response.example;
      const example = {
        type: `${problemsBaseUrl}${type}`,
        title: problemTypes[type].title,
        status: status === 'default' ? problemTypes[type].status : Number(status),
        detail,
        instance: '/api/v2/areas',
        ...extra?.((slug) => `${problemsBaseUrl}${slug}`),
      };
      return [
        response.name,
        {
          description: response.description,
          ...(response.headers ? { headers: response.headers } : {}),
          content: { 'application/problem+json': { schema: { $ref: refOf('Problem') }, example } },
        },
      ];
    }),
  );
}

/** The statuses an operation can answer with a problem, besides `default`. */
export function errorStatusesOf(route: RouteSpec): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.auth === 'bearer') {
    statuses.add(401).add(403);
    if (!route.allowInactiveTenant) statuses.add(402);
  }
  if (route.auth === 'admin') statuses.add(401);
  if (route.auth === 'device') statuses.add(401).add(403);
  if (route.params) statuses.add(404);
  if (route.body) statuses.add(400).add(413).add(415).add(422);
  // Strict input: an unknown query parameter or body key is 422 on every operation.
  if (route.published !== false) statuses.add(422);
  if (route.body && 'lock_version' in ((route.body as { shape?: object }).shape ?? {})) statuses.add(409);
  // Authenticated routes read the store (or the identity provider's keys) on every request.
  if (route.auth !== 'none') statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** The `responses` entries of an operation's errors: references to the shared answers. */
export function errorResponseRefs(route: RouteSpec): Record<string, unknown> {
  const refs: Record<string, unknown> = {};
  for (const status of errorStatusesOf(route)) {
    const response = errorResponses[status];
    if (!response) throw new Error(`${route.operationId} declares ${status}, which has no shared response`);
    refs[String(status)] = { $ref: `#/components/responses/${response.name}` };
  }
  refs.default = { $ref: `#/components/responses/${errorResponses.default.name}` };
  return refs;
}
