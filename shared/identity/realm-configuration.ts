/**
 * The oidc-provider configuration of one realm: Keycloak's routes, the scopes and claims, JWT
 * access tokens for the API (`aud`, `tenant_id`, `azp`, the service account's `sub`), the
 * features this provider offers (and those it never may: dev interactions), token lifetimes,
 * realm-scoped cookies, and our own pages for logout and errors.
 */
import type { ClientInstance, Configuration, KoaContextWithOIDC, TokenInstance } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { AccountService } from './accounts.ts';
import { derivedSecret } from './csrf.ts';
import { loadFirstPartyGrant } from './first-party-grant.ts';
import { html, renderMessagePage, renderPage, SafeHtml } from './html.ts';
import { pageHeaders } from './http-io.ts';
import { accountFinder, interactionPolicyWithAccountCheck } from './oidc-account.ts';
import { realmRoutes } from './realm-routes.ts';
import type { JsonWebKey } from './signing-keys.ts';

const SCOPES = ['openid', 'profile', 'email'];
/** What a client-credentials token carries when the request names no scope (as Keycloak does). */
const DEFAULT_CLIENT_CREDENTIALS_SCOPE = 'profile email';

/** What a realm's configuration is made of. */
export interface RealmSettings {
  /** Storage of the provider's state, the directory's clients included. */
  adapter: Configuration['adapter'];
  jwks: { keys: JsonWebKey[] };
  /** Path of the issuer, e.g. `/realms/shared`. */
  issuerPath: string;
  /** The `aud` of access tokens, and the resource indicator it is known by. */
  audience: string;
  resource: string;
  accounts: AccountService;
  accessTtl: number;
  refreshTtl: number;
}

export function realmConfiguration(settings: RealmSettings): Configuration {
  const { adapter, jwks, issuerPath, accessTtl, refreshTtl } = settings;
  return {
    adapter,
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
    features: realmFeatures(settings),
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
    findAccount: accountFinder(settings.accounts),
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
}

/** What the provider offers, and what it never may. */
function realmFeatures(settings: RealmSettings): NonNullable<Configuration['features']> {
  const { resource, audience, accessTtl } = settings;
  return {
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
    // logout, back-channel-logout.ts).
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
          audience,
          accessTokenTTL: accessTtl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  };
}

/** The headers of our own pages on a response that oidc-provider writes. */
function setPageHeaders(ctx: KoaContextWithOIDC, formTargets: string[] = []): void {
  ctx.type = 'html';
  for (const [name, value] of Object.entries(pageHeaders(formTargets))) ctx.set(name, value);
}

function applyDefaultClientCredentialsScope(ctx: KoaContextWithOIDC): void {
  const params = ctx.oidc?.params;
  if (ctx.oidc?.route === 'token' && params?.grant_type === 'client_credentials' && !params.scope) {
    params.scope = DEFAULT_CLIENT_CREDENTIALS_SCOPE;
  }
}
