/**
 * The Fargate container (lib/realtime.ts): one node:http server for the long-lived and
 * stateful endpoints that do not fit Lambda:
 *
 * - /realms/*: the identity provider;
 * - GET /api/v2/events/stream: the event stream, as `npm start` serves it (a StreamHub fed by a
 *   queue of this task's own on the fan-out topic; shared/realtime/, docs/event-stream.md);
 * - /health (liveness: answers while the process does) and /health/ready (readiness: the table,
 *   the work queues of FSM_READINESS_QUEUE_URLS and the signing keys; shared/server/readiness.ts),
 *   which the load balancer's target group checks.
 *
 * Environment: PORT, FSM_SIGNING_JWKS (from Secrets Manager), FSM_STREAM_TOPIC_ARN and
 * FSM_STREAM_QUEUE_PREFIX (lib/stream-fanout.ts) and the FSM_* of shared/config.ts. Without
 * the two stream variables the stream is not served (503), the identity provider still is.
 *
 * On SIGTERM: /health fails, the stream's connections are closed (clients reconnect through
 * the load balancer to another task, which replays from the outbox), the subscription is
 * removed (unsubscribe, delete the queue), then the process exits.
 */
import { createServer } from 'node:http';
import { config } from '../shared/config.ts';
import { tableIdentityDirectory } from '../shared/data/directory.store.ts';
import { accountService } from '../shared/domain/users/account.service.ts';
import { ProblemError } from '../shared/http/problem.ts';
import { createIdentityServer } from '../shared/identity/identity-server.ts';
import { oidcAdapterFactory } from '../shared/identity/oidc-storage.ts';
import { staticSigningKeyStore } from '../shared/identity/signing-keys.ts';
import { watchEventLoop } from '../shared/observability/event-loop-watch.ts';
import { logger } from '../shared/observability/logger.ts';
import { reportMemoryOnSignal } from '../shared/observability/memory-report.ts';
import { StreamHub } from '../shared/realtime/stream-hub.ts';
import { reportStreamMetrics } from '../shared/realtime/stream-metrics.ts';
import { startTaskStream } from '../shared/realtime/task-stream.ts';
import { readinessPath } from '../shared/routes/groups/readiness.routes.ts';
import { eventStreamPath } from '../shared/routes/groups/stream.routes.ts';
import { problemOnly, writeResult } from '../shared/server/lambda-http-adapter.ts';
import { answerReadiness, readinessCheck } from '../shared/server/readiness.ts';
import { readinessProbes } from '../shared/server/readiness-probes.ts';
import {
  answerClientErrors,
  keepConnectionsUsable,
  limitedServerOptions,
  requestLimitProblem,
} from '../shared/server/request-limits.ts';

const port = Number(process.env.PORT ?? 8080);
const keys = staticSigningKeyStore(process.env.FSM_SIGNING_JWKS ?? '');
await keys.privateJwks();

const identity = createIdentityServer({
  authUrl: config().authUrl,
  audience: config().apiAudience,
  directory: tableIdentityDirectory,
  accounts: accountService,
  keys,
  adapterFactory: oidcAdapterFactory,
});

const hub = new StreamHub({
  timeScale: () => config().webhooks.timeScale,
  capacity: config().streamMaxConnections,
});
reportStreamMetrics(hub);

// Subscribed before listening: a task is healthy only once it receives the stream's events.
const stream = await startTaskStream({ hub, onQueueLost: () => void shutdown(1) });

const readiness = readinessCheck(
  readinessProbes({
    queueUrls: (process.env.FSM_READINESS_QUEUE_URLS ?? '').split(',').filter(Boolean),
    signingKeys: () => keys.privateJwks(),
  }),
);

let draining = false;
const server = createServer(limitedServerOptions, async (req, res) => {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  try {
    const limit = requestLimitProblem(req);
    if (limit) {
      const result = problemOnly(limit, path);
      writeResult(res, result);
      return;
    }
    if (path === '/health' || (draining && path === readinessPath)) {
      // While draining, fail the health check so the load balancer stops sending new work.
      res.writeHead(draining ? 503 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: draining ? 'draining' : 'ok' }));
      return;
    }
    if (path === readinessPath) {
      await answerReadiness(req, res, readiness);
      return;
    }
    if (path.startsWith('/realms/')) {
      await identity.handle(req, res);
      return;
    }
    if (path === eventStreamPath) {
      if (!stream || draining) {
        throw new ProblemError('service-unavailable', {
          detail: draining ? 'This node is stopping; reconnect.' : 'The event stream is not configured here.',
          headers: { 'retry-after': '1' },
        });
      }
      await stream.endpoint.handle(req, res);
      return;
    }
    writeResult(
      res,
      problemOnly(new ProblemError('not-found', { detail: `No route serves ${path}.` }), path),
    );
  } catch (error) {
    if (error instanceof ProblemError) {
      if (!res.headersSent) writeResult(res, problemOnly(error, path));
      return;
    }
    logger.error('container request failed', {
      path,
      error: error instanceof Error ? error.message : String(error),
    });
    if (!res.headersSent) writeResult(res, problemOnly(new ProblemError('internal-error'), path));
    else res.destroy();
  }
});
// Longer than the load balancer's idle timeout (120 s), so the balancer always closes first.
answerClientErrors(server);
keepConnectionsUsable(server);
server.keepAliveTimeout = 125_000;
server.headersTimeout = 130_000;
server.listen(port, () => logger.info('container listening', { port, eventStream: Boolean(stream) }));
watchEventLoop();

/**
 * ECS deregisters the task from the load balancer before SIGTERM (deregistration delay 100 s,
 * longer than a stream connection lives), so what is left here is a remainder. Everything
 * must end within the container's stopTimeout (30 s).
 */
async function shutdown(code: number): Promise<void> {
  if (draining) return;
  draining = true;
  setTimeout(() => process.exit(code), 25_000).unref();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Clients reconnect (retry: 1000) to another task, which replays from the outbox.
  hub.closeAll();
  await stream?.stop().catch((error: unknown) => {
    logger.warn('removing the stream subscription failed', { error: String(error) });
  });
  await closed;
  process.exit(code);
}

process.on('SIGTERM', () => void shutdown(0));
// With --expose-gc (bench:event-stream), SIGUSR2 collects and prints the memory held.
reportMemoryOnSignal((line) => console.log(line));
