/**
 * The HTTP kernel every operation group runs in: one Lambda handler per group, built from the
 * group's routes and an implementation per operation id (a missing implementation is a type
 * error). The pipeline, as middy middlewares:
 *   1. request ids: `request-id` (new) and `correlation-id` (kept from the caller) on every answer
 *   2. authentication: token, principal, workspace state, grants (bearer routes); an admin-realm
 *      token without grants (admin routes)
 *   3. input: path, query (from rawQueryString) and body validated against the route's schemas
 *   4. the operation, whose result becomes the route's success status
 * Any error on the way becomes an RFC 9457 problem document (error-mapper.ts).
 */
import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import type { AdminCaller, AdminContext } from '../auth/admin-authenticate.ts';
import { config } from '../config.ts';
import { activeCallCost, type CallCost, callCount, inRequestCallCost } from '../data/call-cost.ts';
import { lambdaObservability } from '../observability/lambda-observability.ts';
import { enterLogContext, inRequestLogContext, type LogContext, logger } from '../observability/logger.ts';
import { recordRequest } from '../observability/metrics.ts';
import { toPointer } from '../schema/field-error.ts';
import { type ApiEvent, type ApiHandler, type ApiResult, bodyText, header } from './api-gateway.ts';
import { inSchemaOrder } from './canonical-order.ts';
import { conditionalResult } from './conditional-result.ts';
import { toProblemError } from './error-mapper.ts';
import { payloadTooLarge, requestLimits } from './limits.ts';
import { ProblemError, validationProblem } from './problem.ts';
import { queryObjectFor } from './query-input.ts';
import { parseQueryString } from './query-string.ts';
import type { AuthenticatedContext, Principal, RequestContext } from './request-context.ts';
import { jsonResult, type OperationResult, problemResult } from './responses.ts';
import type { RouteSpec } from './route-spec.ts';
import { boundedValidationProblem, parseOrThrow } from './validation.ts';

