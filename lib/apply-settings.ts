/**
 * The AWS settings of the apply worker (queue, function, event sources), and why. Plain data (no
 * CDK import), so tests check the numbers without a synth.
 *
 * - The function's timeout bounds one apply: a plan of 1,000 cases on 100 shifts is about 1,300
 *   record writes, eight at a time, well within it.
 * - A message stays hidden longer than the function can live, so a redelivery of a message (the
 *   same message id) means the receive that had it died: the job taken up again finishes or undoes
 *   its own writes (apply-job.ts). The visibility timeout is the crash-recovery delay: kept short.
 * - Five receives, then the dead-letter queue, whose messages the same function takes: it undoes
 *   the apply and ends it FAILED.
 * - Its event sources ask for at most its reserved concurrency together (2 each: SQS's minimum).
 */
export const applyFunctionTimeoutSeconds = 120;
export const applyQueueVisibilitySeconds = applyFunctionTimeoutSeconds + 30;
export const applyMaxReceiveCount = 5;
export const applyRetentionSeconds = 4 * 24 * 3600;
export const applyDeadLetterRetentionSeconds = 14 * 24 * 3600;
export const applyBatchSize = 1;
/** Applies at once per event source (SQS's minimum), and the function's reserved concurrency. */
export const applyMappingConcurrency = 2;
export const applyReservedConcurrency = 2 * applyMappingConcurrency;

/** Fails when the settings above cannot serve their rules (checked at synth and in tests). */
export function assertApplySettingsOrThrow(): void {
  if (applyQueueVisibilitySeconds <= applyFunctionTimeoutSeconds) {
    throw new Error('A message must stay hidden longer than a live apply can run.');
  }
  if (applyRetentionSeconds <= applyMaxReceiveCount * applyQueueVisibilitySeconds) {
    throw new Error('Apply messages could expire before they are dead-lettered.');
  }
  if (2 * applyMappingConcurrency > applyReservedConcurrency) {
    throw new Error('The apply worker’s event sources must fit its reserved concurrency.');
  }
}
