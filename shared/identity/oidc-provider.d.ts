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
    set(field: string, value: string): void;
    oidc: {
      /** Name of the matched route, e.g. 'token', 'authorization'. */
      route: string;
      params: Record<string, unknown>;
      client?: ClientInstance;
      provider: Provider;
      /** Authorization endpoint: the end-user's session (cookie-bound). */
      session?: SessionInstance;
      /** Authorization endpoint: the account of the session, when findAccount found it. */
      account?: { accountId: string };
      /** Authorization endpoint (resume): what the interaction ended with. */
      result?: { consent?: { grantId?: string }; login?: { accountId: string } };
      requestParamOIDCScopes: Set<string>;
      requestParamScopes: Set<string>;
      requestParamClaims: Set<string>;
      /** Resource indicator → the resource server's scopes. */
      resourceServers?: Record<string, { scopes: Set<string> }>;
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
    /** Pending RP-initiated logout. */
    state?: { postLogoutRedirectUri?: string; clientId?: string };
    /** The grant id stored for a client in this session, or undefined. */
    grantIdFor(clientId: string): string | undefined;
    destroy(): Promise<void>;
  }

  export interface GrantInstance {
    /** Set once the grant is saved. */
    jti?: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    getOIDCScopeEncountered(): string;
    getOIDCClaimsEncountered(): string[];
    getResourceScopeEncountered(resource: string): string;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }

  /** A pending interaction (the login page's state), see `Provider.interactionDetails`. */
  export interface InteractionInstance {
    uid: string;
    returnTo: string;
    /** Epoch seconds. */
    exp: number;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    /** The authorization request's parameters (client_id, redirect_uri, login_hint, ...). */
    params: Record<string, unknown>;
    session?: { uid?: string; accountId?: string };
    /** The grant the authorization request loaded (saved grants only). */
    grantId?: string;
  }

  /** Result of an interaction, handed to `interactionFinished`. */
  export interface InteractionResults {
    login?: { accountId: string; amr?: string[]; acr?: string; remember?: boolean };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
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
    /** The interaction named by the request's interaction cookie; throws SessionNotFound. */
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionInstance>;
    /** Store the result and answer 303 to the provider's resume endpoint. */
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    readonly AccessToken: TokenModel;
    readonly AuthorizationCode: TokenModel;
    readonly RefreshToken: TokenModel;
    readonly Grant: {
      new (properties: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
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
    SessionNotFound: new (description?: string) => OIDCProviderError;
  };

  /** One check of a prompt: `check(ctx)` true requests the prompt. */
  class InteractionCheck {
    static readonly REQUEST_PROMPT: true;
    static readonly NO_NEED_TO_PROMPT: false;
    constructor(
      reason: string,
      description: string,
      check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>,
    );
  }

  interface PolicyPrompt {
    name: string;
    checks: InteractionCheck[] & { add(check: InteractionCheck, index?: number): void };
  }

  export const interactionPolicy: {
    Check: typeof InteractionCheck;
    /** oidc-provider's default prompts (login, consent), to be adjusted. */
    base(): PolicyPrompt[] & { get(name: string): PolicyPrompt | undefined };
  };

  export default Provider;
}