type Output<R, K extends string, Default> = R extends { readonly [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : Default;

export interface OperationInput<R extends RouteSpec> {
  params: Output<R, 'params', Record<string, never>>;
  query: Output<R, 'query', Record<string, never>>;
  body: Output<R, 'body', undefined>;
  ctx: R extends { readonly auth: 'bearer' }
    ? AuthenticatedContext
    : R extends { readonly auth: 'admin' }
      ? AdminContext
      : RequestContext;
  event: ApiEvent;
  /** Routes with auth `device`: what the group's `authenticateDevice` returned. */
  device: unknown;
}

export type OperationHandler<R extends RouteSpec> = (input: OperationInput<R>) => Promise<OperationResult>;

export type GroupImplementation<R extends RouteSpec> = {
  [K in R['operationId']]: OperationHandler<Extract<R, { operationId: K }>>;
};

interface KernelState {
  /** performance.now() when the request entered the kernel, for its log line. */
  startedAt: number;
  /** The DynamoDB calls made for this request, with their capacity units (log line, metrics). */
  callCost?: CallCost;
  requestId: string;
  correlationId: string;
  route?: RouteSpec;
  principal?: Principal;
  admin?: AdminCaller;
  /** What `authenticateDevice` found (routes with auth `device`). */
  device?: unknown;
  input?: { params: unknown; query: unknown; body: unknown };
}

/** The pipeline's state travels on the Lambda context, which middy hands to the handler too. */
interface KernelContext extends Context {
  fsm: KernelState;
}

type KernelRequest = middy.Request<ApiEvent, ApiResult, Error, KernelContext>;
type Middleware = middy.MiddlewareObj<ApiEvent, ApiResult, Error, KernelContext>;

const jsonTypes = ['application/json'];
const mergePatchTypes = ['application/merge-patch+json', 'application/json'];

function idHeaders(state: KernelState): Record<string, string> {
  return { 'request-id': state.requestId, 'correlation-id': state.correlationId };
}

function parseBodyOrThrow(event: ApiEvent, route: RouteSpec): unknown {
  const text = bodyText(event);
  if (text === undefined || text.trim() === '') return {};
  if (Buffer.byteLength(text) > requestLimits.bodyBytes) throw payloadTooLarge();
  const mediaType = (header(event, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const accepted = route.mergePatch ? mergePatchTypes : jsonTypes;
  if (!accepted.includes(mediaType)) {
    throw new ProblemError('unsupported-media-type', {
      detail: `Send the body as ${accepted.join(' or ')}.`,
      headers: { [route.mergePatch ? 'accept-patch' : 'accept-post']: accepted.join(', ') },
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ProblemError('invalid-json', {
      detail: `The body is not valid JSON: ${(error as Error).message}`,
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationProblem([
      { type: 'field-type-invalid', pointer: '#', detail: 'the body must be a JSON object' },
    ]);
  }
  return body;
}

function parseInputOrThrow(event: ApiEvent, route: RouteSpec) {
  let params: unknown = {};
  if (route.params) {
    const result = route.params.safeParse(event.pathParameters ?? {});
    // A malformed id names no record: answer as for any unknown id.
    if (!result.success) throw new ProblemError('not-found', { detail: 'No resource with this id exists.' });
    params = result.data;
  }
  // Pages for people (the reference page and its assets) take whatever their scripts append.
  if (route.published !== false) {
    const { input, errors } = queryObjectFor(route.query, parseQueryString(event.rawQueryString));
    if (errors.length > 0) throw validationProblem(errors);
    const query = route.query ? parseOrThrow(route.query, input, 'query') : {};
    const body = route.body ? parseOrThrow(route.body, parseBodyOrThrow(event, route), 'body') : undefined;
    if (!route.body) refuseUnexpectedBody(event);
    return { params, query, body };
  }
  return { params, query: {}, body: undefined };
}

/**
 * An operation without a body (DELETE, bodyless actions) refuses one that says something: the
 * caller believes it asked for more than the operation does. Nothing, whitespace, `{}` and
 * `null` say nothing (clients send them for "no body").
 */
function refuseUnexpectedBody(event: ApiEvent): void {
  const text = bodyText(event)?.trim();
  if (!text) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) {
    return;
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    throw boundedValidationProblem(
      Object.keys(body).map((key) => ({
        type: 'field-unknown',
        pointer: toPointer([key]),
        detail: 'is not a field of this operation: it takes no body',
      })),
    );
  }
  throw validationProblem([{ type: 'field-invalid', pointer: '#', detail: 'this operation takes no body' }]);
}

/**
 * One line per request at info: what an operator scans first (method, route template, status,
 * duration, and what it cost DynamoDB when it called it); request-id, correlation-id and
 * operation id come from the log context. And its metrics (requests, errors, latency, DynamoDB
 * capacity units by group, operation and status class; metrics.ts), for a request a route of
 * the table served.
 */
function logRequest(event: ApiEvent, state: KernelState, status: number | undefined): void {
  const ms = Math.round((performance.now() - state.startedAt) * 10) / 10;
  const cost = state.callCost;
  const calls = cost ? callCount(cost) : 0;
  logger.info('request', {
    method: event.requestContext?.http?.method ?? event.routeKey.split(' ')[0],
    route: state.route?.path ?? event.rawPath,
    status,
    ms,
    ...(cost && calls > 0
      ? { dynamodb: { calls, readUnits: cost.readUnits, writeUnits: cost.writeUnits } }
      : {}),
  });
  if (state.route && status !== undefined) {
    recordRequest({
      group: state.route.group,
      operation: state.route.operationId,
      status,
      ms,
      readUnits: cost?.readUnits ?? 0,
      writeUnits: cost?.writeUnits ?? 0,
    });
  }
}

/** How long before the function's timeout a still-running operation gives up with a 503. */
const timeoutEarlyMs = 1_000;

/**
 * A caller's correlation id is echoed in headers and stored in events and audit entries, so
 * only a reasonable one is kept: 1..200 visible ASCII characters. Anything else is replaced.
 */
export function usableCorrelationId(value: string | undefined): string | undefined {
  return value && /^[\x21-\x7e]{1,200}$/.test(value) ? value : undefined;
}

export interface KernelOptions {
  /**
   * Routes with auth `device`: checks the request's device credential before its input is
   * validated (a stranger learns nothing from 422s) and hands the operation what it found.
   */
  authenticateDevice?: (event: ApiEvent) => Promise<unknown>;
  /** Routes with auth `bearer`: token → principal → workspace → grants (group-handler.ts). */
  authenticateBearer?: (authorization: string | undefined, route: RouteSpec) => Promise<Principal>;
  /** Routes with auth `admin`: an admin-realm token (group-handler.ts). */
  authenticateAdmin?: (authorization: string | undefined) => Promise<AdminCaller>;
}

/**
 * The kernel with the authenticators it is given, and no others: it imports none itself, so a
 * group without bearer or admin routes (platform: health, the document, the fallback) bundles
 * neither the token verifier nor the directory store and its DynamoDB client. Groups use
 * `createGroupHandler` (group-handler.ts), which passes both.
 */
export function createKernelHandler<R extends RouteSpec>(
  routes: readonly R[],
  implementation: GroupImplementation<R>,
  options: KernelOptions = {},
): ApiHandler {
  for (const route of routes) {
    const needed =
      route.auth === 'bearer'
        ? options.authenticateBearer
        : route.auth === 'admin'
          ? options.authenticateAdmin
          : route.auth === 'device'
            ? options.authenticateDevice
            : true;
    if (!needed) throw new Error(`${route.operationId}: no authenticator for auth ${route.auth}`);
  }
  const byRouteKey = new Map<string, R>(routes.map((route) => [`${route.method} ${route.path}`, route]));
  const operations = implementation as unknown as Record<string, OperationHandler<RouteSpec>>;

  const kernel: Middleware = {
    before: (request: KernelRequest) => {
      const requestId = randomUUID();
      const correlationId =
        usableCorrelationId(
          header(request.event, 'correlation-id') || header(request.event, 'x-correlation-id'),
        ) ?? requestId;
      request.context.fsm = {
        startedAt: performance.now(),
        requestId,
        correlationId,
        callCost: activeCallCost(),
      };
      const logContext: LogContext = { requestId, correlationId };
      enterLogContext(logContext);
      const route = byRouteKey.get(request.event.routeKey);
      if (!route) throw new ProblemError('not-found', { detail: 'No such route.' });
      request.context.fsm.route = route;
      logContext.operationId = route.operationId;
    },
    after: (request: KernelRequest) => {
      if (request.response) Object.assign(request.response.headers, idHeaders(request.context.fsm));
      logRequest(request.event, request.context.fsm, request.response?.statusCode);
    },
    onError: (request: KernelRequest) => {
      request.context.fsm ??= { startedAt: performance.now(), requestId: randomUUID(), correlationId: '' };
      const state = request.context.fsm;
      state.correlationId ||= state.requestId;
      const problem = toProblemError(request.error, {
        requestId: state.requestId,
        correlationId: state.correlationId,
        operationId: state.route?.operationId,
      });
      const result = problemResult(problem, request.event.rawPath);
      Object.assign(result.headers, idHeaders(state));
      request.response = result;
      logRequest(request.event, state, result.statusCode);
    },
  };

  const authentication: Middleware = {
    before: async (request: KernelRequest) => {
      const state = request.context.fsm;
      // Each authenticator is there: checked per route when the handler was created.
      if (state.route?.auth === 'bearer') {
        state.principal = await options.authenticateBearer?.(
          header(request.event, 'authorization'),
          state.route,
        );
      } else if (state.route?.auth === 'admin') {
        state.admin = await options.authenticateAdmin?.(header(request.event, 'authorization'));
      } else if (state.route?.auth === 'device') {
        state.device = await options.authenticateDevice?.(request.event);
      }
    },
  };

  const input: Middleware = {
    before: (request: KernelRequest) => {
      const state = request.context.fsm;
      if (state.route) state.input = parseInputOrThrow(request.event, state.route);
    },
  };

  const handler = middy<ApiEvent, ApiResult, Error, KernelContext>({
    // The function's own deadline: an operation still running this close to the Lambda timeout
    // (the local server gives handlers the same one) answers 503 instead of being cut off
    // without a response. Store calls have shorter deadlines of their own.
    timeoutEarlyInMillis: timeoutEarlyMs,
    timeoutEarlyResponse: () => {
      throw new ProblemError('service-unavailable', {
        detail: 'The request did not complete in time; retry shortly.',
        headers: { 'retry-after': '1' },
      });
    },
  })
    .use(lambdaObservability() as Middleware[])
    .use(kernel)
    .use(authentication)
    .use(input)
    .handler(async (event: ApiEvent, context: KernelContext) => {
      const state = context.fsm;
      if (!state.route || !state.input) throw new Error('kernel state missing');
      const route = state.route;
      const ctx: RequestContext | AuthenticatedContext | AdminContext = {
        requestId: state.requestId,
        correlationId: state.correlationId,
        baseUrl: config().baseUrl,
        ...(state.principal ? { principal: state.principal, workspaceId: state.principal.workspaceId } : {}),
        ...(state.admin ? { admin: state.admin } : {}),
      };
      const operation = operations[route.operationId];
      if (!operation) throw new Error(`no implementation for ${route.operationId}`);
      const result = await operation({ ...state.input, ctx, event, device: state.device } as never);
      const plain = toApiResult(route, result, ctx.baseUrl);
      const answer = route.success.conditional ? conditionalResult(event, plain) : plain;
      // A list total counted only up to the read bound (shared/data/list-read.ts) is an estimate.
      if (activeCallCost()?.totalEstimated) {
        answer.headers = { ...answer.headers, [totalEstimatedHeader]: 'true' };
      }
      return answer;
    }) as unknown as ApiHandler;
  // Each request in a log context and a DynamoDB cost scope of its own, which the kernel fills
  // in: nothing of one request is left in its caller's context for the next.
  return (event, context) => inRequestLogContext(() => inRequestCallCost(() => handler(event, context)));
}

/** Says that `page.total_elements` is an estimate (the read bound cut its count). */
export const totalEstimatedHeader = 'x-total-elements-estimated';

function toApiResult(route: RouteSpec, result: OperationResult, baseUrl: string): ApiResult {
  const status = result.status ?? route.success.status;
  const headers: Record<string, string> = { ...result.headers };
  if (result.location) headers.location = `${baseUrl}${result.location}`;
  if (status === 204 || result.body === undefined) return { statusCode: status, headers };
  if (result.contentType && typeof result.body === 'string') {
    return {
      statusCode: status,
      headers: { 'content-type': result.contentType, ...headers },
      body: result.body,
    };
  }
  const body = route.success.schema ? inSchemaOrder(result.body, route.success.schema) : result.body;
  return jsonResult(status, body, headers);
}
