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
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, {
  type ClientInstance,
  type Configuration,
  errors,
  type KoaContextWithOIDC,
  type TokenInstance,
} from 'oidc-provider';
import { realmNamePattern } from '../auth/realm-name.ts';
import { DataError } from '../data/data-error.ts';
import { logger } from '../observability/logger.ts';
import type { AccountService } from './accounts.ts';
import { trustedProxyHops } from './client-address.ts';
import { derivedSecret, formTokens } from './csrf.ts';
import { loadFirstPartyGrant } from './first-party-grant.ts';
import { html, renderMessagePage, renderPage, SafeHtml } from './html.ts';
import {
  hasAmbiguousAuthorization,
  isFormPost,
  pageHeaders,
  readForm,
  sendHtml,
  sendJson,
} from './http-io.ts';
import type { IdentityDirectory } from './identity-directory.ts';
import { serveLogin } from './login-handler.ts';
import { accountFinder, interactionPolicyWithAccountCheck } from './oidc-account.ts';
import { IdentityStoreUnavailable, oidcAdapterFactory, withDirectoryClients } from './oidc-storage.ts';
import type { PageContext } from './page-context.ts';
import { serveSetPassword } from './set-password-handler.ts';
import type { SigningKeyStore } from './signing-keys.ts';
import { type UserinfoEndpoint, userinfoEndpoint } from './userinfo.ts';

export interface IdentityServerOptions {
  /** Public origin of the identity provider (no trailing slash); issuers are `${authUrl}/realms/{realm}`. */
  authUrl: string;
  /** The `aud` of every access token (the API's audience). */
  audience: string;
  directory: IdentityDirectory;
  /** Users: sign-in checks, the accounts tokens are issued for, set-password links. */
  accounts: AccountService;
  keys: SigningKeyStore;
  /** Storage of the provider's state per realm; default: the DynamoDB table (`oidcAdapterFactory`). */
  adapterFactory?: (realm: string) => (modelName: string) => unknown;
  /** Lifetime of access tokens (and ID tokens), seconds. Default 300. */
  accessTokenTtlSeconds?: number;
  /** Lifetime of refresh tokens, seconds. Default 1800. */
  refreshTokenTtlSeconds?: number;
  /**
   * Proxies in front of the provider that append to X-Forwarded-For (client-address.ts);
   * default FSM_TRUSTED_PROXY_HOPS, else 0.
   */
  trustedProxyHops?: number;
}

/** Route paths inside a realm, Keycloak's layout. */
export const realmRoutes = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  jwks: '/protocol/openid-connect/certs',
  userinfo: '/protocol/openid-connect/userinfo',
  introspection: '/protocol/openid-connect/token/introspect',
  revocation: '/protocol/openid-connect/revoke',
  end_session: '/protocol/openid-connect/logout',
  /** Ours, not oidc-provider's: the interaction (login) page, `/login/{uid}`. */
  login: '/login',
  /** Ours: the page of set-password links. */
  setPassword: '/set-password',
} as const;

const SCOPES = ['openid', 'profile', 'email'];
/** What a client-credentials token carries when the request names no scope (as Keycloak does). */
const DEFAULT_CLIENT_CREDENTIALS_SCOPE = 'profile email';

