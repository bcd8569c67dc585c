import { describe, expect, it } from 'vitest';
import { derivedSecret, formTokens } from './csrf.ts';

const forms = formTokens('key-one');

describe('form tokens (CSRF)', () => {
  it('accepts the token of the same purpose and subject, also from another instance with the same key', () => {
    const token = forms.tokenFor('login', 'uid-1');

    expect(forms.matches('login', 'uid-1', token)).toBe(true);
    expect(formTokens('key-one').matches('login', 'uid-1', token)).toBe(true);
  });

  it.each([
    { title: 'another subject', purpose: 'login' as const, subject: 'uid-2', key: 'key-one' },
    { title: 'another purpose', purpose: 'set-password' as const, subject: 'uid-1', key: 'key-one' },
    { title: 'another key', purpose: 'login' as const, subject: 'uid-1', key: 'key-two' },
  ])('refuses the token for $title', ({ purpose, subject, key }) => {
    const token = forms.tokenFor('login', 'uid-1');

    expect(formTokens(key).matches(purpose, subject, token)).toBe(false);
  });

  it.each([
    { title: 'missing', given: null },
    { title: 'empty', given: '' },
    { title: 'truncated', given: forms.tokenFor('login', 'uid-1').slice(0, -2) },
    { title: 'padded with a stray character', given: `${forms.tokenFor('login', 'uid-1')}!` },
  ])('refuses a $title token', ({ given }) => {
    expect(forms.matches('login', 'uid-1', given)).toBe(false);
  });

  it('derives different, stable secrets per label from the signing key', () => {
    const keys = [{ kty: 'RSA', d: 'private-exponent' }];

    expect(derivedSecret(keys, 'a')).toBe(derivedSecret(keys, 'a'));
    expect(derivedSecret(keys, 'a')).not.toBe(derivedSecret(keys, 'b'));
    expect(() => derivedSecret([{ kty: 'RSA' }], 'a')).toThrow(/no private key/);
  });
});
