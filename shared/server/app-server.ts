/**
 * One node:http server for everything the local stack serves on one origin: the identity
 * provider under /realms/*, and every route of the route table through its group's Lambda
 * handler. Unknown paths and methods get the same problem documents as API Gateway's
 * `$default` route.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ApiHandler } from '../http/api-gateway.ts';
import { toProblemError } from '../http/error-mapper.ts';
import { usableCorrelationId } from '../http/operation-kernel.ts';
import { ProblemError } from '../http/problem.ts';
import { logger } from '../observability/logger.ts';
import type { EventStreamEndpoint } from '../realtime/event-stream.ts';
import { readinessPath } from '../routes/groups/readiness.routes.ts';
import { matchRouteOrThrow } from '../routes/route-matcher.ts';
import type { OperationGroup } from '../routes/route-table.ts';
import { invoke, problemOnly, readBody, toApiEvent, writeResult } from './lambda-http-adapter.ts';
import { answerReadiness, type ReadinessReport } from './readiness.ts';
import {
  answerClientErrors,
  keepConnectionsUsable,
  limitedServerOptions,
  requestLimitProblem,
} from './request-limits.ts';

export interface AppServerOptions {
  groupHandlers: Record<OperationGroup, () => Promise<{ handler: ApiHandler }>>;
  identity?: { handle(req: IncomingMessage, res: ServerResponse): Promise<void> };
  /** The server-sent event stream (shared/realtime/event-stream.ts), where this server holds it. */
  eventStream?: EventStreamEndpoint;
  /** `GET /health/ready` (readiness.ts), where this server answers it. */
  readiness?: () => Promise<ReadinessReport>;
}

export function createAppServer(options: AppServerOptions): Server {
  const loaded = new Map<string, Promise<ApiHandler>>();
  const handlerOf = (group: OperationGroup) => {
    let handler = loaded.get(group);
    if (!handler) {
      handler = options.groupHandlers[group]().then((module) => module.handler);
      loaded.set(group, handler);
    }
    return handler;
  };

  const server = createServer(limitedServerOptions, async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    try {
      const limit = requestLimitProblem(req);
      if (limit) throw limit;
      if (options.identity && (path === '/realms' || path.startsWith('/realms/'))) {
        const startedAt = performance.now();
        res.once('finish', () =>
          logger.info('request', {
            method: req.method,
            route: path,
            status: res.statusCode,
            ms: Math.round((performance.now() - startedAt) * 10) / 10,
          }),
        );
        await options.identity.handle(req, res);
        return;
      }
      if (options.readiness && path === readinessPath) {
        await answerReadiness(req, res, options.readiness);
        return;
      }
      if (options.eventStream?.matches(path)) {
        await options.eventStream.handle(req, res);
        return;
      }
      const match = matchRouteOrThrow(req.method ?? 'GET', path);
      const body = await readBody(req);
      const event = toApiEvent(req, body, match, req.socket.remoteAddress ?? '127.0.0.1');
      const result = await invoke(await handlerOf(match.route.group), event, `fsm-${match.route.group}`);
      writeResult(res, result);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const problem = error instanceof ProblemError ? error : toProblemError(error, { path });
      const result = problemOnly(problem, path);
      const correlationId = usableCorrelationId(
        (req.headers['correlation-id'] ?? req.headers['x-correlation-id']) as string | undefined,
      );
      if (correlationId) result.headers['correlation-id'] = correlationId;
      writeResult(res, result);
      logger.info('request', {
        method: req.method,
        route: path,
        status: result.statusCode,
        requestId: result.headers['request-id'],
        correlationId: result.headers['correlation-id'],
      });
    }
  });
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  keepConnectionsUsable(server);
  return server;
}
