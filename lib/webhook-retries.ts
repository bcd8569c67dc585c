/**
 * The AWS settings of webhook delivery (queue, event source, function timeout, alarm), derived
 * from the retry schedule in shared/webhooks/retry-schedule.ts, which stays its single source.
 *
 * Waiting deliveries are delayed messages, never in-flight ones: SQS holds only about 120,000
 * in-flight messages per queue, so one tenant's outage parked in visibility timeouts would stall
 * every tenant. A failed attempt re-sends the next attempt with DelaySeconds (at most 900) and
 * its due time; a message received before it is due re-sends itself for the rest of the wait (a
 * hop). The queue therefore needs no delay of its own, its visibility timeout only covers one
 * run of the function, and its dead-letter queue catches only messages whose receives crashed
 * repeatedly. Design and cost per retry step: docs/webhook-delivery.md.
 *
 * Plain data (no CDK import), so the tests can check the numbers without a synth.
 */
import { clientDeadlines } from '../shared/aws/client-deadlines.ts';
import { resolveTimeoutMs } from '../shared/webhooks/destination.ts';
import {
  connectTimeoutMs,
  maxAttempts,
  maxDelaySeconds,
  responseTimeoutMs,
  retryDelaysSeconds,
} from '../shared/webhooks/retry-schedule.ts';

export { maxAttempts, maxDelaySeconds, retryDelaysSeconds };

/**
 * Messages a wait of `delaySeconds` takes: each is delayed by at most 900 s, and the first one
 * is the re-send by the failed attempt, so 30 min is 2, 1 h is 4 and 2 h is 8.
 */
export function hopsFor(delaySeconds: number): number {
  return Math.max(1, Math.ceil(delaySeconds / maxDelaySeconds));
}

/** Messages per retry step of the schedule: [1, 1, 1, 2, 4, 8]. */
export const hopsPerRetryStep = retryDelaysSeconds.map(hopsFor);

/** Messages one delivery takes when every attempt fails: the first attempt plus every hop (18). */
export const messagesPerExhaustedDelivery = 1 + hopsPerRetryStep.reduce((sum, hops) => sum + hops, 0);

/**
 * The longest one message can take, in seconds, on the path that does most: resolve the name
 * again, connect, wait for the answer, read the endpoint and the failure row, write the row (a
 * transaction, then a put when the row exists), re-send the next attempt, plus the second the
 * worker sleeps for a message due within it. The SQS client has per-attempt deadlines but no
 * total one, so its send counts every attempt in full. A batch's messages run concurrently, so
 * this bounds the batch too.
 */
export const deliveryWorstCaseSeconds =
  (resolveTimeoutMs + connectTimeoutMs + responseTimeoutMs) / 1000 +
  (4 * clientDeadlines.totalMs) / 1000 +
  (clientDeadlines.maxAttempts * (clientDeadlines.connectMs + clientDeadlines.attemptMs)) / 1000 +
  1;

/** Timeout of the delivery function: the worst case above with room for a slow start. */
export const deliveryFunctionTimeoutSeconds = 40;

/**
 * AWS's guidance for a queue that triggers Lambda: six times the function timeout, so a batch
 * that Lambda retries after a throttle is not handed out twice. It only hides a message while a
 * run holds it (or after that run crashed), never while the message waits for its attempt.
 */
export const deliveryQueueVisibilitySeconds = 6 * deliveryFunctionTimeoutSeconds;

/**
 * Receives after which SQS moves a message to the dead-letter queue. A settled message is
 * deleted after one receive (a hop or a retry is a new message with a fresh count), so only a
 * message whose runs crashed or timed out gets here: five receives are about 20 minutes of a
 * failing table or queue (4 × the visibility timeout), enough to ride out a short outage.
 */
export const deliveryMaxReceiveCount = 5;

/**
 * A message lives at most one hop (900 s) plus its runs, and a crashed one a few visibility
 * timeouts more. The rest is the time an operator has to repair a stopped worker before
 * deliveries are lost: four days cover a long weekend.
 */
export const deliveryRetentionSeconds = 4 * 24 * 3600;

/** Standard queues expire a dead letter by its first enqueue time: keep it longer than that. */
export const deadLetterRetentionSeconds = 14 * 24 * 3600;

/** The event source mapping: full batches, handled concurrently by the handler. */
export const deliveryBatchSize = 10;
/** Short: the first attempt should leave at once, and waits are counted by due_at anyway. */
export const deliveryBatchingWindowSeconds = 1;
/**
 * Concurrent invocations the event source may start: 20 × 10 = 200 attempts at once, about
 * 500 deliveries a second to receivers answering in 0.4 s, and still 25 a second when every
 * receiver times out (8 s). Bounded so that a backlog (after an outage, or a burst of events)
 * cannot take the account's concurrency from the API functions or flood the table. At this
 * limit the mapping stops receiving, whereas a throttled invocation would hand its messages
 * back and spend a receive count of each. It also keeps the queue's in-flight messages near 200.
 */
export const deliveryMaxConcurrency = 20;

/**
 * The age of the oldest message above which the worker is stuck or far behind. A healthy queue
 * holds nothing older than one hop (900 s) plus a batch window and a run; a message whose run
 * crashed once adds a visibility timeout (about 1,180 s in all). 30 minutes means some delivery
 * is at least 15 minutes past its due time: a stopped or disabled event source, a broken
 * deploy, or a backlog the concurrency above cannot drain.
 */
export const oldestMessageAlarmSeconds = 1800;

/** Fails when the settings above cannot serve the schedule (checked at synth and in tests). */
export function assertDeliverySettingsOrThrow(): void {
  if (deliveryWorstCaseSeconds > deliveryFunctionTimeoutSeconds) {
    throw new Error(
      `A webhook delivery can take ${deliveryWorstCaseSeconds} s, longer than the function timeout.`,
    );
  }
  if (deliveryQueueVisibilitySeconds < 6 * deliveryFunctionTimeoutSeconds) {
    throw new Error('The delivery queue must hide a message for six function timeouts.');
  }
  const healthyOldest =
    maxDelaySeconds +
    deliveryBatchingWindowSeconds +
    deliveryFunctionTimeoutSeconds +
    deliveryQueueVisibilitySeconds;
  if (oldestMessageAlarmSeconds <= healthyOldest) {
    throw new Error('The oldest-message alarm would fire on a healthy queue.');
  }
  const longestLife = maxDelaySeconds + deliveryMaxReceiveCount * deliveryQueueVisibilitySeconds;
  if (deliveryRetentionSeconds <= longestLife || deadLetterRetentionSeconds <= deliveryRetentionSeconds) {
    throw new Error('Delivery messages could expire before they are handled or dead-lettered.');
  }
}
