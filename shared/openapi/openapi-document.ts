/**
 * The OpenAPI 3.1 document, generated from the route table and the zod schemas, so it cannot
 * drift from what the service does. Schema names are the public concepts (Area, CreateArea,
 * UpdateArea, AreaList). Choices that SPEC.md leaves open are written into descriptions.
 */
import * as z from 'zod';
import { adminRealm } from '../auth/realm-name.ts';
import { config } from '../config.ts';
import { problemTypes } from '../http/problem-types.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import { routes } from '../routes/route-table.ts';
import { ProblemSchema } from './problem.schema.ts';

type JsonSchema = Record<string, unknown>;

const refOf = (id: string) => `#/components/schemas/${id}`;

/** Formats that say all a reader needs; zod's checking regexes beside them are only noise. */
const selfDescribingFormats = new Set(['date-time', 'date', 'time', 'uuid', 'email', 'uri']);

/** Drop the regex zod emits next to a well-known `format`, everywhere in a schema. */
function tidy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(tidy) as T;
  if (value === null || typeof value !== 'object') return value;
  const schema = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, tidy(inner)]));
  if (typeof schema.format === 'string' && selfDescribingFormats.has(schema.format)) delete schema.pattern;
  return schema as T;
}

function schemaOf(schema: z.ZodType): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: refOf(id) };
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return tidy(json);
}

function components(): Record<string, JsonSchema> {
  void ProblemSchema;
  const all = z.toJSONSchema(z.globalRegistry, { io: 'input', unrepresentable: 'any', uri: refOf }) as {
    schemas: Record<string, JsonSchema>;
  };
  for (const schema of Object.values(all.schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return tidy(all.schemas);
}

function parameters(route: RouteSpec): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [name, schema] of Object.entries((route.params?.shape ?? {}) as Record<string, z.ZodType>)) {
    list.push({ name, in: 'path', required: true, schema: schemaOf(schema) });
  }
  for (const [name, schema] of Object.entries((route.query?.shape ?? {}) as Record<string, z.ZodType>)) {
    const json = schemaOf(schema);
    list.push({
      name,
      in: 'query',
      required: !schema.safeParse(undefined).success,
      schema: json,
      ...(json.type === 'array' ? { style: 'form', explode: true } : {}),
      ...(typeof json.description === 'string' ? { description: json.description } : {}),
    });
  }
  return list;
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: refOf('Problem') } } },
});

function responses(route: RouteSpec): Record<string, unknown> {
  const success = route.success;
  const result: Record<string, unknown> = {
    [String(success.status)]: {
      description: success.description,
      ...(success.status === 201
        ? {
            headers: {
              Location: { description: 'Absolute URL of the created resource.', schema: { type: 'string' } },
            },
          }
        : {}),
      ...(success.schema
        ? { content: { [success.contentType ?? 'application/json']: { schema: schemaOf(success.schema) } } }
        : {}),
    },
  };
  if (route.auth === 'bearer') {
    result['401'] = problemResponse(
      'authentication-required (data.reason token_missing, token_expired, token_invalid)',
    );
    result['402'] = problemResponse('tenant-billing-locked');
    result['403'] = problemResponse('access-denied (data.reason, data.required_grants) or tenant-disabled');
  }
  // The admin plane has no workspace and no grant model: a 401 but never a 402 or 403.
  if (route.auth === 'admin') {
    result['401'] = problemResponse(
      'authentication-required (data.reason token_missing, token_expired, token_invalid; a workspace token is token_invalid)',
    );
  }
  if (route.params) result['404'] = problemResponse('not-found');
  if (route.body && route.method !== 'GET') {
    result['400'] = problemResponse('invalid-json');
    result['415'] = problemResponse('unsupported-media-type');
  }
  if (route.body && 'lock_version' in ((route.body as z.ZodObject).shape ?? {})) {
    result['409'] = problemResponse('resource-conflict: lock_version differs from the stored version');
  }
  for (const status of route.errors ?? []) {
    const types = Object.entries(problemTypes).filter(([, type]) => type.status === status);
    result[String(status)] ??= problemResponse(types.map(([slug]) => slug).join(' or '));
  }
  if (route.body || route.query) {
    result['422'] = problemResponse(
      'field-required, field-type-invalid or validation-failed, with errors[].pointer',
    );
  }
  return result;
}

function securityOf(route: RouteSpec): Array<Record<string, string[]>> {
  if (route.auth === 'bearer') return [{ bearer: [] }];
  if (route.auth === 'admin') return [{ adminBearer: [] }];
  return [];
}

let cached: unknown;

export function openApiDocument(): unknown {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes as readonly RouteSpec[]) {
    const pathItem = paths[route.path] ?? {};
    paths[route.path] = pathItem;
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      ...(route.grants?.length ? { 'x-required-grants': route.grants } : {}),
      parameters: parameters(route),
      responses: responses(route),
      security: securityOf(route),
    };
    if (route.body) {
      const types = route.mergePatch
        ? ['application/merge-patch+json', 'application/json']
        : ['application/json'];
      operation.requestBody = {
        required: true,
        content: Object.fromEntries(
          types.map((type) => [type, { schema: schemaOf(route.body as z.ZodType) }]),
        ),
      };
    }
    pathItem[route.method.toLowerCase()] = operation;
  }
  const { baseUrl, authUrl, problemsBaseUrl } = config();
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Field Service Management API',
      version: '2',
      description: [
        'Multi-tenant field-service management API. Conventions:',
        '- Errors are RFC 9457 problem documents; type URIs are relative to the problems base URL ' +
          `(${problemsBaseUrl}): ${Object.keys(problemTypes).join(', ')}.`,
        '- Lists: page (>= 0, default 0), size (1..100, default 20); out-of-range or non-integer values are 422.',
        '- Sorting: repeated sort=<field>:<asc|desc>; any comma in sort is 422.',
        '- PATCH is JSON Merge Patch (application/merge-patch+json or application/json); other media types are 415.',
        '- lock_version: equal writes and increments, different is 409, omitted or null is last-write-wins.',
        '- A malformed id in a path answers 404 like an unknown id. Unknown body keys are ignored.',
        '- Areas: name and color (hex) are required on create; zip_ranges default to []; description is ' +
          'clearable with null. Default order: created_at ascending.',
        '- Audit logs: created_from is inclusive, created_to exclusive; newest first.',
        '- Timestamps are RFC 3339 in UTC; absent values are omitted, never null.',
        '- Admin control plane (/admin-v1, security adminBearer): tokens of the reserved realm fsm-admin; ' +
          'no grant model, so never a 402 or 403. Workspace status: INACTIVE if deactivated, else ' +
          'BILLING_LOCKED if billing-locked, else ACTIVE; an action that changes nothing answers 200 unchanged.',
      ].join('\n'),
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        bearer: {
          type: 'openIdConnect',
          openIdConnectUrl: `${authUrl}/realms/shared/.well-known/openid-configuration`,
          description:
            'Bearer access token (JWT) from the identity provider; a dedicated realm replaces "shared".',
        },
        adminBearer: {
          type: 'openIdConnect',
          openIdConnectUrl: `${authUrl}/realms/${adminRealm}/.well-known/openid-configuration`,
          description:
            `Admin control plane (/admin-v1): a client-credentials access token of the reserved realm ${adminRealm}. ` +
            'Workspace tokens are refused (401 token_invalid) and admin tokens are refused by /api/v2 routes.',
        },
      },
    },
  };
  return cached;
}
