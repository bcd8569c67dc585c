/**
 * The HTTP kernel every operation runs in, driven with hand-built API Gateway v2 events on
 * public test routes: body media types and JSON, input validation, request and correlation
 * ids, and problem documents for everything that goes wrong (SPEC.md, rules 2, 5, 10; Errors).
 */
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { config } from '../config.ts';
import { activeCallCost } from '../data/call-cost.ts';
import { currentLogContext } from '../observability/logger.ts';
import { text } from '../schema/fields.ts';
import type { ApiEvent, ApiResult } from './api-gateway.ts';
import { createGroupHandler } from './group-handler.ts';
import { createKernelHandler } from './operation-kernel.ts';
import type { RouteSpec } from './route-spec.ts';

const NoteBody = z.object({ title: text(), count: z.int().optional() });

const testRoutes = [
  {
    operationId: 'notes.create',
    method: 'POST',
    path: '/notes',
    group: 'notes',
    summary: 'Create a note',
    description: 'Creates a note of the test group; its examples are not published.',
    examples: { request: { title: 'Hello' } },
    tags: ['Platform'],
    auth: 'none',
    query: z.object({
      target_ids: z.array(z.string()).optional(),
      mode: z.enum(['draft', 'final']).optional(),
    }),
    body: NoteBody,
    success: { status: 201, description: 'Created.' },
  },
  {
    operationId: 'notes.update',
    method: 'PATCH',
    path: '/notes/{note_id}',
    group: 'notes',
    summary: 'Update a note',
    description: 'Renames a note of the test group; its examples are not published.',
    examples: { request: { title: 'Renamed' } },
    tags: ['Platform'],
    auth: 'none',
    params: z.object({ note_id: z.uuid() }),
    body: NoteBody.partial(),
    mergePatch: true,
    success: { status: 200, description: 'Updated.' },
  },
  {
    operationId: 'notes.fail',
    method: 'GET',
    path: '/notes/fail',
    group: 'notes',
    summary: 'Always fails',
    description: 'Throws, so the kernel has an unexpected error to answer.',
    examples: {},
    tags: ['Platform'],
    auth: 'none',
    success: { status: 200, description: 'Never.' },
  },
  {
    operationId: 'notes.delete',
    method: 'DELETE',
    path: '/notes/{note_id}',
    group: 'notes',
    summary: 'Delete a note',
    description: 'Deletes a note of the test group without a body.',
    examples: {},
    tags: ['Platform'],
    auth: 'none',
    params: z.object({ note_id: z.uuid() }),
    success: { status: 204, description: 'Deleted.' },
  },
] as const satisfies readonly RouteSpec[];

const noteId = '0190b6a2-7c1e-7a3b-9f00-1234567890ab';
const secret = 'connection to db-internal-7 failed with password hunter2';

const seen: Record<string, unknown>[] = [];

const handler = createGroupHandler(testRoutes, {
  'notes.create': async ({ body, query, ctx }) => {
    seen.push({ body, query, ctx });
    return { body: { id: noteId, ...body }, location: `/notes/${noteId}` };
  },
  'notes.update': async ({ params, body }) => {
    seen.push({ params, body });
    return { body: { id: params.note_id, ...body } };
  },
  'notes.fail': async () => {
    throw new Error(secret);
  },
  'notes.delete': async () => ({}),
});

interface EventInit {
  routeKey: string;
  rawPath?: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  rawQueryString?: string;
  pathParameters?: Record<string, string>;
  isBase64Encoded?: boolean;
}

function apiEvent(init: EventInit): ApiEvent {
  const [method = 'GET', path = '/'] = init.routeKey.split(' ');
  const rawPath = init.rawPath ?? path;
  const headers: Record<string, string> = { ...init.headers };
  if (init.contentType) headers['content-type'] = init.contentType;
  return {
    version: '2.0',
    routeKey: init.routeKey,
    rawPath,
    rawQueryString: init.rawQueryString ?? '',
    headers,
    ...(init.pathParameters ? { pathParameters: init.pathParameters } : {}),
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'test',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'gw-request',
      routeKey: init.routeKey,
      stage: '$default',
      time: new Date(0).toUTCString(),
      timeEpoch: 0,
    },
    ...(init.body === undefined ? {} : { body: init.body }),
    isBase64Encoded: init.isBase64Encoded ?? false,
  };
}

function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'notes',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-central-1:000000000000:function:notes',
    memoryLimitInMB: '128',
    awsRequestId: 'aws-request',
    logGroupName: '/aws/lambda/notes',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

