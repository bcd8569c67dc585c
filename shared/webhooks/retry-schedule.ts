/**
 * The webhook retry schedule (SPEC.md, Events → Webhooks → Retries): one attempt plus six
 * retries, each delay counted from the previous attempt. Plain data, read by the delivery
 * worker at run time and by the CDK stacks (lib/webhook-retries.ts) for the queue settings.
 */

/** Delay before retry n, in seconds: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h. */
export const retryDelaysSeconds = [30, 120, 600, 1800, 3600, 7200] as const;

/** The first attempt plus one per retry. */
export const maxAttempts = retryDelaysSeconds.length + 1;

/** A 429 backs off at least this long, or the receiver's Retry-After when that is longer. */
export const tooManyRequestsFloorSeconds = 300;

/**
 * A receiver's Retry-After is honoured up to a day: a longer one would keep its message hopping
 * (one message per 900 s) past the life of its failure row.
 */
export const maxRetryAfterSeconds = 86_400;

/** SQS's cap on DelaySeconds: longer waits are served in hops of at most this much. */
export const maxDelaySeconds = 900;

/** Deadlines of one attempt; real time, never scaled by FSM_TIME_SCALE. */
export const connectTimeoutMs = 3_000;
export const responseTimeoutMs = 5_000;

/**
 * Seconds to wait after failed attempt `attempt` (1-based) before the next one, or undefined
 * when that was the last. `retryAfterSeconds` is the receiver's Retry-After on a 429.
 * `timeScale` (FSM_TIME_SCALE) multiplies every delay, the 429 floor included.
 */
export function nextDelaySeconds(
  attempt: number,
  opts: { status?: number; retryAfterSeconds?: number; timeScale?: number } = {},
): number | undefined {
  const base = retryDelaysSeconds[attempt - 1];
  if (base === undefined) return undefined;
  const scale = opts.timeScale ?? 1;
  let delay = base * scale;
  if (opts.status === 429) {
    const retryAfter = Math.min(opts.retryAfterSeconds ?? 0, maxRetryAfterSeconds);
    delay = Math.max(delay, tooManyRequestsFloorSeconds * scale, retryAfter);
  }
  return delay;
}
