/**
 * The published OpenAPI document, generated from the route table: every operation under its
 * path and method, schemas named after public concepts, merge-patch bodies, Location on 201.
 */
import { describe, expect, it } from 'vitest';
import { readinessRoutes } from '../routes/groups/readiness.routes.ts';
import { streamRoutes } from '../routes/groups/stream.routes.ts';
import { routes } from '../routes/route-table.ts';
import { openApiDocument } from './openapi-document.ts';

interface Operation {
  operationId: string;
  description: string;
  tags: string[];
  parameters: Array<{ name: string; in: string; required: boolean; schema: Record<string, unknown> }>;
  requestBody?: { required: boolean; content: Record<string, unknown> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, any> }>;
  security: unknown[];
}

interface Document {
  openapi: string;
  info: Record<string, unknown>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const doc = openApiDocument() as Document;
/** The routes the document lists (pages for people are served but not listed). */
const published = [...routes, ...readinessRoutes, ...streamRoutes].filter(
  (route) => (route as { published?: boolean }).published !== false,
);

function operationOf(path: string, method: string): Operation {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`no operation for ${method} ${path}`);
  return operation;
}

/** A response, or the shared response it references. */
function responseOf(response: Record<string, any>): { content?: Record<string, unknown>; headers?: unknown } {
  const ref = response.$ref as string | undefined;
  return ref ? (doc.components as any).responses[ref.split('/').pop() ?? ''] : response;
}

/** Every schema object in the document, at any depth. */
function schemasIn(value: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap(schemasIn);
  if (!value || typeof value !== 'object') return [];
  const node = value as Record<string, unknown>;
  const inner = Object.values(node).flatMap(schemasIn);
  return typeof node.type === 'string' ? [node, ...inner] : inner;
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
    );
  }
  return [];
}

