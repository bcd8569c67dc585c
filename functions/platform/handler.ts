/**
 * Platform: health, the OpenAPI document, and the `$default` route's answer for paths and
 * methods the table does not serve (problem-document 404 and 405).
 */
import { randomUUID } from 'node:crypto';
import type { ApiEvent, ApiResult } from '../../shared/http/api-gateway.ts';
import { createKernelHandler, usableCorrelationId } from '../../shared/http/operation-kernel.ts';
import { ProblemError, problemTypeUri } from '../../shared/http/problem.ts';
import { problemTypeDoc } from '../../shared/http/problem-docs.ts';
import { problemResult } from '../../shared/http/responses.ts';
import { observedHandler } from '../../shared/observability/lambda-observability.ts';
import { apiInfo } from '../../shared/openapi/api-info.ts';
import {
  referenceAsset,
  referencePageHeaders,
  referencePageHtml,
} from '../../shared/openapi/reference-page.ts';
import { platformRoutes } from '../../shared/routes/groups/platform.routes.ts';

// The OpenAPI document and the route matcher load the whole route table, every group's schemas
// (tens of ms of a cold start): they are imported by the requests that need them, so health
// checks and problem-type pages start without them.

// No bearer or admin routes: the kernel without authenticators (group-handler.ts).
export const handler = createKernelHandler(platformRoutes, {
  'platform.health': async () => ({ body: { status: 'ok' as const } }),
  'platform.openapi': async () => ({
    body: (await import('../../shared/openapi/openapi-document.ts')).openApiDocumentText(),
    contentType: 'application/json',
    headers: { 'cache-control': 'public, max-age=300' },
  }),
  'platform.reference-page': async () => ({
    body: referencePageHtml(apiInfo().title),
    contentType: 'text/html; charset=utf-8',
    headers: referencePageHeaders,
  }),
  'platform.reference-asset': async ({ params }) => {
    const asset = await referenceAsset(params.asset_name);
    return {
      body: asset.body,
      contentType: asset.contentType,
      headers: { ...referencePageHeaders, 'cache-control': 'public, max-age=86400' },
    };
  },
  'platform.problem-type': async ({ params }) => {
    const doc = problemTypeDoc(params.problem_type, problemTypeUri(params.problem_type));
    if (!doc) throw new ProblemError('not-found', { detail: `No problem type ${params.problem_type}.` });
    return { body: doc, headers: { 'cache-control': 'public, max-age=3600' } };
  },
});

/** API Gateway's `$default` route: only requests no route matched arrive here. */
export const fallbackHandler = observedHandler(async (event: ApiEvent): Promise<ApiResult> => {
  const requestId = randomUUID();
  const correlationId = usableCorrelationId(event.headers?.['correlation-id']) ?? requestId;
  let problem: ProblemError;
  try {
    const { matchRouteOrThrow } = await import('../../shared/routes/route-matcher.ts');
    matchRouteOrThrow(event.requestContext.http.method, event.rawPath);
    problem = new ProblemError('not-found', { detail: 'No route serves this request.' });
  } catch (error) {
    problem = error instanceof ProblemError ? error : new ProblemError('internal-error');
  }
  const result = problemResult(problem, event.rawPath);
  Object.assign(result.headers, { 'request-id': requestId, 'correlation-id': correlationId });
  return result;
});
