/**
 * Brute-force protection of password checks, two counters:
 *
 * - per user, `failed_logins` on the credential item: consecutive failures since the last
 *   success, unblock or activation. Reaching FSM_LOGIN_MAX_FAILURES (default 10,
 *   API-DECISIONS.md) blocks the user (status BLOCKED) until an admin unblocks or activates.
 * - per client address and realm, `failed` on a login-address item that lives for one window
 *   of FSM_LOGIN_ADDRESS_WINDOW_SECONDS (default 900). Past FSM_LOGIN_ADDRESS_MAX_FAILURES
 *   (default 100) failures in the window, sign-ins from the address are refused without
 *   checking anything until the window ends.
 *
 * Windows are aligned to multiples of their length (epoch-based), so the end of the current
 * window, and with it Retry-After, is known without reading the item's expiry.
 * Limits are read on every call, so a test (or an operator) can change them without a restart.
 */
import { credentialStore } from './credential.store.ts';
import { loginAddressStore } from './login-address.store.ts';

export interface LoginLimits {
  /** Consecutive failed sign-ins that block a user. */
  maxFailures: number;
  /** Failed sign-ins per address and window before the address is throttled. */
  addressMaxFailures: number;
  addressWindowSeconds: number;
}

function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function loginLimits(env: NodeJS.ProcessEnv = process.env): LoginLimits {
  return {
    maxFailures: positiveInteger(env.FSM_LOGIN_MAX_FAILURES, 10),
    addressMaxFailures: positiveInteger(env.FSM_LOGIN_ADDRESS_MAX_FAILURES, 100),
    addressWindowSeconds: positiveInteger(env.FSM_LOGIN_ADDRESS_WINDOW_SECONDS, 900),
  };
}

/** End (Unix seconds) of the aligned window that contains `nowSeconds`. */
export function windowEnd(nowSeconds: number, windowSeconds: number): number {
  return (Math.floor(nowSeconds / windowSeconds) + 1) * windowSeconds;
}

const nowSeconds = () => Date.now() / 1000;

/** Seconds until the address may try again, or undefined when it is not throttled. */
export async function addressThrottledFor(realm: string, address: string): Promise<number | undefined> {
  const limits = loginLimits();
  if ((await loginAddressStore.of(realm).failures(address)) < limits.addressMaxFailures) return undefined;
  const now = nowSeconds();
  return Math.max(1, Math.ceil(windowEnd(now, limits.addressWindowSeconds) - now));
}

/** Count a failed sign-in of a client address (the item expires with its window). */
export async function countAddressFailure(realm: string, address: string): Promise<void> {
  const { addressWindowSeconds } = loginLimits();
  await loginAddressStore.of(realm).countFailure(address, windowEnd(nowSeconds(), addressWindowSeconds));
}

/** Count a failed password check of a user; returns the consecutive failures so far. */
export function countUserFailure(workspaceId: string, userId: string): Promise<number> {
  return credentialStore.of(workspaceId).countFailure(userId);
}
