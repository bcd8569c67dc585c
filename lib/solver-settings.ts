/**
 * The AWS settings of the solver (queue, function, event source, alarms), derived from the
 * rules of a run (shared/domain/optimization-runs/optimization-run-statuses.ts), which stay
 * their single source. Plain data (no CDK import), so tests check the numbers without a synth.
 *
 * - The function's timeout is the longest time limit plus the grace a run gets before a read
 *   calls it stalled (`stallGraceSeconds`): an invocation can never outlive its run's deadline,
 *   so a run a read records as FAILED has no live solver left to answer it.
 * - A message stays hidden for six function timeouts (AWS's guidance for a queue that triggers
 *   Lambda). A receive that died (out of memory, the timeout) lets its message come back once
 *   that has passed; that receive fails the run (solver-job.ts). Reads have reported the run
 *   FAILED long before.
 * - Three receives, then the dead-letter queue, whose messages the same function takes too: it
 *   fails their runs (a run is never left QUEUED for good), and the queue's depth alarm tells an
 *   operator.
 */
import {
  stallGraceSeconds,
  timeLimits,
} from '../shared/domain/optimization-runs/optimization-run-statuses.ts';

export const solverFunctionTimeoutSeconds = timeLimits.max + stallGraceSeconds;
export const solverQueueVisibilitySeconds = 6 * solverFunctionTimeoutSeconds;
export const solverMaxReceiveCount = 3;
/** A run waits in the queue while every solver is busy; four days covers a stopped solver over a weekend. */
export const solverRetentionSeconds = 4 * 24 * 3600;
export const solverDeadLetterRetentionSeconds = 14 * 24 * 3600;
/** One run per invocation: the timeout above is one run's budget. */
export const solverBatchSize = 1;
/**
 * A run older than this in the queue waits for a busy solver far longer than a dispatcher would:
 * more runs than the reserved concurrency can take, or a stopped event source.
 */
export const solverOldestMessageAlarmSeconds = 30 * 60;

/** Fails when the settings above cannot serve the rules of a run (checked at synth and in tests). */
export function assertSolverSettingsOrThrow(): void {
  if (solverFunctionTimeoutSeconds > 900) throw new Error('A Lambda function runs 900 s at most.');
  if (solverFunctionTimeoutSeconds < timeLimits.max + stallGraceSeconds) {
    throw new Error('The solver function must be able to finish the longest run.');
  }
  if (solverQueueVisibilitySeconds < solverFunctionTimeoutSeconds) {
    throw new Error('A message must stay hidden while its run is solved.');
  }
  if (solverRetentionSeconds <= solverMaxReceiveCount * solverQueueVisibilitySeconds) {
    throw new Error('Solver messages could expire before they are dead-lettered.');
  }
}
