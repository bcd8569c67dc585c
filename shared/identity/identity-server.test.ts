import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import type { Jwks } from 'aws-jwt-verify/jwk';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryAccounts } from '../../test/doubles/in-memory-accounts.ts';
import { inMemoryDirectory } from '../../test/doubles/in-memory-directory.ts';
import { memoryAdapterFactory } from '../../test/doubles/memory-oidc-storage.ts';
import type { ClientRecord } from './identity-directory.ts';
import { createIdentityServer } from './identity-server.ts';
import type { AdapterFactory } from './oidc-storage.ts';
import { fileSigningKeyStore } from './signing-keys.ts';

const audience = 'fsm-api';
const integration: ClientRecord = {
  clientId: 'acme-integration',
  clientSecret: 's3cret-acme',
  workspaceId: 'ws-acme',
  principalId: 'sa-acme-integration',
  redirectUris: [],
};
const webApp: ClientRecord = {
  clientId: 'acme-web',
  clientSecret: 's3cret-web',
  workspaceId: 'ws-acme',
  principalId: 'sa-acme-web',
  redirectUris: ['http://127.0.0.1:9/callback'],
};

interface RunningServer {
  authUrl: string;
  issuer: string;
  storage: AdapterFactory;
  close(): Promise<void>;
}

async function startIdentityServer(keyFile: string): Promise<RunningServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const authUrl = `http://127.0.0.1:${port}`;
  const storage = memoryAdapterFactory();
  const identity = createIdentityServer({
    authUrl,
    audience,
    directory: inMemoryDirectory({ shared: [integration, webApp], 'acme-dedicated': [] }),
    accounts: inMemoryAccounts([]),
    keys: fileSigningKeyStore(keyFile),
    adapterFactory: storage,
  });
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/realms/')) void identity.handle(req, res);
    else res.writeHead(404).end();
  });
  return {
    authUrl,
    issuer: `${authUrl}/realms/shared`,
    storage,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function form(body: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  };
}

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function discover(issuer: string, client: ClientRecord): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuer), client.clientId, client.clientSecret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
}

/** A verifier as the API would build it, fed with the JWKS the realm publishes. */
async function verifierFor(issuer: string) {
  const jwksUri = `${issuer}/protocol/openid-connect/certs`;
  const verifier = JwtRsaVerifier.create({ issuer, audience, jwksUri });
  // aws-jwt-verify refuses to fetch http:// URIs itself.
  verifier.cacheJwks((await (await fetch(jwksUri)).json()) as Jwks);
  return verifier;
}

function decodeHeader(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString('utf8'));
}

