/**
 * One signed attempt to deliver a body to an endpoint, as every path makes it (the worker, the
 * test event, a redelivery by hand): resolve the name again and check every address (SSRF
 * rules, destination.ts), pin the connection to the checked address, sign with the endpoint's
 * current secret, POST within the deadlines, follow no redirect (http-attempt.ts).
 */
import { config } from '../config.ts';
import { resolveDestination } from './destination.ts';
import type { AttemptFailureReason } from './failure-reason.ts';
import { postWebhook } from './http-attempt.ts';
import { signedHeaders } from './signature.ts';

export interface AttemptOutcome {
  ok: boolean;
  /** When the attempt was made (ISO). */
  at: string;
  status?: number;
  retryAfterSeconds?: number;
  /** Why there is no usable answer: refused destination, DNS, connect or response timeout. */
  error?: string;
  /** Unless ok: why, as the closed set of failure-reason.ts. */
  failure?: AttemptFailureReason;
  /** Up to 4 KiB of the receiver's answer. */
  response?: string;
}

/**
 * The last attempt's status, error and answer as a failure row's fields; fields of an earlier
 * attempt do not linger. Here rather than in the worker, so that redeliveries by hand (the
 * webhooks API) do not import the worker and its queue.
 */
export function outcomeFields(outcome: AttemptOutcome) {
  return {
    last_attempt_at: outcome.at,
    ...(outcome.status !== undefined ? { last_status_code: outcome.status } : {}),
    ...(outcome.error !== undefined ? { last_error: outcome.error } : {}),
    ...(outcome.response !== undefined ? { last_response: outcome.response } : {}),
  };
}

export interface AttemptTarget {
  endpoint_url: string;
  secret: string;
}

export async function attemptDelivery(
  target: AttemptTarget,
  delivery: { id: string; body: string; requestId: string },
): Promise<AttemptOutcome> {
  const at = new Date().toISOString();
  const { allowLocal, dnsServers } = config().webhooks;
  const resolved = await resolveDestination(target.endpoint_url, {
    allowLocal,
    ...(dnsServers ? { dnsServers } : {}),
  });
  if (!resolved.ok) return { ok: false, at, error: resolved.error, failure: resolved.failure };
  const result = await postWebhook({
    destination: resolved.destination,
    body: delivery.body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'fsm-webhooks/1',
      'request-id': delivery.requestId,
      ...signedHeaders(target.secret, delivery.id, delivery.body),
    },
  });
  return {
    ok: result.ok,
    at,
    ...(result.status !== undefined ? { status: result.status } : {}),
    ...(result.retryAfterSeconds !== undefined ? { retryAfterSeconds: result.retryAfterSeconds } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.failure !== undefined ? { failure: result.failure } : {}),
    ...(result.responseSnippet ? { response: result.responseSnippet } : {}),
  };
}
