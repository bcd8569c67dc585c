import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, claimsOf, forgeToken, problemType, tokenFor } from '../support/api.ts';
import { rawRequest } from '../support/raw-http.ts';

let admin: string;

beforeAll(async () => {
  admin = await tokenFor('acme-admin');
});

/** Claims of a valid token with some replaced: forged tokens carry the service's real signature. */
const claimsLike = (overrides: Record<string, unknown>) => {
  const now = Math.floor(Date.now() / 1000);
  return { ...claimsOf(admin), iat: now, exp: now + 300, ...overrides };
};

describe('Authentication: 401 authentication-required', () => {
  it('answers token_missing with a bare Bearer challenge when no token is sent', async () => {
    const response = await call('GET', '/api/v2/areas');

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      type: problemType('authentication-required'),
      data: { reason: 'token_missing' },
    });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers token_expired for a well-signed token past its expiry', async () => {
    const expired = forgeToken(claimsLike({ iat: 1_700_000_000, exp: 1_700_000_300 }));

    const response = await call('GET', '/api/v2/areas', { token: expired });

    expect(response.status).toBe(401);
    expect(response.body.data.reason).toBe('token_expired');
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description="/,
    );
  });

  it.each([
    { title: 'a malformed token', token: () => 'not.a.jwt' },
    { title: 'a token with a broken signature', token: () => `${admin.slice(0, -6)}AAAAAA` },
    {
      title: 'a token from an untrusted issuer',
      token: () => forgeToken(claimsLike({ iss: 'https://evil.example/realms/shared' })),
    },
    { title: 'a token for another audience', token: () => forgeToken(claimsLike({ aud: 'someone-else' })) },
    {
      title: 'a token of an unknown realm',
      token: () => forgeToken(claimsLike({ iss: `${baseUrl()}/realms/nowhere` })),
    },
    {
      title: 'a token naming an unknown workspace',
      token: () => forgeToken(claimsLike({ tenant_id: randomUUID() })),
    },
    {
      title: 'a token naming an unknown principal',
      token: () => forgeToken(claimsLike({ sub: randomUUID() })),
    },
  ])('answers token_invalid for $title', async ({ token }) => {
    const response = await call('GET', '/api/v2/areas', { token: token() });

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      type: problemType('authentication-required'),
      data: { reason: 'token_invalid' },
    });
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('answers token_invalid for a non-Bearer Authorization header', async () => {
    const response = await call('GET', '/api/v2/areas', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });

    expect(response.status).toBe(401);
    expect(response.body.data.reason).toBe('token_invalid');
  });
});