interface RealmProvider {
  provider: Provider;
  callback: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Path of the issuer, e.g. `/realms/shared`. */
  issuerPath: string;
  /** What the login and set-password pages of the realm need. */
  pages: PageContext;
  userinfo: UserinfoEndpoint;
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
        await logout(req, res, realm, realmProvider.provider, opts.directory);
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

/* ------------------------------------------------------------------------------------------ */
/* One oidc-provider instance per realm.                                                       */

async function createRealmProvider(
  opts: IdentityServerOptions,
  realm: string,
  trustedProxyHops: number,
): Promise<RealmProvider> {
  const issuer = `${opts.authUrl.replace(/\/+$/, '')}/realms/${realm}`;
  const issuerPath = new URL(issuer).pathname;
  const jwks = await opts.keys.privateJwks();
  const adapters = (opts.adapterFactory ?? oidcAdapterFactory)(realm);
  const accessTtl = opts.accessTokenTtlSeconds ?? 300;
  const refreshTtl = opts.refreshTokenTtlSeconds ?? 1800;
  // oidc-provider wants resource indicators to be absolute URIs; the audience need not be one.
  const resource = URL.canParse(opts.audience) ? opts.audience : `urn:fsm:resource:${opts.audience}`;

  const configuration: Configuration = {
    adapter: withDirectoryClients(adapters, opts.directory, realm),
    jwks,
    routes: {
      authorization: realmRoutes.authorization,
      token: realmRoutes.token,
      jwks: realmRoutes.jwks,
      userinfo: realmRoutes.userinfo,
      introspection: realmRoutes.introspection,
      revocation: realmRoutes.revocation,
      end_session: realmRoutes.end_session,
    },
    scopes: SCOPES,
    claims: {
      openid: ['sub'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale', 'updated_at'],
      email: ['email', 'email_verified'],
    },
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    extraClientMetadata: { properties: ['workspace_id', 'principal_id'] },
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string, client: ClientInstance) =>
      client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
    features: {
      devInteractions: { enabled: false }, // accepts any password: never
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        // Clients of one realm belong to different workspaces: each sees only its own tokens.
        allowedPolicy: async (_ctx: KoaContextWithOIDC, client: ClientInstance, token: TokenInstance) =>
          token.clientId === client.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: KoaContextWithOIDC, client: ClientInstance, token: TokenInstance) => {
          if (token.clientId !== client.clientId) {
            throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
          }
          return true;
        },
      },
      userinfo: { enabled: true },
      // Browser logout: GET shows a confirmation form (POST is Keycloak's back-channel
      // logout, our own handler above).
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          // The confirmation redirects to the client's post_logout_redirect_uri, if it gave one.
          const target = URL.parse(String(ctx.oidc.session?.state?.postLogoutRedirectUri ?? ''));
          setPageHeaders(ctx, target ? [target.origin] : []);
          ctx.body = renderPage(
            'Sign out',
            html`<h1>Sign out</h1>
<p>Do you want to sign out?</p>
${new SafeHtml(form)}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`,
          );
        },
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          setPageHeaders(ctx);
          ctx.body = renderMessagePage('Signed out', 'You are signed out.', { kind: 'notice' });
        },
      },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          applyDefaultClientCredentialsScope(ctx);
          return {
            scope: SCOPES.join(' '),
            audience: opts.audience,
            accessTokenTTL: accessTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    extraTokenClaims: async (_ctx: KoaContextWithOIDC, token: TokenInstance) => {
      // Every client belongs to one workspace, and users sign in through clients of their own
      // workspace, so the client's workspace is the token's tenant.
      const workspaceId = token.client?.workspace_id;
      return {
        ...(typeof workspaceId === 'string' ? { tenant_id: workspaceId } : {}),
        azp: token.clientId,
      };
    },
    formats: {
      customizers: {
        jwt: async (
          _ctx: KoaContextWithOIDC,
          token: TokenInstance,
          jwt: { header?: Record<string, unknown>; payload: Record<string, unknown> },
        ) => {
          // A client-credentials token acts as the client's service account, not as the client.
          const principalId = token.client?.principal_id;
          if (token.kind === 'ClientCredentials' && typeof principalId === 'string' && principalId) {
            jwt.payload.sub = principalId;
          }
        },
      },
    },
    findAccount: accountFinder(opts.accounts),
    loadExistingGrant: loadFirstPartyGrant,
    interactions: {
      policy: interactionPolicyWithAccountCheck(),
      url: async (_ctx: KoaContextWithOIDC, interaction: { uid: string }) =>
        `${issuerPath}${realmRoutes.login}/${interaction.uid}`,
    },
    // Keycloak hands a refresh token to every code-flow client, not only on offline_access.
    issueRefreshToken: async (_ctx: KoaContextWithOIDC, client: ClientInstance) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: accessTtl,
      ClientCredentials: accessTtl,
      IdToken: accessTtl,
      RefreshToken: refreshTtl,
      AuthorizationCode: 60,
      Interaction: 30 * 60,
      Session: Math.max(refreshTtl, 10 * 60 * 60),
      Grant: Math.max(refreshTtl, 10 * 60 * 60),
      DeviceCode: 600,
      BackchannelAuthenticationRequest: 600,
      PreAuthorizedCode: 600,
    },
    cookies: {
      // Stable across restarts (derived from the signing key), so sessions survive them.
      keys: [derivedSecret(jwks.keys, 'fsm identity cookie signing')],
      // Realms share one origin: scope the cookies to the realm so they never cross realms.
      long: { httpOnly: true, sameSite: 'lax', path: issuerPath },
      short: { httpOnly: true, sameSite: 'lax', path: issuerPath },
    },
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256'],
      userinfoSigningAlgValues: ['RS256'],
      introspectionSigningAlgValues: ['RS256'],
      authorizationSigningAlgValues: ['RS256'],
      requestObjectSigningAlgValues: ['RS256'],
      clientAuthSigningAlgValues: ['RS256'],
    },
    renderError: async (ctx: KoaContextWithOIDC, out: Record<string, unknown>) => {
      setPageHeaders(ctx);
      ctx.body = renderMessagePage(
        'Sign-in error',
        `${String(out.error ?? 'error')}: ${String(out.error_description ?? '')}`,
        { kind: 'message' },
      );
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  // A store outage surfaces as 503 temporarily_unavailable (oidc-storage.ts); say when to retry.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 503) ctx.set('Retry-After', String(retryAfterSeconds));
  });
  // Only server faults are logged; 4xx answers are the client's business. Never log params.
  provider.on('server_error', (_ctx, error) => {
    logger.error('identity provider server error', { realm, ...describeError(error) });
  });
  provider.on('error', (error) => {
    logger.error('identity provider error', { realm, ...describeError(error) });
  });
  const pages: PageContext = {
    realm,
    issuerPath,
    provider,
    directory: opts.directory,
    accounts: opts.accounts,
    forms: formTokens(derivedSecret(jwks.keys, 'fsm identity form tokens')),
    trustedProxyHops,
  };
  const userinfo = userinfoEndpoint({
    issuer,
    audience: opts.audience,
    keys: jwks.keys,
    accounts: opts.accounts,
  });
  return { provider, callback: provider.callback(), issuerPath, pages, userinfo };
}

