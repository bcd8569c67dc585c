/** Receivers verify our deliveries with the Standard Webhooks reference library. */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSecret, signedHeaders } from './signature.ts';

describe('Webhook signatures', () => {
  it('verify with the reference library, byte for byte', () => {
    const secret = newSecret();
    const body = '{"type":"area.created","id":"x","data":{"object":{"name":"Zürich – Nord"}}}';
    const headers = signedHeaders(secret, '018f0c4e-1111-7000-8000-000000000001', body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('fail verification with another secret or a changed body', () => {
    const secret = newSecret();
    const headers = signedHeaders(secret, 'id-1', '{"a":1}');
    expect(() => new Webhook(newSecret()).verify('{"a":1}', { ...headers })).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(secret).verify('{"a":2}', { ...headers })).toThrow(WebhookVerificationError);
  });

  it('makes secrets of whsec_ and 32 random bytes', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
  });
});