describe('identity provider (Keycloak layout)', () => {
  let dataDir: string;
  let keyFile: string;
  let running: RunningServer;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fsm-identity-'));
    keyFile = join(dataDir, 'identity', 'signing-key.json');
    running = await startIdentityServer(keyFile);
  });

  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes its discovery document and endpoints at the Keycloak paths of the realm', async () => {
    const config = await discover(running.issuer, integration);
    const metadata = config.serverMetadata();

    expect(metadata.issuer).toBe(running.issuer);
    expect(metadata.token_endpoint).toBe(`${running.issuer}/protocol/openid-connect/token`);
    expect(metadata.jwks_uri).toBe(`${running.issuer}/protocol/openid-connect/certs`);
    expect(metadata.authorization_endpoint).toBe(`${running.issuer}/protocol/openid-connect/auth`);
    expect(metadata.userinfo_endpoint).toBe(`${running.issuer}/protocol/openid-connect/userinfo`);
    expect(metadata.introspection_endpoint).toBe(
      `${running.issuer}/protocol/openid-connect/token/introspect`,
    );
    expect(metadata.revocation_endpoint).toBe(`${running.issuer}/protocol/openid-connect/revoke`);
    expect(metadata.grant_types_supported).toContain('client_credentials');
    expect(metadata.token_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'client_secret_post',
    ]);
    expect(metadata.scopes_supported).toEqual(['openid', 'profile', 'email']);
  });

  it('keeps its public URLs on authUrl whatever Host and X-Forwarded-Host the request carries', async () => {
    const response = await fetch(`${running.issuer}/.well-known/openid-configuration`, {
      headers: { 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' },
    });
    const metadata = (await response.json()) as { issuer: string; token_endpoint: string };

    expect(metadata.issuer).toBe(running.issuer);
    expect(metadata.token_endpoint).toBe(`${running.issuer}/protocol/openid-connect/token`);
  });

  it('issues a client-credentials access token that the API verifies, acting as the service account', async () => {
    const config = await discover(running.issuer, integration);
    const tokens = await oidc.clientCredentialsGrant(config);

    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(300);
    expect(tokens.scope).toBe('profile email');
    expect(tokens.refresh_token).toBeUndefined();

    const claims = await (await verifierFor(running.issuer)).verify(tokens.access_token);
    expect(claims).toMatchObject({
      iss: running.issuer,
      aud: audience,
      sub: 'sa-acme-integration',
      tenant_id: 'ws-acme',
      client_id: 'acme-integration',
      azp: 'acme-integration',
      scope: 'profile email',
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);

    const jwks = (await (await fetch(`${running.issuer}/protocol/openid-connect/certs`)).json()) as {
      keys: Array<{ kid: string; d?: string }>;
    };
    expect(decodeHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', kid: jwks.keys[0]?.kid });
    expect(jwks.keys[0]?.d).toBeUndefined();
  });

  it('grants the requested scope and accepts client_secret_basic as well as client_secret_post', async () => {
    const response = await fetch(
      `${running.issuer}/protocol/openid-connect/token`,
      form(
        { grant_type: 'client_credentials', scope: 'openid' },
        { authorization: basic('acme-integration', 's3cret-acme') },
      ),
    );
    const body = (await response.json()) as Record<string, unknown>;

    expect(response.status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300, scope: 'openid' });
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
  });

  it('rejects a wrong client secret with 401 invalid_client', async () => {
    const response = await fetch(
      `${running.issuer}/protocol/openid-connect/token`,
      form({ grant_type: 'client_credentials', client_id: 'acme-integration', client_secret: 'wrong' }),
    );

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('rejects a client of another realm with 401 invalid_client', async () => {
    const response = await fetch(
      `${running.authUrl}/realms/acme-dedicated/protocol/openid-connect/token`,
      form({ grant_type: 'client_credentials', client_id: 'acme-integration', client_secret: 's3cret-acme' }),
    );

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('answers 404 for a realm that does not exist', async () => {
    for (const path of [
      '/realms/nowhere/.well-known/openid-configuration',
      '/realms/..%2Fshared/x',
      '/realms/',
    ]) {
      const response = await fetch(`${running.authUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'realm_not_found' });
    }
  });

  it('logout with an unknown refresh token answers 400 invalid_grant, with a wrong secret 401', async () => {
    const logoutUrl = `${running.issuer}/protocol/openid-connect/logout`;
    const unknown = await fetch(
      logoutUrl,
      form({ client_id: 'acme-integration', client_secret: 's3cret-acme', refresh_token: 'not-a-token' }),
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_grant' });

    const wrongSecret = await fetch(
      logoutUrl,
      form({ client_id: 'acme-integration', client_secret: 'nope', refresh_token: 'not-a-token' }),
    );
    expect(wrongSecret.status).toBe(401);
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('logout revokes the refresh token and its grant, answering 204', async () => {
    // The login flow that hands out refresh tokens comes later: seed one as oidc-provider stores it.
    const now = Math.floor(Date.now() / 1000);
    const adapters = running.storage('shared');
    const grantId = 'grant-for-logout-test';
    const refreshToken = 'refresh-token-for-logout-test';
    await adapters('Grant').upsert(
      grantId,
      {
        kind: 'Grant',
        jti: grantId,
        iat: now,
        exp: now + 3600,
        clientId: 'acme-web',
        accountId: 'user-1',
        openid: { scope: 'openid' },
      },
      3600,
    );
    await adapters('RefreshToken').upsert(
      refreshToken,
      {
        kind: 'RefreshToken',
        jti: refreshToken,
        iat: now,
        iiat: now,
        exp: now + 1800,
        clientId: 'acme-web',
        accountId: 'user-1',
        grantId,
        gty: 'authorization_code',
        scope: 'openid',
      },
      1800,
    );
    const logout = () =>
      fetch(
        `${running.issuer}/protocol/openid-connect/logout`,
        form({ refresh_token: refreshToken }, { authorization: basic('acme-web', 's3cret-web') }),
      );

    const otherClient = await fetch(
      `${running.issuer}/protocol/openid-connect/logout`,
      form({ client_id: 'acme-integration', client_secret: 's3cret-acme', refresh_token: refreshToken }),
    );
    expect(otherClient.status).toBe(400);

    const first = await logout();
    expect(first.status).toBe(204);
    expect(await adapters('RefreshToken').find(refreshToken)).toBeUndefined();
    expect(await adapters('Grant').find(grantId)).toBeUndefined();

    const again = await logout();
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('sends the browser of a code-flow client to the login page of the realm', async () => {
    const authorize = new URL(`${running.issuer}/protocol/openid-connect/auth`);
    authorize.search = new URLSearchParams({
      client_id: 'acme-web',
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:9/callback',
      scope: 'openid profile email',
      state: 'xyz',
    }).toString();
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const location = redirect.headers.get('location') ?? '';

    expect(redirect.status).toBe(303);
    expect(location).toMatch(/^\/realms\/shared\/login\/[\w-]+$/);
    const cookies = redirect.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.every((cookie) => cookie.includes('path=/realms/shared'))).toBe(true);

    const login = await fetch(new URL(location, running.authUrl), {
      headers: { cookie: cookies.map((cookie) => cookie.split(';', 1)[0]).join('; ') },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('keeps signing with the same key after a restart, so earlier tokens stay valid', async () => {
    const before = await oidc.clientCredentialsGrant(await discover(running.issuer, integration));
    const kidBefore = decodeHeader(before.access_token).kid;

    const restarted = await startIdentityServer(keyFile);
    try {
      const jwks = (await (await fetch(`${restarted.issuer}/protocol/openid-connect/certs`)).json()) as {
        keys: Array<{ kid: string }>;
      };
      expect(jwks.keys.map((key) => key.kid)).toEqual([kidBefore]);

      const after = await oidc.clientCredentialsGrant(await discover(restarted.issuer, integration));
      expect(decodeHeader(after.access_token).kid).toBe(kidBefore);
      // The API trusts the restarted realm's published keys for a token issued before.
      const verifier = JwtRsaVerifier.create({
        issuer: running.issuer,
        audience,
        jwksUri: `${running.issuer}/protocol/openid-connect/certs`,
      });
      verifier.cacheJwks(jwks as unknown as Jwks);
      await expect(verifier.verify(before.access_token)).resolves.toMatchObject({
        sub: 'sa-acme-integration',
      });
    } finally {
      await restarted.close();
    }

    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
  });
});
