import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProblemError } from '../http/problem.ts';
import { generateSigningKey } from '../identity/signing-keys.ts';
import { bearerTokenOrThrow, verifyAccessTokenOrThrow } from './token-verifier.ts';

const issuer = 'http://127.0.0.1:3000/realms/shared';
let privateJwk: Record<string, unknown>;
let publicJwks: { keys: Array<Record<string, unknown>> };

beforeAll(async () => {
  privateJwk = (await generateSigningKey()) as Record<string, unknown>;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk;
  publicJwks = { keys: [publicJwk] };
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function tokenWith(
  claims: Record<string, unknown>,
  headerFields: Record<string, unknown> = {},
  digest = 'sha256',
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', typ: 'at+jwt', kid: privateJwk.kid, ...headerFields };
  const payload = {
    iss: issuer,
    aud: 'fsm-api',
    sub: randomUUID(),
    tenant_id: randomUUID(),
    iat: now,
    exp: now + 60,
    ...claims,
  };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  const key = createPrivateKey({ key: privateJwk as never, format: 'jwk' });
  return `${input}.${sign(digest, Buffer.from(input), key).toString('base64url')}`;
}

function serveJwks(status = 200) {
  const fetchJwks = vi.fn(async () => new Response(JSON.stringify(publicJwks), { status }));
  vi.stubGlobal('fetch', fetchJwks);
  return fetchJwks;
}

async function reasonOf(act: () => Promise<unknown>): Promise<string> {
  const error = await act().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ProblemError)) throw new Error(`expected a ProblemError, got ${String(error)}`);
  return error.type === 'authentication-required' ? String(error.init.data?.reason) : error.type;
}