/** The headers of our own pages on a response that oidc-provider writes. */
function setPageHeaders(ctx: KoaContextWithOIDC, formTargets: string[] = []): void {
  ctx.type = 'html';
  for (const [name, value] of Object.entries(pageHeaders(formTargets))) ctx.set(name, value);
}

/** Browsers ask for HTML; API clients for JSON. */
function wantsHtml(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

function applyDefaultClientCredentialsScope(ctx: KoaContextWithOIDC): void {
  const params = ctx.oidc?.params;
  if (ctx.oidc?.route === 'token' && params?.grant_type === 'client_credentials' && !params.scope) {
    params.scope = DEFAULT_CLIENT_CREDENTIALS_SCOPE;
  }
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

/* ------------------------------------------------------------------------------------------ */
/* Keycloak's back-channel logout: POST client_id, client_secret, refresh_token → 204.         */

async function logout(
  req: IncomingMessage,
  res: ServerResponse,
  realm: string,
  provider: Provider,
  directory: IdentityDirectory,
): Promise<void> {
  if (!isFormPost(req)) {
    sendJson(res, 400, { error: 'invalid_request', error_description: 'form-encoded body expected' });
    return;
  }
  const form = await readForm(req);
  if (!form) {
    sendJson(res, 400, {
      error: 'invalid_request',
      error_description: 'request body too large or unreadable',
    });
    return;
  }
  for (const name of ['client_id', 'client_secret', 'refresh_token']) {
    if (form.getAll(name).length > 1) {
      sendJson(res, 400, { error: 'invalid_request', error_description: `${name} given more than once` });
      return;
    }
  }

  const credentials = clientCredentials(req.headers.authorization, form);
  if ('error' in credentials) {
    sendJson(res, 400, { error: 'invalid_request', error_description: credentials.error });
    return;
  }
  const record = credentials.clientId ? await directory.findClient(realm, credentials.clientId) : undefined;
  if (!record?.clientSecret || !secretsMatch(record.clientSecret, credentials.clientSecret)) {
    const challenge: Record<string, string> = credentials.viaHeader ? { 'WWW-Authenticate': 'Basic' } : {};
    sendJson(
      res,
      401,
      { error: 'invalid_client', error_description: 'client authentication failed' },
      challenge,
    );
    return;
  }

  const value = form.get('refresh_token');
  if (!value) {
    sendJson(res, 400, { error: 'invalid_request', error_description: 'Missing parameter: refresh_token' });
    return;
  }
  // find() drops unknown, expired and session-less tokens.
  const token = await provider.RefreshToken.find(value);
  if (!token || token.clientId !== record.clientId) {
    sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
    return;
  }
  await endSession(provider, token);
  res.statusCode = 204;
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

/** Revoke the refresh token, every token of its grant, the grant and the session it belongs to. */
async function endSession(provider: Provider, token: TokenInstance): Promise<void> {
  await token.destroy();
  const { grantId, sessionUid } = token;
  if (grantId) {
    await Promise.all([
      provider.AccessToken.revokeByGrantId(grantId),
      provider.RefreshToken.revokeByGrantId(grantId),
      provider.AuthorizationCode.revokeByGrantId(grantId),
      provider.Grant.find(grantId).then((grant) => grant?.destroy()),
    ]);
  }
  if (sessionUid) {
    const session = await provider.Session.findByUid(sessionUid);
    await session?.destroy();
  }
}

type ClientCredentials = { clientId: string; clientSecret: string; viaHeader: boolean } | { error: string };

/** client_secret_basic or client_secret_post, exactly one of them (as oidc-provider does). */
function clientCredentials(authorization: string | undefined, form: URLSearchParams): ClientCredentials {
  const formId = form.get('client_id') ?? undefined;
  const formSecret = form.get('client_secret') ?? undefined;
  if (authorization !== undefined) {
    if (formSecret !== undefined)
      return { error: 'client authentication must only be provided using one mechanism' };
    const [scheme, encoded, extra] = authorization.split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !encoded || extra !== undefined) {
      return { error: 'invalid authorization header value format' };
    }
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return { error: 'invalid authorization header value format' };
    let clientId: string;
    let clientSecret: string;
    try {
      // RFC 6749 §2.3.1: both parts are form-encoded before base64.
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, '%20'));
      clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, '%20'));
    } catch {
      return { error: 'client_id and client_secret in the authorization header are not properly encoded' };
    }
    if (formId !== undefined && formId !== clientId) return { error: 'client_id mismatch' };
    return { clientId, clientSecret, viaHeader: true };
  }
  return { clientId: formId ?? '', clientSecret: formSecret ?? '', viaHeader: false };
}

function secretsMatch(expected: string, given: string): boolean {
  // Hash first so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}

/* ------------------------------------------------------------------------------------------ */

/** Seconds a client should wait after a store outage (the SDK already retried 3 times). */
const retryAfterSeconds = 1;

/** A table outage seen by our pages (DataError) or by oidc-provider's adapter. */
function storeUnavailable(error: unknown): boolean {
  return (
    (error instanceof DataError && error.code === 'unavailable') || error instanceof IdentityStoreUnavailable
  );
}

/** Log fields of an error (not named `message`: that is the log line's own field). */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.name, errorMessage: error.message, stack: error.stack };
  return { error: String(error) };
}

/** The path without the query, which may carry codes or tokens. */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '').split('?', 1)[0] ?? '';
}
