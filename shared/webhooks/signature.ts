/**
 * Standard Webhooks v1 signatures and `whsec_` secrets. Signing goes through the reference
 * library (standardwebhooks), so what receivers verify with it is what we sign by construction.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** Headers of one attempt; the timestamp is the signing time in Unix seconds. */
export function signedHeaders(
  secret: string,
  deliveryId: string,
  body: string,
  at = new Date(),
): SignedHeaders {
  // The library signs whole seconds; sign exactly what the timestamp header says.
  const signedAt = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(deliveryId, signedAt, body),
  };
}
