/**
 * Runs Lambda-shaped API handlers inside node:http: each request becomes the API Gateway HTTP
 * API (payload 2.0) event that API Gateway would send, and the handler's result becomes the
 * response. The local stack serves the whole route table this way; the Fargate container uses
 * the same adapter. Handler code cannot tell where it runs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import { functionTimeoutSeconds } from '../aws/client-deadlines.ts';
import { countingDynamoCalls } from '../data/call-cost.ts';
import type { ApiEvent, ApiHandler, ApiResult } from '../http/api-gateway.ts';
import { payloadTooLarge, requestLimits } from '../http/limits.ts';
import { ProblemError } from '../http/problem.ts';
import { problemResult } from '../http/responses.ts';
import type { RouteMatch } from '../routes/route-matcher.ts';
import { BodyAbortedError, readBodyWithin } from './request-body.ts';

/** The body, or 413 once it grows past the limit (a chunked body declares no length up front). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  try {
    const body = await readBodyWithin(req, requestLimits.bodyBytes);
    if (!body) throw payloadTooLarge();
    return body;
  } catch (error) {
    if (error instanceof BodyAbortedError) throw new ProblemError('bad-request', { detail: error.message });
    throw error;
  }
}

export function toApiEvent(
  req: IncomingMessage,
  body: Buffer,
  match: RouteMatch,
  sourceIp: string,
): ApiEvent {
  const url = req.url ?? '/';
  const queryIndex = url.indexOf('?');
  const rawPath = queryIndex === -1 ? url : url.slice(0, queryIndex);
  const rawQueryString = queryIndex === -1 ? '' : url.slice(queryIndex + 1);
  // Repeated headers are joined with a comma, as API Gateway does. `req.headers` would keep only
  // the first of some (Authorization among them), hiding an ambiguous credential.
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values !== undefined) headers[name.toLowerCase()] = values.join(',');
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${match.route.method} ${match.route.path}`,
    rawPath,
    rawQueryString,
    headers,
    ...(Object.keys(match.pathParameters).length ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: `${match.route.method} ${match.route.path}`,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body.length ? { body: body.toString('utf8'), isBase64Encoded: false } : { isBase64Encoded: false }),
  };
}

/** A Lambda context with the deployed functions' timeout, so handlers see the same deadline. */
export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + functionTimeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

export function writeResult(res: ServerResponse, result: ApiResult): void {
  const body =
    result.body === undefined
      ? undefined
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  res.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (body) res.setHeader('content-length', body.length);
  res.end(body);
}

/**
 * Invoke a handler as Lambda would. With FSM_REPORT_DYNAMODB_CALLS=true (benchmarks, local
 * debugging) the answer carries `x-dynamodb-calls: GetItem=1` listing what the request cost, and
 * `x-dynamodb-capacity: read=0.5, write=0`, the capacity units DynamoDB reported for them, and
 * `x-dynamodb-ms: 3.2`, how long the request waited for DynamoDB (parallel calls counted once).
 */
export async function invoke(handler: ApiHandler, event: ApiEvent, functionName: string): Promise<ApiResult> {
  if (process.env.FSM_REPORT_DYNAMODB_CALLS !== 'true') return handler(event, lambdaContext(functionName));
  const { result, calls, readUnits, writeUnits, waitMs } = await countingDynamoCalls(() =>
    handler(event, lambdaContext(functionName)),
  );
  result.headers['x-dynamodb-calls'] =
    [...calls].map(([name, count]) => `${name}=${count}`).join(', ') || 'none';
  result.headers['x-dynamodb-capacity'] = `read=${readUnits}, write=${writeUnits}`;
  result.headers['x-dynamodb-ms'] = waitMs.toFixed(1);
  return result;
}

export function problemOnly(error: ProblemError, path: string): ApiResult {
  const result = problemResult(error, path);
  const requestId = randomUUID();
  Object.assign(result.headers, { 'request-id': requestId, 'correlation-id': requestId });
  return result;
}