describe('Function: verifyAccessTokenOrThrow', () => {
  it('accepts a well-signed token and names its realm, subject and workspace', async () => {
    // Prepare
    serveJwks();
    const token = tokenWith({ sub: 'principal-1', tenant_id: 'workspace-1', client_id: 'client-1' });

    // Act
    const verified = await verifyAccessTokenOrThrow(token);

    // Assess
    expect(verified).toEqual({
      realm: 'shared',
      subject: 'principal-1',
      workspaceId: 'workspace-1',
      clientId: 'client-1',
    });
  });

  it('verifies a repeated token once, and still refuses it once it has expired', async () => {
    // Prepare
    const fetchJwks = serveJwks();
    const token = tokenWith({ jti: randomUUID() });
    await verifyAccessTokenOrThrow(token);
    const callsAfterFirst = fetchJwks.mock.calls.length;

    // Act
    await verifyAccessTokenOrThrow(token);
    vi.useFakeTimers({ now: Date.now() + 120_000, toFake: ['Date'] });
    const reason = await reasonOf(() => verifyAccessTokenOrThrow(token));

    // Assess
    expect(fetchJwks.mock.calls.length).toBe(callsAfterFirst);
    expect(reason).toBe('token_expired');
  });

  it.each([
    {
      title: 'a token past its expiry',
      claims: { exp: Math.floor(Date.now() / 1000) - 10 },
      reason: 'token_expired',
    },
    { title: 'another audience', claims: { aud: 'another-api' }, reason: 'token_invalid' },
    {
      title: 'an issuer outside the realms',
      claims: { iss: 'https://idp.example/realms/shared' },
      reason: 'token_invalid',
    },
    { title: 'no workspace claim', claims: { tenant_id: undefined }, reason: 'token_invalid' },
  ])('refuses $title as $reason', async ({ claims, reason }) => {
    // Prepare
    serveJwks();

    // Act + Assess
    expect(await reasonOf(() => verifyAccessTokenOrThrow(tokenWith(claims)))).toBe(reason);
  });

  // RFC 7515 §4.1.11, RFC 8725 and RFC 9068: what the library leaves to us. Every token here
  // carries a genuine signature of the realm's key.
  it.each([
    { title: 'a crit header naming an unknown extension', header: { crit: ['exp-ext'], 'exp-ext': 1 } },
    { title: 'an empty crit header', header: { crit: [] } },
    { title: 'typ JWT (an ID token, not an access token)', header: { typ: 'JWT' } },
    { title: 'no typ', header: { typ: undefined } },
    { title: 'an embedded jwk', header: { jwk: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } } },
    { title: 'a jku pointing elsewhere', header: { jku: 'https://attacker.example/jwks' } },
    { title: 'a kid the realm does not have', header: { kid: 'key-of-another-realm' } },
    { title: 'no exp', claims: { exp: undefined } },
    { title: 'an iat in the future', claims: { iat: Math.floor(Date.now() / 1000) + 600 } },
    { title: 'an nbf in the future', claims: { nbf: Math.floor(Date.now() / 1000) + 600 } },
  ])('refuses a genuinely signed token with $title as token_invalid', async ({ header, claims }) => {
    // Prepare
    serveJwks();

    // Act + Assess
    expect(await reasonOf(() => verifyAccessTokenOrThrow(tokenWith(claims ?? {}, header ?? {})))).toBe(
      'token_invalid',
    );
  });

  it('refuses a token signed with RS384 by the realm key (alg is pinned to RS256)', async () => {
    // Prepare
    serveJwks();
    const token = tokenWith({}, { alg: 'RS384' }, 'sha384');

    // Act + Assess
    expect(await reasonOf(() => verifyAccessTokenOrThrow(token))).toBe('token_invalid');
  });

  it('accepts an iat a few seconds ahead of this clock (clock skew)', async () => {
    // Prepare
    serveJwks();
    const token = tokenWith({ iat: Math.floor(Date.now() / 1000) + 5 });

    // Act + Assess
    await expect(verifyAccessTokenOrThrow(token)).resolves.toMatchObject({ realm: 'shared' });
  });

  it('refuses a token whose realm has no keys (unknown realm) as token_invalid', async () => {
    // Prepare
    serveJwks(404);

    // Act + Assess
    expect(await reasonOf(() => verifyAccessTokenOrThrow(tokenWith({ iss: `${issuer}-gone` })))).toBe(
      'token_invalid',
    );
  });

  it('answers 503 service-unavailable, not 401, when the keys cannot be loaded', async () => {
    // Prepare
    serveJwks(500);

    // Act + Assess
    expect(await reasonOf(() => verifyAccessTokenOrThrow(tokenWith({ iss: `${issuer}-down` })))).toBe(
      'service-unavailable',
    );
  });
});

describe('Function: bearerTokenOrThrow', () => {
  it.each([
    { title: 'no header', header: undefined, reason: 'token_missing' },
    { title: 'a blank header', header: '  ', reason: 'token_missing' },
    { title: 'another scheme', header: 'Basic abc', reason: 'token_invalid' },
    { title: 'Bearer without a token', header: 'Bearer ', reason: 'token_invalid' },
    // API Gateway (and the local server) join repeated headers with a comma.
    { title: 'two joined Bearer credentials', header: 'Bearer a.b.c,Bearer d.e.f', reason: 'token_invalid' },
    {
      title: 'two credentials joined with ", "',
      header: 'Bearer a.b.c, Bearer d.e.f',
      reason: 'token_invalid',
    },
    { title: 'a token holding a comma', header: 'Bearer a.b,c', reason: 'token_invalid' },
    { title: 'a token with characters outside b64token', header: 'Bearer a.b.c"', reason: 'token_invalid' },
  ])('refuses $title as $reason', async ({ header, reason }) => {
    expect(await reasonOf(async () => bearerTokenOrThrow(header))).toBe(reason);
  });

  it('takes the token of a Bearer header, whatever the scheme case', () => {
    expect(bearerTokenOrThrow('bearer abc.def.ghi')).toBe('abc.def.ghi');
  });
});
