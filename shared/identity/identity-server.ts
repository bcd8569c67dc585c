/**
 * The embedded OpenID Connect provider in Keycloak's layout, on plain node:http.
 *
 * `handle()` serves every request under `/realms/{realm}/`. Each realm gets its own
 * oidc-provider instance (created on its first request) with issuer `${authUrl}/realms/{realm}`:
 *
 *   /realms/{realm}/.well-known/openid-configuration
 *   /realms/{realm}/protocol/openid-connect/{auth,token,certs,token/introspect,revoke}
 *   /realms/{realm}/protocol/openid-connect/userinfo  takes the API access token (userinfo.ts)
 *   /realms/{realm}/protocol/openid-connect/logout   POST client_id, client_secret, refresh_token;
 *                                                     GET: browser logout (RP-initiated)
 *   /realms/{realm}/login/{uid}                       the login page (login-handler.ts)
 *   /realms/{realm}/set-password?token=…              the set-password page (set-password-handler.ts)
 *
 * Mounting: the `/realms/{realm}` prefix is stripped from `req.url` and the full public path is
 * put in `req.originalUrl` (what Express does); oidc-provider derives its mount path from the
 * difference. Public URLs are built from `authUrl` alone: the provider trusts X-Forwarded-Proto
 * and X-Forwarded-Host (`proxy = true`), and `handle()` overwrites both with the scheme and host
 * of `authUrl` before delegating. So the issuer, the endpoints of the discovery document and
 * the redirects stay right behind CloudFront, whatever Host header reaches the origin, and a
 * client cannot inject another host through those headers.
 *
 * Access tokens are RS256 JWTs for the API: `aud` = `audience`, `sub` = the user (code flow)
 * or the client's principal (service account, client-credentials), `tenant_id` = the client's
 * workspace, `client_id` and `azp` = the client, `scope`. Users are found through the
 * AccountService port (accounts.ts); consent is implied (first-party-grant.ts).
 *
 * This file routes a request to its realm; a realm's provider and configuration are
 * realm-provider.ts and realm-configuration.ts, the back-channel logout back-channel-logout.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { realmNamePattern } from '../auth/realm-name.ts';
import { logger } from '../observability/logger.ts';
import { backChannelLogout } from './back-channel-logout.ts';
import { trustedProxyHops } from './client-address.ts';
import { renderMessagePage } from './html.ts';
import { hasAmbiguousAuthorization, sendHtml, sendJson } from './http-io.ts';
import { describeError, retryAfterSeconds, storeUnavailable } from './identity-failures.ts';
import { serveLogin } from './login-handler.ts';
import { createRealmProvider, type RealmProvider, type RealmProviderOptions } from './realm-provider.ts';
import { realmRoutes } from './realm-routes.ts';
import { serveSetPassword } from './set-password-handler.ts';

export interface IdentityServerOptions extends RealmProviderOptions {
  /**
   * Proxies in front of the provider that append to X-Forwarded-For (client-address.ts);
   * default FSM_TRUSTED_PROXY_HOPS, else 0.
   */
  trustedProxyHops?: number;
}

export function createIdentityServer(opts: IdentityServerOptions): {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
} {
  const authUrl = new URL(opts.authUrl);
  // Validated once, at start: a bad value stops the start instead of every sign-in.
  const hops = opts.trustedProxyHops ?? trustedProxyHops(process.env.FSM_TRUSTED_PROXY_HOPS);
  const providers = new Map<string, Promise<RealmProvider>>();

  function providerFor(realm: string): Promise<RealmProvider> {
    let created = providers.get(realm);
    if (!created) {
      created = createRealmProvider(opts, realm, hops).catch((error: unknown) => {
        providers.delete(realm); // retry on the next request
        throw error;
      });
      providers.set(realm, created);
    }
    return created;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = req.url ?? '/';
      const match = /^\/realms\/([^/?#]*)(.*)$/s.exec(url);
      const realm = match?.[1] ?? '';
      if (!match || !realmNamePattern.test(realm) || !(await opts.directory.realmExists(realm))) {
        sendJson(res, 404, { error: 'realm_not_found', error_description: 'Realm does not exist' });
        return;
      }
      const rest = match[2] ?? '';
      const inner = rest.startsWith('/') ? rest : `/${rest}`;
      const innerPath = inner.split('?', 1)[0] ?? '/';

      if (hasAmbiguousAuthorization(req)) {
        refuseAmbiguousAuthorization(res, innerPath, realm);
        return;
      }

      const realmProvider = await providerFor(realm);
      if (innerPath === realmRoutes.end_session && req.method === 'POST') {
        await backChannelLogout(req, res, realm, realmProvider.provider, opts.directory);
        return;
      }
      if (innerPath === realmRoutes.userinfo) {
        await realmProvider.userinfo.handle(req, res);
        return;
      }

      req.headers['x-forwarded-proto'] = authUrl.protocol.slice(0, -1);
      req.headers['x-forwarded-host'] = authUrl.host;
      if (innerPath === realmRoutes.login || innerPath.startsWith(`${realmRoutes.login}/`)) {
        await serveLogin(req, res, innerPath.slice(realmRoutes.login.length + 1), realmProvider.pages);
        return;
      }
      if (innerPath === realmRoutes.setPassword) {
        await serveSetPassword(req, res, realmProvider.pages);
        return;
      }
      req.url = inner;
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = `${realmProvider.issuerPath}${inner}`;
      await realmProvider.callback(req, res);
    } catch (error) {
      if (storeUnavailable(error) && !res.headersSent) {
        logger.warn('identity provider store unavailable', { ...describeError(error), path: pathOf(req) });
        res.setHeader('Retry-After', String(retryAfterSeconds));
        if (wantsHtml(req)) {
          sendHtml(res, 503, renderMessagePage('Please try again', 'Signing in is briefly unavailable.'));
        } else sendJson(res, 503, { error: 'temporarily_unavailable' });
        return;
      }
      logger.error('identity provider request failed', { ...describeError(error), path: pathOf(req) });
      if (res.headersSent) res.end();
      else if (wantsHtml(req)) {
        sendHtml(res, 500, renderMessagePage('Something went wrong', 'Please try again in a moment.'));
      } else sendJson(res, 500, { error: 'server_error' });
    }
  }

  return { handle };
}

/** Browsers ask for HTML; API clients for JSON. */
function wantsHtml(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

/**
 * Several Authorization headers: refused before anything reads one of them, since oidc-provider
 * and Node would silently take the first. Userinfo takes bearer tokens (RFC 6750 invalid_token);
 * every other endpoint authenticates clients (RFC 6749 invalid_client).
 */
function refuseAmbiguousAuthorization(res: ServerResponse, innerPath: string, realm: string): void {
  const description = 'more than one Authorization header (or a comma-joined one) was sent';
  if (innerPath === realmRoutes.userinfo) {
    sendJson(
      res,
      401,
      { error: 'invalid_token', error_description: description },
      { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"` },
    );
    return;
  }
  sendJson(
    res,
    401,
    { error: 'invalid_client', error_description: description },
    { 'WWW-Authenticate': `Basic realm="${realm}"` },
  );
}

/** The path without the query, which may carry codes or tokens. */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '').split('?', 1)[0] ?? '';
}
