/**
 * The OpenAPI 3.1 document, generated from the route table and the zod schemas, so it cannot
 * drift from what the service does. Schema names are the public concepts (Area, CreateArea,
 * UpdateArea, AreaList). For each operation: its description (operation-description.ts), its
 * parameters with their bounds, formats and defaults (json-schema.ts), request and response
 * examples from the route, and its error answers as shared responses (error-responses.ts).
 * Routes marked `published: false` (pages for people) are served but not listed.
 */
import type * as z from 'zod';
import { adminRealm } from '../auth/realm-name.ts';
import { config } from '../config.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import { apiTags } from '../routes/api-tags.ts';
import { readinessRoutes } from '../routes/groups/readiness.routes.ts';
import { streamRoutes } from '../routes/groups/stream.routes.ts';
import { routes } from '../routes/route-table.ts';
import { apiInfo } from './api-info.ts';
import { errorResponseComponents, errorResponseRefs } from './error-responses.ts';
import { componentSchemas, type JsonSchema, schemaOf } from './json-schema.ts';
import { operationDescription } from './operation-description.ts';
import { ProblemSchema } from './problem.schema.ts';

function parameters(route: RouteSpec): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [name, schema] of Object.entries((route.params?.shape ?? {}) as Record<string, z.ZodType>)) {
    list.push({ name, in: 'path', required: true, schema: schemaOf(schema) });
  }
  for (const [name, schema] of Object.entries((route.headers?.shape ?? {}) as Record<string, z.ZodType>)) {
    const json = schemaOf(schema);
    list.push({
      name: name.replace(
        /(^|-)([a-z])/g,
        (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`,
      ),
      in: 'header',
      required: !schema.safeParse(undefined).success,
      schema: json,
      ...(typeof json.description === 'string' ? { description: json.description } : {}),
    });
  }
  if (route.success.conditional) list.push(ifNoneMatchParameter);
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

const locationHeader = (description: string) => ({
  Location: { description, required: true, schema: { type: 'string', format: 'uri' } },
});

const ifNoneMatchParameter = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The ETag of a copy the client holds: the answer is 304 without a body while it is current.',
  schema: { type: 'string', example: 'W/"3q2-7w1B0zIqQcy9hC5n0dN6m4Vq8rT2xY1uE6aF9g"' },
};

const etagHeader = {
  ETag: {
    description: 'Names this version of the answer (weak: the compressed and plain bodies are one document).',
    required: true,
    schema: { type: 'string' },
  },
};

/** The 304 of a conditional route: the copy the client named is current. */
const notModified = {
  description: 'The copy named by If-None-Match is current: no body.',
  headers: etagHeader,
};

function successResponse(route: RouteSpec): Record<string, unknown> {
  const { status, description, schema, contentType, alternatives = [] } = route.success;
  const content = (example: boolean) =>
    schema
      ? {
          content: {
            [contentType ?? 'application/json']: {
              schema: schemaOf(schema),
              ...(!example || route.examples.response === undefined
                ? {}
                : { example: route.examples.response }),
            },
          },
        }
      : {};
  const responses: Record<string, unknown> = {
    [String(status)]: {
      description,
      ...(status === 201 ? { headers: locationHeader('Absolute URL of the created resource.') } : {}),
      ...(status === 202 && route.success.location
        ? { headers: locationHeader('Absolute URL of the accepted resource, to follow its progress.') }
        : {}),
      ...(route.success.conditional ? { headers: etagHeader } : {}),
      ...content(true),
    },
    ...(route.success.conditional ? { '304': notModified } : {}),
  };
  for (const alternative of alternatives) {
    responses[String(alternative.status)] = {
      description: alternative.description,
      ...(alternative.location ? { headers: locationHeader('Absolute URL of the existing resource.') } : {}),
      ...(alternative.status === 204 ? {} : content(false)),
    };
  }
  return responses;
}

function requestBody(route: RouteSpec): JsonSchema | undefined {
  if (!route.body) return undefined;
  const types = route.mergePatch
    ? ['application/merge-patch+json', 'application/json']
    : ['application/json'];
  const schema = schemaOf(route.body);
  return {
    required: true,
    content: Object.fromEntries(
      types.map((type) => [
        type,
        { schema, ...(route.examples.request === undefined ? {} : { example: route.examples.request }) },
      ]),
    ),
  };
}

function securityOf(route: RouteSpec): Array<Record<string, string[]>> {
  if (route.auth === 'bearer') return [{ bearer: [] }];
  if (route.auth === 'admin') return [{ adminBearer: [] }];
  if (route.auth === 'device') return [{ intakeSecret: [] }];
  return [];
}

function operationOf(route: RouteSpec): JsonSchema {
  const body = requestBody(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: operationDescription(route),
    tags: route.tags,
    ...(route.grants?.length ? { 'x-required-grants': route.grants } : {}),
    parameters: parameters(route),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponse(route), ...errorResponseRefs(route) },
    security: securityOf(route),
  };
}

let cached: unknown;
let cachedText: string | undefined;

/** The document as served: serialized once (it is about half a megabyte), so answers reuse one body. */
export function openApiDocumentText(): string {
  cachedText ??= JSON.stringify(openApiDocument());
  return cachedText;
}

export function openApiDocument(): unknown {
  if (cached) return cached;
  const published = ([...routes, ...readinessRoutes, ...streamRoutes] as readonly RouteSpec[]).filter(
    (route) => route.published !== false,
  );
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of published) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operationOf(route);
  }
  const used = new Set(published.flatMap((route) => route.tags));
  const { baseUrl, authUrl } = config();
  void ProblemSchema; // registers the Problem component
  cached = {
    openapi: '3.1.0',
    info: apiInfo(),
    servers: [{ url: baseUrl, description: 'This deployment.' }],
    tags: Object.entries(apiTags)
      .filter(([name]) => used.has(name as keyof typeof apiTags))
      .map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: componentSchemas(),
      responses: errorResponseComponents(),
      securitySchemes: {
        bearer: {
          type: 'openIdConnect',
          openIdConnectUrl: `${authUrl}/realms/shared/.well-known/openid-configuration`,
          description:
            'Bearer access token (JWT) from the identity provider; a dedicated realm replaces "shared". ' +
            'Exactly one Authorization header: two are refused (401 token_invalid).',
        },
        intakeSecret: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A device's intake secret (from POST /api/v2/devices/{device_id}/setup-codes), for telemetry " +
            'intake only; user and client tokens are refused there.',
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
