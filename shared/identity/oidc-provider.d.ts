/**
 * The part of oidc-provider 9 that shared/identity uses. The package ships no type
 * declarations (and @types/oidc-provider is not a dependency), so these describe only what the
 * identity server relies on; extend them when more of the API is used.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** oidc-provider's configuration object; see its docs/README for the members. */
  export interface Configuration {
    [option: string]: unknown;
  }

  /** The request context oidc-provider hands to configuration hooks (a Koa context). */
  export interface KoaContextWithOIDC {
    method: string;
    path: string;
    status: number;
    type: string;
    body: unknown;
    oidc: {
      /** Name of the matched route, e.g. 'token', 'authorization'. */
      route: string;
      params: Record<string, unknown>;
      client?: ClientInstance;
    };
  }

  /** A client as oidc-provider sees it (metadata in camelCase; extra metadata keeps its name). */
  export interface ClientInstance {
    clientId: string;
    redirectUris: string[];
    grantTypeAllowed(grantType: string): boolean;
    [extraMetadata: string]: unknown;
  }

  /** A token model instance (AccessToken, ClientCredentials, RefreshToken, ...). */
  export interface TokenInstance {
    kind: string;
    jti: string;
    clientId: string;
    client?: ClientInstance;
    grantId?: string;
    sessionUid?: string;
    accountId?: string;
    scope?: string;
    iat: number;
    exp: number;
    consumed?: number;
    destroy(): Promise<void>;
  }

  export interface SessionInstance {
    jti: string;
    uid: string;
    accountId?: string;
    destroy(): Promise<void>;
  }

  export interface GrantInstance {
    jti: string;
    destroy(): Promise<void>;
  }

  interface TokenModel {
    find(value: string, options?: { ignoreExpiration?: boolean }): Promise<TokenInstance | undefined>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** Koa's `proxy`: trust X-Forwarded-Proto/-Host/-For. */
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void> | void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    urlFor(name: string, options?: Record<string, unknown>): string;
    readonly AccessToken: TokenModel;
    readonly AuthorizationCode: TokenModel;
    readonly RefreshToken: TokenModel;
    readonly Grant: { find(id: string): Promise<GrantInstance | undefined> };
    readonly Session: { findByUid(uid: string): Promise<SessionInstance | undefined> };
  }

  export class OIDCProviderError extends Error {
    constructor(status: number, message: string);
    status: number;
    statusCode: number;
    error: string;
    error_description?: string;
  }

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    InvalidTarget: new (description?: string) => OIDCProviderError;
    InvalidRequest: new (description?: string) => OIDCProviderError;
  };

  export default Provider;
}
