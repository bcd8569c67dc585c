/**
 * Form tokens (CSRF) of the provider's pages, and the secrets derived from the signing key.
 *
 * A form token is an HMAC over what the form acts on (the interaction uid of a login, the link
 * token of a set-password form) under a key derived from the token-signing key. It needs no
 * storage, survives restarts and works on every container that holds the same key, while only
 * a page this provider rendered can know it. Comparison is in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { JsonWebKey } from './signing-keys.ts';

/** What a form token is bound to, so a token of one form is never valid for another. */
export type FormPurpose = 'login' | 'set-password';

/** A secret derived from the private signing key, one per `label` (stable across restarts). */
export function derivedSecret(keys: JsonWebKey[], label: string): string {
  const secret = keys[0]?.d;
  if (!secret) throw new Error('the signing key store returned no private key');
  return createHmac('sha256', secret).update(label).digest('base64url');
}

export interface FormTokens {
  tokenFor(purpose: FormPurpose, subject: string): string;
  /** Whether `given` is the token of this purpose and subject; false for a missing token. */
  matches(purpose: FormPurpose, subject: string, given: string | null | undefined): boolean;
}

export function formTokens(key: string): FormTokens {
  const compute = (purpose: FormPurpose, subject: string) =>
    createHmac('sha256', key).update(`${purpose}\n${subject}`).digest();
  return {
    tokenFor: (purpose, subject) => compute(purpose, subject).toString('base64url'),
    matches(purpose, subject, given) {
      if (!given) return false;
      const expected = compute(purpose, subject);
      const actual = Buffer.from(given, 'base64url');
      // Only the canonical encoding counts (the decoder skips stray characters). Length first:
      // timingSafeEqual needs equal lengths, and the length is no secret.
      if (actual.toString('base64url') !== given || actual.length !== expected.length) return false;
      return timingSafeEqual(actual, expected);
    },
  };
}

/**
 * Whether a form POST of our pages may be processed. A form token that is sent must match.
 * Without one, the request must not come from another site: browsers always send `Origin`
 * (and `Sec-Fetch-Site`) with a form post, so a cross-site forgery is still recognised, and
 * the interaction cookie is SameSite=Lax, so it is not even sent along. Clients that are not
 * browsers (scripts and test suites driving the flow) cannot be abused for CSRF and may leave
 * the hidden field out.
 */
export function formPostAllowed(
  headers: Record<string, string | string[] | undefined>,
  publicOrigin: string,
  token: { given: string | null; matches: boolean },
): boolean {
  if (token.given) return token.matches;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = headers.origin;
  return origin === undefined || origin === publicOrigin;
}
