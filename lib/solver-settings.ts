/**
 * The AWS settings of the solver (queue, function, event source, alarms), derived from the
 * rules of a run (shared/domain/optimization-runs/optimization-run-statuses.ts), which stay
 * their single source. Plain data (no CDK import), so tests check the numbers without a synth.
 *
 * - The function's timeout covers a run's longest life: the preparation budget (reading the
 *   records and the travel matrix), the longest time limit from the search's start, and the grace
 *   for writing the answer. So a healthy solver is never cut off before its run's deadline, and
 *   once a read calls a run stalled its invocation has ended or is about to (its answer would be
 *   refused anyway: the success is conditional on the run still being RUNNING).
 * - A message stays hidden for six function timeouts (AWS's guidance for a queue that triggers
 *   Lambda). A receive that died (out of memory, the timeout) lets its message come back once
 *   that has passed, long after its run's deadline: that receive fails the run as stalled
 *   (solver-job.ts), if a read has not already. A message delivered twice sooner (SQS delivers at
 *   least once) finds its run within its deadline and leaves it to the receive that took it.
 * - Three receives, then the dead-letter queue, whose messages the same function takes too: it
 *   fails their runs (a run is never left QUEUED for good), and the queue's depth alarm tells an
 *   operator.
 * - The two event-source mappings together never ask for more invocations than the function's
 *   reserved concurrency (`solverMappingConcurrencyOrThrow`): a throttled invocation spends a
 *   receive of its message.
 */
import {
  preparationBudgetSeconds,
  queueTimeoutSeconds,
  stallGraceSeconds,
  timeLimits,
} from '../shared/domain/optimization-runs/optimization-run-statuses.ts';

/** The longest a run may take from being taken up to its answer. */
const longestRunSeconds = preparationBudgetSeconds + timeLimits.max + stallGraceSeconds;

export const solverFunctionTimeoutSeconds = longestRunSeconds;
export const solverQueueVisibilitySeconds = 6 * solverFunctionTimeoutSeconds;
export const solverMaxReceiveCount = 3;
/**
 * A run waits in the queue while every solver is busy. Past the queue timeout its receive only
 * records it FAILED (NOT_STARTED) if no read has; four days lets even a solver stopped over a
 * weekend settle the runs it missed.
 */
export const solverRetentionSeconds = 4 * 24 * 3600;
export const solverDeadLetterRetentionSeconds = 14 * 24 * 3600;
/** One run per invocation: the timeout above is one run's budget. */
export const solverBatchSize = 1;
/**
 * A run older than this in the queue waits for a busy solver far longer than a dispatcher would:
 * more runs than the reserved concurrency can take, or a stopped event source. It is the age at
 * which reads record a QUEUED run FAILED (NOT_STARTED), so the operator hears of it as it happens.
 */
export const solverOldestMessageAlarmSeconds = queueTimeoutSeconds;

/** The smallest maxConcurrency Lambda accepts for an SQS event source. */
export const minimumMappingConcurrency = 2;

/**
 * The maxConcurrency of the solver's two event-source mappings, whose sum is the function's
 * reserved concurrency: the dead-letter queue gets the minimum (its messages are rare and quick:
 * failing a run is one write), the solver queue the rest (the runs solved at once). So the
 * mappings stop receiving before the function is throttled. Fails below 4: the queue would get
 * less than the minimum.
 */
export function solverMappingConcurrencyOrThrow(reservedConcurrency: number): {
  queue: number;
  deadLetters: number;
} {
  const deadLetters = minimumMappingConcurrency;
  const queue = reservedConcurrency - deadLetters;
  if (!Number.isInteger(reservedConcurrency) || queue < minimumMappingConcurrency) {
    throw new Error(
      `The solver's reserved concurrency must be an integer of at least ${2 * minimumMappingConcurrency} ` +
        `(each of its two event sources takes ${minimumMappingConcurrency} at least); it is ${reservedConcurrency}.`,
    );
  }
  return { queue, deadLetters };
}

/** Fails when the settings above cannot serve the rules of a run (checked at synth and in tests). */
export function assertSolverSettingsOrThrow(): void {
  if (solverFunctionTimeoutSeconds > 900) throw new Error('A Lambda function runs 900 s at most.');
  if (solverFunctionTimeoutSeconds < longestRunSeconds) {
    throw new Error('The solver function must be able to prepare, search and answer the longest run.');
  }
  if (solverQueueVisibilitySeconds < solverFunctionTimeoutSeconds) {
    throw new Error('A message must stay hidden while its run is solved.');
  }
  if (solverRetentionSeconds <= solverMaxReceiveCount * solverQueueVisibilitySeconds) {
    throw new Error('Solver messages could expire before they are dead-lettered.');
  }
  if (solverOldestMessageAlarmSeconds > queueTimeoutSeconds) {
    throw new Error(
      'The oldest-message alarm must fire no later than reads fail a run that was never taken up.',
    );
  }
}