describe('Function: openApiDocument', () => {
  it('is an OpenAPI 3.1.0 document', () => {
    // Assess
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
  });

  it.each(published.map((route) => ({ title: `documents ${route.operationId}`, route })))(
    '$title',
    ({ route }) => {
      // Act
      const operation = operationOf(route.path, route.method);

      // Assess
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.responses).toHaveProperty(String(route.success.status));
      expect(operation.security).toEqual(
        {
          bearer: [{ bearer: [] }],
          admin: [{ adminBearer: [] }],
          device: [{ intakeSecret: [] }],
          none: [],
        }[route.auth],
      );
    },
  );

  it('documents each operation id once', () => {
    // Act
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));

    // Assess
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(published.length);
  });

  it('declares every placeholder of a path as a required path parameter', () => {
    for (const route of published) {
      // Prepare
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

      // Act
      const declared = operationOf(route.path, route.method).parameters.filter((p) => p.in === 'path');

      // Assess
      expect(
        declared.map((p) => p.name),
        route.operationId,
      ).toEqual(names);
      for (const parameter of declared) expect(parameter.required).toBe(true);
    }
  });

  it('publishes the area, tag and problem schemas under their concept names', () => {
    // Act
    const names = Object.keys(doc.components.schemas);

    // Assess
    expect(names).toEqual(
      expect.arrayContaining(['Area', 'CreateArea', 'UpdateArea', 'AreaList', 'Tag', 'Problem']),
    );
  });

  it('names no schema with a Request, Response or DTO suffix', () => {
    // Act
    const names = Object.keys(doc.components.schemas);

    // Assess
    expect(names.filter((name) => /(Request|Response|DTO|Dto)$/.test(name))).toEqual([]);
  });

  it('resolves every $ref to a published schema or response', () => {
    // Act
    const refs = [...new Set(refsIn(doc))];

    // Assess
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const [, , section, name] = ref.split('/');
      expect(['schemas', 'responses'], ref).toContain(section);
      expect((doc.components as Record<string, Record<string, unknown>>)[section ?? ''], ref).toHaveProperty(
        name ?? '',
      );
    }
  });

  it('accepts merge-patch and plain JSON bodies on every PATCH operation', () => {
    // Prepare
    const patches = routes.filter((route) => route.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);

    for (const route of patches) {
      // Act
      const content = operationOf(route.path, route.method).requestBody?.content ?? {};

      // Assess
      expect(Object.keys(content).sort(), route.operationId).toEqual([
        'application/json',
        'application/merge-patch+json',
      ]);
    }
  });

  it('documents a Location header on every 201 response', () => {
    // Prepare
    const creates = routes.filter((route) => route.success.status === 201);
    expect(creates.length).toBeGreaterThan(0);

    for (const route of creates) {
      // Act
      const created = operationOf(route.path, route.method).responses['201'];

      // Assess
      expect(created?.headers, route.operationId).toHaveProperty('Location.required', true);
    }
  });

  it('publishes no null in any success answer: absent values are omitted keys', () => {
    // Arrange: every schema a success answer can reach, through references.
    const components = doc.components.schemas as Record<string, unknown>;
    const nullable: string[] = [];
    const seen = new Set<unknown>();
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const schema = node as Record<string, unknown>;
      if (typeof schema.$ref === 'string') {
        const name = schema.$ref.replace('#/components/schemas/', '');
        visit(components[name], name);
        return;
      }
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (types.includes('null') || schema.nullable === true || schema.const === null) nullable.push(where);
      for (const [key, inner] of Object.entries(schema)) {
        if (key === 'example' || key === 'examples' || key === 'default') continue;
        visit(inner, key === 'properties' ? where : `${where}.${key}`);
      }
    };

    // Act
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          // A GraphQL answer follows GraphQL over HTTP, where `data: null` is meaningful.
          if (!status.startsWith('2') || operation.operationId === 'graphql.query') continue;
          for (const media of Object.values(response.content ?? {}))
            visit(media.schema, `${method} ${path} ${status}`);
        }
      }
    }

    // Assess
    expect(nullable).toEqual([]);
  });

  it('bounds every array a request body can carry, so a huge one is refused without being read', () => {
    // Arrange
    const components = doc.components.schemas as Record<string, unknown>;
    const unbounded: string[] = [];
    const seen = new Set<unknown>();
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const schema = node as Record<string, unknown>;
      if (typeof schema.$ref === 'string') {
        const name = schema.$ref.replace('#/components/schemas/', '');
        visit(components[name], name);
        return;
      }
      if (schema.type === 'array' && schema.maxItems === undefined) unbounded.push(where);
      for (const [key, inner] of Object.entries(schema)) {
        if (key === 'example' || key === 'examples' || key === 'default') continue;
        visit(inner, key === 'properties' ? where : `${where}.${key}`);
      }
    };

    // Act
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const media of Object.values(operation.requestBody?.content ?? {}) as Array<{
          schema: unknown;
        }>) {
          visit(media.schema, `${method} ${path}`);
        }
      }
    }

    // Assess
    expect(unbounded).toEqual([]);
  });

  it('documents errors as shared problem+json responses with the Problem schema and an example', () => {
    // Act
    const failures = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .flatMap((op) =>
        Object.entries(op.responses).filter(([status]) => status === 'default' || Number(status) >= 400),
      )
      .map(([, response]) => responseOf(response));

    // Assess
    expect(failures.length).toBeGreaterThan(0);
    for (const response of failures) {
      expect(response.content).toEqual({
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          example: expect.objectContaining({ type: expect.any(String), status: expect.any(Number) }),
        },
      });
    }
  });

  it.each(published.map((route) => ({ title: route.operationId, route })))(
    'gives $title a default answer, and a 503 when it reads the store',
    ({ route }) => {
      // Act
      const statuses = Object.keys(operationOf(route.path, route.method).responses);

      // Assess
      expect(statuses).toContain('default');
      if (route.auth !== 'none') expect(statuses).toContain('503');
    },
  );

  it('describes each operation with its access and, for lists, its sort keys and filters', () => {
    // Act
    const list = operationOf('/api/v2/users', 'GET');
    const create = operationOf('/api/v2/areas', 'POST');
    const update = operationOf('/api/v2/areas/{area_id}', 'PATCH');

    // Assess
    expect(list.description).toContain('`users:read`');
    expect(list.description).toMatch(/Sort keys:.*`last_name`/);
    expect(list.description).toMatch(/Filters:.*`search`.*`status`/);
    expect(create.description).toContain('`areas:update`');
    expect(update.description).toMatch(/Concurrency:.*lock_version/);
  });

  it('publishes request and response examples with the operations', () => {
    // Act
    const create = operationOf('/api/v2/areas', 'POST');

    // Assess
    expect(create.requestBody?.content['application/json']).toHaveProperty('example');
    expect(create.responses['201']?.content?.['application/json']).toHaveProperty('example');
  });

  it('documents the array sort parameter as repeated keys', () => {
    // Act
    const sort = operationOf('/api/v2/areas', 'GET').parameters.find((p) => p.name === 'sort');

    // Assess
    expect(sort).toMatchObject({ in: 'query', required: false, style: 'form', explode: true });
    expect(sort?.schema).toMatchObject({ type: 'array' });
  });

  it('documents page and size as bounded 32-bit integers with their defaults', () => {
    // Act
    const parameters = operationOf('/api/v2/areas', 'GET').parameters;

    // Assess
    expect(parameters.find((p) => p.name === 'page')?.schema).toMatchObject({
      type: 'integer',
      format: 'int32',
      minimum: 0,
      default: 0,
    });
    expect(parameters.find((p) => p.name === 'size')?.schema).toMatchObject({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 100,
      default: 20,
    });
  });

  it('publishes the default of the users status filter', () => {
    // Act
    const status = operationOf('/api/v2/users', 'GET').parameters.find((p) => p.name === 'status');

    // Assess
    expect(status?.schema).toMatchObject({
      default: 'ACTIVE',
      enum: ['ACTIVE', 'BLOCKED', 'INACTIVE', 'ALL'],
    });
  });

  it('gives every integer a format and no meaningless ±2^53 bounds', () => {
    // Act
    const integers = schemasIn(doc).filter((schema) => schema.type === 'integer');

    // Assess
    expect(integers.length).toBeGreaterThan(0);
    for (const schema of integers) {
      expect(['int32', 'int64']).toContain(schema.format);
      expect(Math.abs(Number(schema.minimum ?? 0))).toBeLessThan(Number.MAX_SAFE_INTEGER);
      expect(Math.abs(Number(schema.maximum ?? 0))).toBeLessThan(Number.MAX_SAFE_INTEGER);
    }
  });

  it('publishes lock_version as a non-negative int64 and colours with a pattern', () => {
    // Act
    const area = doc.components.schemas.Area as { properties: Record<string, Record<string, unknown>> };

    // Assess
    expect(area.properties.lock_version).toMatchObject({ type: 'integer', format: 'int64', minimum: 0 });
    expect(area.properties.color).toHaveProperty('pattern');
  });

  it('declares every tag it uses, with a description', () => {
    // Act
    const declared = doc.tags.map((tag) => tag.name);
    const used = new Set(
      Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags)),
    );

    // Assess
    expect([...used].sort()).toEqual([...declared].sort());
    for (const tag of doc.tags) expect(tag.description.length).toBeGreaterThan(10);
  });

  it('names its contact, license, semantic version, API id and audience', () => {
    expect(doc.info).toMatchObject({
      version: expect.stringMatching(/^2\.\d+\.\d+$/),
      contact: { name: expect.any(String), url: expect.any(String), email: expect.any(String) },
      license: { name: expect.any(String), url: expect.any(String) },
      'x-api-id': expect.any(String),
      'x-audience': 'external-partner',
    });
  });

  it('leaves pages for people out of the document', () => {
    // Prepare
    const hidden = routes.filter((route) => (route as { published?: boolean }).published === false);

    // Act + Assess
    for (const route of hidden) expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toBeUndefined();
  });

  it('documents the admin plane with the adminBearer scheme, a 401 and never a 402 or 403', () => {
    // Prepare
    const adminRoutes = routes.filter((route) => route.auth === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(0);
    expect(doc.components.securitySchemes).toHaveProperty('adminBearer');

    for (const route of adminRoutes) {
      // Act
      const operation = operationOf(route.path, route.method);

      // Assess
      expect(route.path, route.operationId).toMatch(/^\/admin-v1\//);
      expect(operation.responses, route.operationId).toHaveProperty('401');
      expect(operation.responses, route.operationId).not.toHaveProperty('402');
      expect(operation.responses, route.operationId).not.toHaveProperty('403');
    }
  });

  it('returns the same document on every call', () => {
    // Act
    const again = openApiDocument();

    // Assess
    expect(again).toBe(doc);
  });
});
