/**
 * Why one delivery attempt got no acknowledgement, as a closed set a client can branch on
 * (POST /api/v2/webhooks/send-test answers it as `failure_reason`). Each reason is what the
 * attempt itself tells apart (destination.ts before connecting, http-attempt.ts on the wire), so
 * the set grows only with a new distinction there; the free-text detail stays in the failure
 * records' `last_error`.
 */

export const attemptFailureReasons = {
  DESTINATION_REFUSED:
    'The URL or the addresses it resolves to may not receive webhooks (not https, a private, loopback or ' +
    'reserved address). Plain http and loopback receivers work only where local delivery is on ' +
    '(FSM_WEBHOOK_ALLOW_LOCAL=true, development only).',
  DNS_FAILED: "The endpoint URL's host name did not resolve (no such name, or no answer in time).",
  CONNECT_TIMEOUT: 'No connection (TCP and TLS) within about 3 s.',
  TLS_FAILED: 'The TLS handshake failed (a certificate that is untrusted, expired or for another name).',
  CONNECTION_FAILED:
    'The connection was refused, reset or closed before a complete answer, or the host or network was unreachable.',
  RESPONSE_TIMEOUT: 'Connected, but no complete answer within 5 s.',
  INVALID_RESPONSE: 'The answer was not valid HTTP.',
  REDIRECT_NOT_FOLLOWED: 'The receiver answered 3xx; redirects are never followed: register the final URL.',
  NON_2XX_RESPONSE: 'The receiver answered with a status that is neither 2xx nor a redirect.',
} as const;

export type AttemptFailureReason = keyof typeof attemptFailureReasons;

export const attemptFailureReasonNames = Object.keys(attemptFailureReasons) as [
  AttemptFailureReason,
  ...AttemptFailureReason[],
];

/** The reason of an answer that arrived with a status that does not acknowledge. */
export function failureOfStatus(status: number): AttemptFailureReason {
  return status >= 300 && status < 400 ? 'REDIRECT_NOT_FOLLOWED' : 'NON_2XX_RESPONSE';
}