async function send(init: EventInit): Promise<ApiResult> {
  return handler(apiEvent(init), lambdaContext());
}

function jsonOf(result: ApiResult): Record<string, unknown> {
  return JSON.parse(String(result.body)) as Record<string, unknown>;
}

const createNote = (body: string, contentType = 'application/json') =>
  send({ routeKey: 'POST /notes', body, contentType });

const updateNote = (body: string, contentType: string) =>
  send({
    routeKey: 'PATCH /notes/{note_id}',
    rawPath: `/notes/${noteId}`,
    pathParameters: { note_id: noteId },
    body,
    contentType,
  });

const problemType = (slug: string) => `${config().problemsBaseUrl}${slug}`;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

afterEach(() => {
  seen.length = 0;
  vi.restoreAllMocks();
});

describe('Function: createGroupHandler', () => {
  it('leaves no request context behind in its caller: the next request starts clean', async () => {
    // Act: requests served one after another, as a server or the Lambda runtime calls them.
    await createNote('{"title":"First"}');
    const afterFirst = { log: currentLogContext(), cost: activeCallCost() };
    await createNote('{"title":"Second"}');

    // Assess
    expect(afterFirst).toEqual({ log: undefined, cost: undefined });
    expect(currentLogContext()).toBeUndefined();
  });

  describe('when the request is valid', () => {
    it('answers the route status with the JSON body and an absolute Location', async () => {
      // Act
      const result = await createNote('{"title":"Hello","count":2}');

      // Assess
      expect(result.statusCode).toBe(201);
      expect(result.headers['content-type']).toBe('application/json');
      expect(result.headers.location).toBe(`${config().baseUrl}/notes/${noteId}`);
      expect(jsonOf(result)).toEqual({ id: noteId, title: 'Hello', count: 2 });
    });

    it('hands the operation the parsed body and query', async () => {
      // Act
      await send({
        routeKey: 'POST /notes',
        rawQueryString: 'target_ids=a&target_ids=b%2Cc&mode=draft',
        body: '{"title":"Hello"}',
        contentType: 'application/json',
      });

      // Assess
      expect(seen[0]).toMatchObject({
        body: { title: 'Hello' },
        query: { target_ids: ['a', 'b,c'], mode: 'draft' },
      });
    });

    it('accepts a media type with parameters', async () => {
      // Act
      const result = await createNote('{"title":"Hello"}', 'Application/JSON; charset=utf-8');

      // Assess
      expect(result.statusCode).toBe(201);
    });

    it('decodes a base64-encoded body', async () => {
      // Act
      const result = await send({
        routeKey: 'POST /notes',
        body: Buffer.from('{"title":"Grüße"}').toString('base64'),
        isBase64Encoded: true,
        contentType: 'application/json',
      });

      // Assess
      expect(result.statusCode).toBe(201);
      expect(jsonOf(result)).toMatchObject({ title: 'Grüße' });
    });

    it.each([
      {
        title: 'accepts application/merge-patch+json on a merge-patch route',
        contentType: 'application/merge-patch+json',
      },
      {
        title: 'accepts application/json as an alias on a merge-patch route',
        contentType: 'application/json',
      },
    ])('$title', async ({ contentType }) => {
      // Act
      const result = await updateNote('{"title":"Renamed"}', contentType);

      // Assess
      expect(result.statusCode).toBe(200);
      expect(jsonOf(result)).toEqual({ id: noteId, title: 'Renamed' });
    });

    it('answers 204 without a body or content type', async () => {
      // Act
      const result = await send({
        routeKey: 'DELETE /notes/{note_id}',
        rawPath: `/notes/${noteId}`,
        pathParameters: { note_id: noteId },
      });

      // Assess
      expect(result.statusCode).toBe(204);
      expect(result.body).toBeUndefined();
      expect(result.headers).not.toHaveProperty('content-type');
    });
  });

  describe('when the body cannot be read', () => {
    it.each([
      { title: 'answers 400 invalid-json for a syntax error', body: '{"title": "Hello",}' },
      { title: 'answers 400 invalid-json for a truncated payload', body: '{"title": "Hel' },
      { title: 'answers 400 invalid-json for a bare word', body: 'hello' },
    ])('$title', async ({ body }) => {
      // Act
      const result = await createNote(body);

      // Assess
      expect(result.statusCode).toBe(400);
      expect(result.headers['content-type']).toBe('application/problem+json');
      expect(jsonOf(result)).toMatchObject({
        type: problemType('invalid-json'),
        status: 400,
        instance: '/notes',
      });
    });

    it.each([
      { title: 'answers 415 for text/plain', contentType: 'text/plain' },
      { title: 'answers 415 for form data', contentType: 'application/x-www-form-urlencoded' },
      { title: 'answers 415 for merge-patch on a create', contentType: 'application/merge-patch+json' },
      { title: 'answers 415 when no content type is sent', contentType: '' },
    ])('$title', async ({ contentType }) => {
      // Act
      const result = await createNote('{"title":"Hello"}', contentType);

      // Assess
      expect(result.statusCode).toBe(415);
      expect(result.headers['content-type']).toBe('application/problem+json');
      expect(result.headers['accept-post']).toBe('application/json');
      expect(jsonOf(result)).toMatchObject({ type: problemType('unsupported-media-type'), status: 415 });
    });

    it('answers 413 payload-too-large for a body over 1 MiB, as on Lambda behind API Gateway', async () => {
      // Act
      const result = await createNote(JSON.stringify({ title: 'x'.repeat(1024 * 1024) }));

      // Assess
      expect(result.statusCode).toBe(413);
      expect(jsonOf(result)).toMatchObject({ type: problemType('payload-too-large'), status: 413 });
    });

    it('names both accepted media types when a merge patch has the wrong one', async () => {
      // Act
      const result = await updateNote('{"title":"Renamed"}', 'text/plain');

      // Assess
      expect(result.statusCode).toBe(415);
      expect(result.headers['accept-patch']).toBe('application/merge-patch+json, application/json');
    });
  });

  describe('when the input breaks the rules', () => {
    it.each([
      { title: 'answers a JSON array body as 422 field-type-invalid at #', body: '[{"title":"Hello"}]' },
      { title: 'answers a JSON string body as 422 field-type-invalid at #', body: '"Hello"' },
      { title: 'answers a JSON null body as 422 field-type-invalid at #', body: 'null' },
    ])('$title', async ({ body }) => {
      // Act
      const result = await createNote(body);

      // Assess
      expect(result.statusCode).toBe(422);
      expect(result.headers['content-type']).toBe('application/problem+json');
      expect(jsonOf(result)).toMatchObject({
        type: problemType('field-type-invalid'),
        status: 422,
        errors: [expect.objectContaining({ type: problemType('field-type-invalid'), pointer: '#' })],
      });
    });

    it('validates a missing body as an empty object', async () => {
      // Act
      const result = await send({ routeKey: 'POST /notes' });

      // Assess
      expect(result.statusCode).toBe(422);
      expect(jsonOf(result)).toMatchObject({
        type: problemType('field-required'),
        errors: [expect.objectContaining({ pointer: '#/title' })],
      });
    });

    it('answers a wrong field type with its pointer', async () => {
      // Act
      const result = await createNote('{"title":"Hello","count":1.5}');

      // Assess
      expect(result.statusCode).toBe(422);
      expect(jsonOf(result)).toMatchObject({
        type: problemType('field-type-invalid'),
        errors: [expect.objectContaining({ pointer: '#/count', title: 'Field type invalid' })],
      });
    });

    it('answers a blank string as field-required', async () => {
      // Act
      const result = await updateNote('{"title":"  "}', 'application/merge-patch+json');

      // Assess
      expect(result.statusCode).toBe(422);
      expect(jsonOf(result)).toMatchObject({
        type: problemType('field-required'),
        errors: [expect.objectContaining({ pointer: '#/title' })],
      });
    });

    it.each([
      {
        title: 'answers a literal comma in an array parameter as 422',
        query: 'target_ids=a,b',
        parameter: 'target_ids',
      },
      {
        title: 'answers a repeated singular parameter as 422',
        query: 'mode=draft&mode=final',
        parameter: 'mode',
      },
      {
        title: 'answers an unsupported enum value in the query as 422',
        query: 'mode=other',
        parameter: 'mode',
      },
    ])('$title', async ({ query, parameter }) => {
      // Act
      const result = await send({
        routeKey: 'POST /notes',
        rawQueryString: query,
        body: '{"title":"Hello"}',
        contentType: 'application/json',
      });

      // Assess
      expect(result.statusCode).toBe(422);
      expect(jsonOf(result)).toMatchObject({
        type: problemType('validation-failed'),
        errors: [expect.objectContaining({ parameter })],
      });
      expect(seen).toEqual([]);
    });

    it('answers a malformed id in the path as 404 not-found', async () => {
      // Act
      const result = await send({
        routeKey: 'PATCH /notes/{note_id}',
        rawPath: '/notes/not-a-uuid',
        pathParameters: { note_id: 'not-a-uuid' },
        body: '{"title":"Renamed"}',
        contentType: 'application/json',
      });

      // Assess
      expect(result.statusCode).toBe(404);
      expect(jsonOf(result)).toMatchObject({ type: problemType('not-found'), title: 'Resource not found' });
    });
  });

  describe('request and correlation ids', () => {
    it('sets a fresh request-id and uses it as correlation-id when none is sent', async () => {
      // Act
      const first = await createNote('{"title":"Hello"}');
      const second = await createNote('{"title":"Hello"}');

      // Assess
      expect(first.headers['request-id']).toMatch(uuidPattern);
      expect(second.headers['request-id']).not.toBe(first.headers['request-id']);
      expect(first.headers['correlation-id']).toBe(first.headers['request-id']);
    });

    it.each([
      { title: 'echoes an incoming correlation-id', name: 'correlation-id' },
      { title: 'echoes a correlation-id sent in another case', name: 'Correlation-ID' },
      { title: 'echoes an incoming x-correlation-id', name: 'x-correlation-id' },
    ])('$title', async ({ name }) => {
      // Act
      const result = await send({
        routeKey: 'POST /notes',
        body: '{"title":"Hello"}',
        contentType: 'application/json',
        headers: { [name]: 'corr-42' },
      });

      // Assess
      expect(result.headers['correlation-id']).toBe('corr-42');
      expect(result.headers['request-id']).toMatch(uuidPattern);
      expect(seen[0]).toMatchObject({
        ctx: { correlationId: 'corr-42', requestId: result.headers['request-id'] },
      });
    });

    it('uses the request-id as correlation-id when an empty correlation-id is sent', async () => {
      // Act
      const result = await send({
        routeKey: 'POST /notes',
        body: '{"title":"Hello"}',
        contentType: 'application/json',
        headers: { 'correlation-id': '' },
      });

      // Assess
      expect(result.statusCode).toBe(201);
      expect(result.headers['correlation-id']).toBe(result.headers['request-id']);
    });

    it('sets both ids on a problem answer too', async () => {
      // Act
      const result = await send({
        routeKey: 'POST /notes',
        body: '{',
        contentType: 'application/json',
        headers: { 'correlation-id': 'corr-7' },
      });

      // Assess
      expect(result.statusCode).toBe(400);
      expect(result.headers['request-id']).toMatch(uuidPattern);
      expect(result.headers['correlation-id']).toBe('corr-7');
    });
  });

  describe('when something else goes wrong', () => {
    it('answers an unexpected error as 500 internal-error without leaking its message', async () => {
      // Prepare
      const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

      // Act
      const result = await send({ routeKey: 'GET /notes/fail' });

      // Assess
      expect(result.statusCode).toBe(500);
      expect(result.headers['content-type']).toBe('application/problem+json');
      expect(result.headers['request-id']).toMatch(uuidPattern);
      expect(jsonOf(result)).toMatchObject({ type: problemType('internal-error'), status: 500 });
      expect(result.body).not.toContain('hunter2');
      expect(result.body).not.toContain('db-internal');
      expect(String(log.mock.calls[0]?.[0])).toContain(result.headers['request-id']);
    });

    it('answers an unknown route key as 404 not-found', async () => {
      // Act
      const result = await send({ routeKey: 'GET /elsewhere', headers: { 'correlation-id': 'corr-9' } });

      // Assess
      expect(result.statusCode).toBe(404);
      expect(result.headers['content-type']).toBe('application/problem+json');
      expect(result.headers['correlation-id']).toBe('corr-9');
      expect(jsonOf(result)).toMatchObject({
        type: problemType('not-found'),
        status: 404,
        instance: '/elsewhere',
      });
    });
  });

  describe('authenticators', () => {
    it('refuses to build a group whose bearer route would have no authenticator', () => {
      const bearerRoute = { ...testRoutes[0], operationId: 'notes.secret', auth: 'bearer' } as const;
      expect(() => createKernelHandler([bearerRoute], { 'notes.secret': async () => ({}) })).toThrow(
        'notes.secret: no authenticator for auth bearer',
      );
    });
  });
});