describe('Authentication: ambiguous credentials', () => {
  const get = (path: string, authorizations: string[]) =>
    rawRequest(baseUrl(), [
      `GET ${path} HTTP/1.1`,
      `Host: ${new URL(baseUrl()).host}`,
      ...authorizations.map((value) => `Authorization: ${value}`),
      'Connection: close',
    ]);

  it.each([
    { title: 'a genuine token and a forged one', second: () => 'Bearer not.a.jwt' },
    { title: 'the same genuine token twice', second: () => `Bearer ${admin}` },
    { title: 'a genuine token and no token', second: () => '' },
  ])('refuses two Authorization headers ($title) with token_invalid', async ({ second }) => {
    const response = await get('/api/v2/areas', [`Bearer ${admin}`, second()]);

    expect(response.status).toBe(401);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(response.body)).toMatchObject({
      type: problemType('authentication-required'),
      data: { reason: 'token_invalid' },
    });
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('refuses one Authorization header holding two comma-joined tokens (as API Gateway joins them)', async () => {
    const response = await call('GET', '/api/v2/areas', {
      headers: { authorization: `Bearer ${admin},Bearer ${admin}` },
    });

    expect(response.status).toBe(401);
    expect(response.body.data.reason).toBe('token_invalid');
  });

  it('refuses two Authorization headers at the userinfo endpoint with 401 invalid_token', async () => {
    const response = await get('/realms/shared/protocol/openid-connect/userinfo', [
      `Bearer ${admin}`,
      `Bearer ${admin}`,
    ]);

    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).error).toBe('invalid_token');
  });

  it('refuses two Basic client credentials at the token endpoint with 401 invalid_client', async () => {
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const form = 'grant_type=client_credentials';

    const response = await rawRequest(
      baseUrl(),
      [
        'POST /realms/shared/protocol/openid-connect/token HTTP/1.1',
        `Host: ${new URL(baseUrl()).host}`,
        `Authorization: ${basic('acme-admin', 's3cret-acme-admin')}`,
        `Authorization: ${basic('acme-owner', 'wrong')}`,
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${form.length}`,
        'Connection: close',
      ],
      form,
    );

    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).error).toBe('invalid_client');
  });
});

describe('Authentication: identity provider', () => {
  it('publishes discovery in the Keycloak layout and issues RS256 client-credentials tokens', async () => {
    const discovery: any = await (
      await fetch(`${baseUrl()}/realms/shared/.well-known/openid-configuration`)
    ).json();

    expect(discovery.issuer).toBe(`${baseUrl()}/realms/shared`);
    expect(discovery.token_endpoint).toBe(`${baseUrl()}/realms/shared/protocol/openid-connect/token`);
    expect(discovery.jwks_uri).toBe(`${baseUrl()}/realms/shared/protocol/openid-connect/certs`);
    const [header] = admin.split('.');
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString()).alg).toBe('RS256');
    expect(claimsOf(admin)).toMatchObject({ iss: `${baseUrl()}/realms/shared`, aud: 'fsm-api' });
  });

  it('rejects a wrong client secret with 401 invalid_client', async () => {
    const response = await fetch(`${baseUrl()}/realms/shared/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'acme-admin',
        client_secret: 'wrong',
      }),
    });

    expect(response.status).toBe(401);
    expect(((await response.json()) as any).error).toBe('invalid_client');
  });

  it('serves a dedicated realm whose tokens work only for its own workspace', async () => {
    const token = await tokenFor('dedicated-admin');

    expect(claimsOf(token).iss).toBe(`${baseUrl()}/realms/dedicated-corp`);
    expect((await call('GET', '/api/v2/areas', { token })).status).toBe(200);
    const crossRealm = forgeToken({ ...claimsOf(token), iss: `${baseUrl()}/realms/shared` });
    expect((await call('GET', '/api/v2/areas', { token: crossRealm })).body.data.reason).toBe(
      'token_invalid',
    );
  });
});

describe('Access: workspace state and grants', () => {
  it('answers 403 tenant-disabled with reason TENANT_INACTIVE for a deactivated workspace', async () => {
    const response = await call('GET', '/api/v2/areas', { token: await tokenFor('dormant-admin') });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      type: problemType('tenant-disabled'),
      data: { reason: 'TENANT_INACTIVE' },
    });
  });

  it('answers 402 tenant-billing-locked for a billing-locked workspace', async () => {
    const response = await call('GET', '/api/v2/tags', { token: await tokenFor('locked-admin') });

    expect(response.status).toBe(402);
    expect(response.body.type).toEqual(problemType('tenant-billing-locked'));
  });

  it('answers 403 access-denied naming the missing grants', async () => {
    const technician = await tokenFor('acme-technician');

    const response = await call('POST', '/api/v2/areas', {
      token: technician,
      body: { name: 'Not mine', color: '#000000' },
    });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      type: problemType('access-denied'),
      data: { reason: 'missing_grant', required_grants: ['areas:update'] },
    });
  });

  it.each([
    { client: 'acme-owner', status: 200 },
    { client: 'acme-admin', status: 200 },
    { client: 'acme-dispatcher', status: 403 },
    { client: 'acme-technician', status: 403 },
    { client: 'acme-driver', status: 403 },
  ])('lets $client read audit logs: $status', async ({ client, status }) => {
    const response = await call('GET', '/api/v2/audit-logs', { token: await tokenFor(client) });

    expect(response.status).toBe(status);
  });
});
