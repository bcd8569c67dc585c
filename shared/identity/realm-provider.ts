/**
 * One oidc-provider instance per realm, with issuer `${authUrl}/realms/{realm}`: its
 * configuration (realm-configuration.ts), a Retry-After on store outages, server faults logged
 * (never params), and what the realm's own pages and userinfo endpoint need.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { logger } from '../observability/logger.ts';
import type { AccountService } from './accounts.ts';
import { derivedSecret, formTokens } from './csrf.ts';
import type { IdentityDirectory } from './identity-directory.ts';
import { describeError, retryAfterSeconds } from './identity-failures.ts';
import { oidcAdapterFactory, withDirectoryClients } from './oidc-storage.ts';
import type { PageContext } from './page-context.ts';
import { realmConfiguration } from './realm-configuration.ts';
import type { SigningKeyStore } from './signing-keys.ts';
import { type UserinfoEndpoint, userinfoEndpoint } from './userinfo.ts';

export interface RealmProviderOptions {
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
}

export interface RealmProvider {
  provider: Provider;
  callback: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Path of the issuer, e.g. `/realms/shared`. */
  issuerPath: string;
  /** What the login and set-password pages of the realm need. */
  pages: PageContext;
  userinfo: UserinfoEndpoint;
}

export async function createRealmProvider(
  opts: RealmProviderOptions,
  realm: string,
  trustedProxyHops: number,
): Promise<RealmProvider> {
  const issuer = `${opts.authUrl.replace(/\/+$/, '')}/realms/${realm}`;
  const issuerPath = new URL(issuer).pathname;
  const jwks = await opts.keys.privateJwks();
  const adapters = (opts.adapterFactory ?? oidcAdapterFactory)(realm);
  const configuration = realmConfiguration({
    adapter: withDirectoryClients(adapters, opts.directory, realm),
    jwks,
    issuerPath,
    audience: opts.audience,
    // oidc-provider wants resource indicators to be absolute URIs; the audience need not be one.
    resource: URL.canParse(opts.audience) ? opts.audience : `urn:fsm:resource:${opts.audience}`,
    accounts: opts.accounts,
    accessTtl: opts.accessTokenTtlSeconds ?? 300,
    refreshTtl: opts.refreshTokenTtlSeconds ?? 1800,
  });

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
