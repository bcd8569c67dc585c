/** How the identity provider reports a store outage and logs a failure. */
import { DataError } from '../data/data-error.ts';
import { IdentityStoreUnavailable } from './oidc-storage.ts';

/** Seconds a client should wait after a store outage (the SDK already retried 3 times). */
export const retryAfterSeconds = 1;

/** A table outage seen by our pages (DataError) or by oidc-provider's adapter. */
export function storeUnavailable(error: unknown): boolean {
  return (
    (error instanceof DataError && error.code === 'unavailable') || error instanceof IdentityStoreUnavailable
  );
}

/** Log fields of an error (not named `message`: that is the log line's own field). */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.name, errorMessage: error.message, stack: error.stack };
  return { error: String(error) };
}
