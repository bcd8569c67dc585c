/**
 * Access-token verification (aws-jwt-verify): RS256 signature against the realm's JWKS, issuer,
 * audience and expiry, plus the profile rules the library leaves to us (access-token-profile.ts). Issuers are `${authUrl}/realms/<realm>`; one verifier per realm is
 * built on first use and keeps its JWKS cached for the container's life (unknown key ids
 * trigger one refetch, rate-limited by the library's penalty box).
 * API Gateway's JWT authorizer cannot answer with problem documents, so this runs in-function.
 */
import { JwtVerifier } from 'aws-jwt-verify';
import {
  FetchError,
  JwksNotAvailableInCacheError,
  JwtBaseError,
  JwtExpiredError,
} from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { decomposeUnverifiedJwt } from 'aws-jwt-verify/jwt';
import { config } from '../config.ts';
import { ProblemError } from '../http/problem.ts';
import { AccessTokenProfileError, assertAccessTokenProfile } from './access-token-profile.ts';
import { realmNamePattern } from './realm-name.ts';

export interface VerifiedToken {
  realm: string;
  subject: string;
  workspaceId: string;
  clientId?: string;
}

export type TokenFailure = 'token_missing' | 'token_expired' | 'token_invalid';

/** The issuer's JWKS does not exist: the realm is unknown, so the token cannot be ours. */
class UnknownIssuerError extends Error {}

// A fetch-based fetcher, because the library's own refuses http:// (the local stack's JWKS).
const jwksCache = new SimpleJwksCache({
  fetcher: {
    async fetch(uri: string) {
      const response = await fetch(uri, { signal: AbortSignal.timeout(3000) });
      if (response.status === 404) throw new UnknownIssuerError(uri);
      if (!response.ok) throw new FetchError(uri, `JWKS endpoint answered ${response.status}`);
      return response.arrayBuffer();
    },
  },
});

const verifiers = new Map<string, { verify(token: string): Promise<Record<string, unknown>> }>();

function verifierFor(issuer: string) {
  let verifier = verifiers.get(issuer);
  if (!verifier) {
    const created = JwtVerifier.create(
      { issuer, audience: config().apiAudience, jwksUri: `${issuer}/protocol/openid-connect/certs` },
      { jwksCache },
    );
    verifier = { verify: (token) => created.verify(token) as Promise<Record<string, unknown>> };
    // Tokens naming made-up realms must not grow this map without bound.
    if (verifiers.size >= 1000) verifiers.clear();
    verifiers.set(issuer, verifier);
  }
  return verifier;
}

export function authenticationProblem(reason: TokenFailure, description?: string): ProblemError {
  const challenge =
    reason === 'token_missing'
      ? 'Bearer'
      : `Bearer error="invalid_token", error_description="${(description ?? reason).replace(/"/g, "'")}"`;
  return new ProblemError('authentication-required', {
    detail: description ?? 'A valid bearer token is required.',
    data: { reason },
    headers: { 'www-authenticate': challenge },
  });
}

/**
 * The bearer token of an Authorization header, or the 401 that its absence or shape deserves.
 * Two Authorization headers are an ambiguous credential: the local server and API Gateway both
 * hand them over joined with a comma, and no token (RFC 6750 b64token) holds one, so a comma is
 * refused outright instead of picking one of the credentials.
 */
export function bearerTokenOrThrow(authorization: string | undefined): string {
  if (!authorization || authorization.trim() === '')
    throw authenticationProblem('token_missing', 'No bearer token was sent.');
  if (authorization.includes(','))
    throw authenticationProblem(
      'token_invalid',
      'More than one credential was sent (several Authorization headers); send exactly one.',
    );
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  if (!match?.[1])
    throw authenticationProblem('token_invalid', 'The Authorization header is not a Bearer token.');
  return match[1];
}

/**
 * Tokens whose signature and claims were verified, until their expiry: a client sends the same
 * token many times, and the RSA check plus key import is most of what authentication costs.
 * Keyed by the whole token string, so only an identical token hits; expiry is checked on every
 * hit. Bounded; cleared wholesale when full.
 */
const verifiedTokens = new Map<string, { token: VerifiedToken; expiresAt: number }>();
const maxVerifiedTokens = 10_000;

export async function verifyAccessTokenOrThrow(token: string): Promise<VerifiedToken> {
  const hit = verifiedTokens.get(token);
  if (hit) {
    if (hit.expiresAt > Date.now() / 1000) return hit.token;
    verifiedTokens.delete(token);
    throw authenticationProblem('token_expired', 'The token has expired.');
  }
  const verified = await verifyUncachedOrThrow(token);
  if (verifiedTokens.size >= maxVerifiedTokens) verifiedTokens.clear();
  verifiedTokens.set(token, verified);
  return verified.token;
}

async function verifyUncachedOrThrow(token: string): Promise<{ token: VerifiedToken; expiresAt: number }> {
  let issuer: string;
  try {
    const { header, payload } = decomposeUnverifiedJwt(token);
    issuer = String(payload.iss ?? '');
    // Checked before the signature: a token that breaks the profile is refused without
    // fetching keys, and one with a genuine signature is refused all the same.
    assertAccessTokenProfile(header, payload);
  } catch (error) {
    if (error instanceof AccessTokenProfileError) throw authenticationProblem('token_invalid', error.message);
    throw authenticationProblem('token_invalid', 'The token is not a well-formed JWT.');
  }
  const prefix = `${config().authUrl}/realms/`;
  const realm = issuer.startsWith(prefix) ? issuer.slice(prefix.length) : '';
  if (!realmNamePattern.test(realm))
    throw authenticationProblem('token_invalid', 'The token issuer is not trusted.');

  let claims: Record<string, unknown>;
  try {
    claims = await verifierFor(issuer).verify(token);
  } catch (error) {
    if (error instanceof UnknownIssuerError)
      throw authenticationProblem('token_invalid', 'The token issuer is not trusted.');
    if (error instanceof JwtExpiredError)
      throw authenticationProblem('token_expired', 'The token has expired.');
    if (error instanceof FetchError || error instanceof JwksNotAvailableInCacheError) {
      throw new ProblemError('service-unavailable', {
        detail: 'The identity provider keys could not be loaded.',
      });
    }
    if (error instanceof JwtBaseError)
      throw authenticationProblem('token_invalid', 'The token could not be verified.');
    throw error;
  }
  const subject = claims.sub;
  const workspaceId = claims.tenant_id;
  if (typeof subject !== 'string' || typeof workspaceId !== 'string') {
    throw authenticationProblem('token_invalid', 'The token does not name a workspace principal.');
  }
  return {
    token: {
      realm,
      subject,
      workspaceId,
      ...(typeof claims.client_id === 'string' ? { clientId: claims.client_id } : {}),
    },
    expiresAt: typeof claims.exp === 'number' ? claims.exp : 0,
  };
}
