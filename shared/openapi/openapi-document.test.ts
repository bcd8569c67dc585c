/**
 * The published OpenAPI document, generated from the route table: every operation under its
 * path and method, schemas named after public concepts, merge-patch bodies, Location on 201.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../routes/route-table.ts';
import { openApiDocument } from './openapi-document.ts';

interface Operation {
  operationId: string;
  parameters: Array<{ name: string; in: string; required: boolean; schema: Record<string, unknown> }>;
  requestBody?: { required: boolean; content: Record<string, unknown> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
  security: unknown[];
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const doc = openApiDocument() as Document;

function operationOf(path: string, method: string): Operation {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`no operation for ${method} ${path}`);
  return operation;
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

  it.each(routes.map((route) => ({ title: `documents ${route.operationId}`, route })))(
    '$title',
    ({ route }) => {
      // Act
      const operation = operationOf(route.path, route.method);

      // Assess
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.responses).toHaveProperty(String(route.success.status));
      expect(operation.security).toEqual(
        route.auth === 'bearer' ? [{ bearer: [] }] : route.auth === 'admin' ? [{ adminBearer: [] }] : [],
      );
    },
  );

  it('documents each operation id once', () => {
    // Act
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));

    // Assess
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(routes.length);
  });

  it('declares every placeholder of a path as a required path parameter', () => {
    for (const route of routes) {
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

  it('resolves every $ref to a published schema', () => {
    // Act
    const refs = [...new Set(refsIn(doc))];

    // Assess
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas, ref).toHaveProperty(ref.replace('#/components/schemas/', ''));
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
      expect(created?.headers, route.operationId).toHaveProperty('Location');
    }
  });

  it('documents errors as application/problem+json with the Problem schema', () => {
    // Act
    const failures = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .flatMap((op) => Object.entries(op.responses).filter(([status]) => Number(status) >= 400))
      .map(([, response]) => response);

    // Assess
    expect(failures.length).toBeGreaterThan(0);
    for (const response of failures) {
      expect(response.content).toEqual({
        'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
      });
    }
  });

  it('documents the array sort parameter as repeated keys', () => {
    // Act
    const sort = operationOf('/api/v2/areas', 'GET').parameters.find((p) => p.name === 'sort');

    // Assess
    expect(sort).toMatchObject({ in: 'query', required: false, style: 'form', explode: true });
    expect(sort?.schema).toMatchObject({ type: 'array' });
  });

  it('documents page and size as bounded integers', () => {
    // Act
    const parameters = operationOf('/api/v2/areas', 'GET').parameters;

    // Assess
    expect(parameters.find((p) => p.name === 'page')?.schema).toMatchObject({ type: 'integer', minimum: 0 });
    expect(parameters.find((p) => p.name === 'size')?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
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
