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
