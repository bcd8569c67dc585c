/**
 * The Fargate container (lib/realtime.ts): one node:http server for the long-lived and
 * stateful endpoints that do not fit Lambda. Today: the identity provider under /realms/*,
 * plus /health for the load balancer. The SSE stream joins as one more entry here.
 * Environment: PORT, FSM_SIGNING_JWKS (from Secrets Manager) and the FSM_* of shared/config.ts.
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
import { problemOnly, writeResult } from '../shared/server/lambda-http-adapter.ts';
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
    if (path === '/health') {
      // While draining, fail the health check so the load balancer stops sending new work.
      res.writeHead(draining ? 503 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: draining ? 'draining' : 'ok' }));
      return;
    }
    if (path.startsWith('/realms/')) {
      await identity.handle(req, res);
      return;
    }
    writeResult(
      res,
      problemOnly(new ProblemError('not-found', { detail: `No route serves ${path}.` }), path),
    );
  } catch (error) {
    logger.error('container request failed', {
      path,
      error: error instanceof Error ? error.message : String(error),
    });
    if (!res.headersSent) writeResult(res, problemOnly(new ProblemError('internal-error'), path));
    else res.destroy();
  }
});
// Longer than the load balancer's idle timeout, so the balancer always closes first.
answerClientErrors(server);
keepConnectionsUsable(server);
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;
server.listen(port, () => logger.info('container listening', { port }));
watchEventLoop();

process.on('SIGTERM', () => {
  draining = true;
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 25_000).unref();
});
