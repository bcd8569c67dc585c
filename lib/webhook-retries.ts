/**
 * The webhook retry schedule and the SQS settings that follow from it.
 *
 * SQS caps DelaySeconds (per queue and per message) at 900 s, so 30 min, 1 h and 2 h cannot
 * be delays. They are visibility timeouts instead, whose cap is 12 h:
 *
 *   1. A delivery is one message on the delivery queue (no delay: first attempt at once).
 *   2. Lambda receives it (ApproximateReceiveCount = attempt number) and calls the endpoint.
 *   3. On failure the function calls ChangeMessageVisibility(receipt handle,
 *      retryDelaysSeconds[attempt - 1]) and reports the message in `batchItemFailures`.
 *      Lambda leaves failed messages alone, so SQS hands it out again exactly that much later.
 *   4. After the last attempt the function sets visibility 0; the next receive exceeds
 *      maxReceiveCount and SQS moves the message to the dead-letter queue.
 *
 * No re-sends and no hop counting: every attempt is one receive, the attempt number is kept by
 * SQS, and the DLQ is SQS's own redrive. The alternatives were worse: chaining delay queues
 * reaches 2 h only by re-sending the message eight times through a 900 s queue (eight
 * invocations that do nothing), and EventBridge Scheduler adds a schedule per retry.
 *
 * Plain data (no CDK import): the delivery function gets the schedule through
 * FSM_WEBHOOK_RETRY_DELAYS, so the schedule has one source.
 */

/** Delay before retry n (seconds): 5 s, 5 min, 30 min, 1 h, 2 h. */
export const retryDelaysSeconds = [5, 300, 1800, 3600, 7200] as const;

/** Every attempt is one receive: the first delivery plus one per retry. */
export const maxDeliveryAttempts = retryDelaysSeconds.length + 1;

/** SQS's visibility-timeout cap: a single retry step can be at most this long. */
export const maxVisibilityTimeoutSeconds = 12 * 3600;

/** SQS's DelaySeconds cap, which is why the steps above are not delays. */
export const maxDelaySeconds = 900;

/** Timeout of the delivery function; the queue's default visibility is six times this (AWS's guidance). */
export const deliveryFunctionTimeoutSeconds = 30;
export const deliveryQueueVisibilitySeconds = 6 * deliveryFunctionTimeoutSeconds;

/** Messages must outlive the whole schedule with margin; 14 days is the SQS maximum. */
export const deliveryRetentionSeconds = 14 * 24 * 3600;

/** `5,300,1800,3600,7200`, the value of FSM_WEBHOOK_RETRY_DELAYS. */
export function retryDelaysEnvValue(): string {
  return retryDelaysSeconds.join(',');
}

/** Fails when the schedule cannot be served by this queue design (checked at synth and in tests). */
export function assertRetryScheduleFitsOrThrow(): void {
  const total = retryDelaysSeconds.reduce((sum, delay) => sum + delay + deliveryQueueVisibilitySeconds, 0);
  for (const delay of retryDelaysSeconds) {
    if (delay > maxVisibilityTimeoutSeconds) {
      throw new Error(`A webhook retry step of ${delay} s exceeds SQS's 12 h visibility timeout cap.`);
    }
  }
  if (total >= deliveryRetentionSeconds) {
    throw new Error('The webhook retry schedule outlasts the delivery queue retention.');
  }
}
