/**
 * What a verifier must check of an access token beyond the signature, issuer, audience and
 * expiry that aws-jwt-verify checks, from RFC 8725 (JWT best current practices), RFC 9068 (JWT
 * access tokens) and RFC 7515. Each rule names the attack it closes:
 *
 * - `typ` is `at+jwt` (RFC 8725 §3.11, RFC 9068 §4): explicit typing, so an ID token or any
 *   other JWT signed by the same key cannot pass as an access token.
 * - `alg` is RS256, the only algorithm the identity provider signs with (RFC 8725 §3.1): the
 *   library would accept any algorithm it supports that the key allows.
 * - no `crit` (RFC 7515 §4.1.11): we understand no extension, so a token that requires one
 *   must be refused, not silently accepted.
 * - no embedded key references (`jwk`, `jku`, `x5u`, `x5c`; RFC 8725 §3.10): keys come from the
 *   issuer's JWKS only. The library ignores them; refusing them makes that visible.
 * - `exp` is present (RFC 9068 §2.2): the library checks it only when it is there, and a token
 *   without one would be valid forever.
 * - `iat` and `nbf` are not in the future beyond a small clock skew (RFC 9068 §4): a token
 *   minted "later" is forged or comes from a clock that cannot be trusted.
 *
 * A `kid` of another realm needs no rule here: the JWKS is always the one of the token's own
 * issuer, so an unknown kid finds no key (401), never a key of another realm.
 */

/** Seconds a token's `iat`/`nbf` may lie ahead of this clock (the provider's may run ahead). */
export const clockSkewSeconds = 30;

export class AccessTokenProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccessTokenProfileError';
  }
}

const embeddedKeyHeaders = ['jwk', 'jku', 'x5u', 'x5c'] as const;

/** Throws AccessTokenProfileError when the decoded header and payload break a rule above. */
export function assertAccessTokenProfile(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  nowSeconds = Date.now() / 1000,
): void {
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase() : '';
  if (typ !== 'at+jwt' && typ !== 'application/at+jwt') {
    throw new AccessTokenProfileError('The token is not an access token (typ must be at+jwt).');
  }
  if (header.alg !== 'RS256') {
    throw new AccessTokenProfileError('The token must be signed with RS256.');
  }
  if ('crit' in header) {
    throw new AccessTokenProfileError('The token requires extensions (crit) that are not understood.');
  }
  for (const name of embeddedKeyHeaders) {
    if (name in header) {
      throw new AccessTokenProfileError(`The token carries a key reference (${name}) that is never trusted.`);
    }
  }
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) {
    throw new AccessTokenProfileError('The token has no expiry (exp).');
  }
  for (const claim of ['iat', 'nbf'] as const) {
    const value = payload[claim];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new AccessTokenProfileError(`The token's ${claim} is not a number.`);
    }
    if (value > nowSeconds + clockSkewSeconds) {
      throw new AccessTokenProfileError(`The token's ${claim} lies in the future.`);
    }
  }
}
