/**
 * GET /api/v2/events/stream on node:http (the container, and `npm start`): authenticate like
 * every API route, take a slot of the caller's identity (429 when it holds 5), send the headers
 * at once, replay what the client missed from the outbox, then go live (stream-hub.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import { authenticateOrThrow } from '../auth/authenticate.ts';
import { eventsAfter } from '../data/outbox.ts';
import { toProblemError } from '../http/error-mapper.ts';
import { usableCorrelationId } from '../http/operation-kernel.ts';
import { ProblemError, validationProblem } from '../http/problem.ts';
import { queryObjectFor } from '../http/query-input.ts';
import { parseQueryString } from '../http/query-string.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import { parseOrThrow } from '../http/validation.ts';
import { logger } from '../observability/logger.ts';
import { eventStreamPath, StreamQuery, streamRoutes } from '../routes/groups/stream.routes.ts';
import { problemOnly, writeResult } from '../server/lambda-http-adapter.ts';
import { headerValue, headerValues } from '../server/raw-headers.ts';
import { maxConnectionsPerIdentity, type StreamHub } from './stream-hub.ts';
import { controlEnvelope, streamMessageOf } from './stream-kinds.ts';

const route = streamRoutes[0] as RouteSpec;

/** A full node's Retry-After: about the time a new task takes to start and pass its checks. */
export const fullRetryAfterSeconds = 10;

export interface EventStreamEndpoint {
  matches(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function eventStreamEndpoint(hub: StreamHub): EventStreamEndpoint {
  return {
    matches: (path) => path === eventStreamPath,
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      // The same correlation headers as every other answer, on the stream and on its refusals.
      const requestId = randomUUID();
      const correlationId =
        usableCorrelationId(headerValue(req, 'correlation-id') ?? headerValue(req, 'x-correlation-id')) ??
        requestId;
      const ids = { 'request-id': requestId, 'correlation-id': correlationId };
      const startedAt = performance.now();
      const logAnswer = (status: number) =>
        logger.info('request', {
          method: req.method,
          route: eventStreamPath,
          status,
          ms: Math.round((performance.now() - startedAt) * 10) / 10,
          requestId,
          correlationId,
        });
      let admitted: Parameters<StreamHub['releaseSlot']>[0] | undefined;
      try {
        if ((req.method ?? 'GET') !== 'GET') {
          throw new ProblemError('method-not-allowed', {
            detail: 'The event stream is read with GET.',
            headers: { allow: 'GET' },
          });
        }
        // Repeated Authorization headers are joined, so an ambiguous credential is refused.
        const authorization = headerValues(req, 'authorization').join(',') || undefined;
        const principal = await authenticateOrThrow(authorization, route);
        const rawQuery = (req.url ?? '').includes('?')
          ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1)
          : '';
        const { input, errors } = queryObjectFor(StreamQuery, parseQueryString(rawQuery));
        if (errors.length > 0) throw validationProblem(errors);
        const query = parseOrThrow(StreamQuery, input, 'query');
        const lastEventId = query.lastEventId ?? headerValue(req, 'last-event-id');
        const refused = hub.admit(principal);
        if (refused === 'node') {
          // Full: refused before anything is held for it, so the connections held keep their room.
          throw new ProblemError('service-unavailable', {
            detail:
              `This node holds its maximum of ${hub.capacity} event-stream connections; reconnect ` +
              'after Retry-After (the load balancer may pick another node, and more start as the count grows).',
            headers: { 'retry-after': String(fullRetryAfterSeconds) },
          });
        }
        if (refused === 'identity') {
          throw new ProblemError('too-many-requests', {
            detail: `At most ${maxConnectionsPerIdentity} concurrent event-stream connections per user or service account.`,
            headers: { 'retry-after': '5' },
          });
        }
        admitted = principal;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
          ...ids,
        });
        res.flushHeaders();
        logAnswer(200);
        res.write('retry: 1000\n\n');
        // The request lives as long as the connection, and Node keeps its headers on it (the
        // token among them); nothing reads them any more, so the subscriber keeps only its
        // identity, filters, cursor and socket.
        req.headers = {};
        req.rawHeaders = [];
        const connection = hub.attach(principal, res);
        admitted = undefined; // the connection owns the slot now
        if (lastEventId) {
          const replay = await eventsAfter(principal.workspaceId, lastEventId);
          if (!replay.known || !replay.complete) {
            hub.write(
              connection,
              controlEnvelope('RESYNC_REQUIRED:V1', principal.workspaceId, uuidv7()),
              false,
            );
          }
          if (replay.known && replay.complete) {
            const replayed = new Set<string>();
            connection.replayed = replayed;
            for (const event of replay.events) {
              replayed.add(event.id);
              const message = streamMessageOf(event);
              if (message?.visibleTo(principal)) hub.write(connection, message.envelope);
            }
          }
        }
        hub.release(connection);
      } catch (error) {
        if (admitted) hub.releaseSlot(admitted);
        if (res.headersSent) {
          res.end();
          return;
        }
        const problem =
          error instanceof ProblemError
            ? error
            : toProblemError(error, { path: url.pathname, requestId, correlationId });
        const result = problemOnly(problem, url.pathname);
        Object.assign(result.headers, ids);
        writeResult(res, result);
        logAnswer(result.statusCode);
      }
    },
  };
}
