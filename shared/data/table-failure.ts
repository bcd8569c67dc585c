/**
 * SDK failures of table calls as DataErrors: an outage is `unavailable`, a refused condition
 * is `already-exists`, `version-conflict` or `not-found` (by what the write asked for and what
 * the store returned), anything else is rethrown as the programming error it is.
 */
import { DataError, storedVersionOf } from './data-error.ts';

/** SDK failures that mean "the store is busy or unreachable", not "the request was wrong". */
const unavailableNames = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  // ../aws/client-deadlines.ts: the call's total budget ran out.
  'DeadlineExceededError',
]);
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/** Whether an SDK failure means the store is busy or unreachable (not a wrong request). */
export function isUnavailable(error: unknown): boolean {
  const failure = error as { name?: string; code?: string } | null;
  return unavailableNames.has(failure?.name ?? '') || unavailableCodes.has(failure?.code ?? '');
}

/** An outage becomes `unavailable`; any other failure is rethrown as it is. */
export function translate(error: unknown, what: string): never {
  const failure = error as { name?: string; code?: string };
  if (isUnavailable(error)) {
    throw new DataError('unavailable', `${what}: ${failure.name ?? failure.code}`, { cause: error });
  }
  throw error;
}

export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string }).name === 'ConditionalCheckFailedException';
}

/**
 * The DataError of a write whose condition failed: a create finds its key taken; any other
 * write finds the item changed (the store returned the item: its version differs) or gone.
 */
export function conditionFailure(kind: string, stored: unknown, cause: unknown): DataError {
  if (kind === 'create') return new DataError('already-exists', 'the key is already taken', { cause });
  return stored
    ? new DataError('version-conflict', 'the stored version differs', {
        cause,
        storedVersion: storedVersionOf(stored),
      })
    : new DataError('not-found', 'the item does not exist', { cause });
}

/**
 * Whether a write met another transaction on one of its items (DynamoDB cancels it, reason
 * TransactionConflict, or refuses a plain write with TransactionConflictException): nothing was
 * written, and the same write sent again a moment later is the right answer. DynamoDB Local runs
 * transactions one at a time and never says this; DynamoDB does (shared/data/README.md, "Testing
 * under DynamoDB's semantics").
 */
export function isContention(error: unknown): boolean {
  const failure = error as { name?: string; CancellationReasons?: Array<{ Code?: string }> } | null;
  // The same transaction (its idempotency token) still running: an attempt whose answer was lost.
  if (failure?.name === 'TransactionConflictException' || failure?.name === 'TransactionInProgressException')
    return true;
  if (failure?.name !== 'TransactionCanceledException' || !failure.CancellationReasons) return false;
  const codes = failure.CancellationReasons.map((reason) => reason.Code ?? 'None');
  return (
    codes.includes('TransactionConflict') &&
    codes.every((code) => code === 'None' || code === 'TransactionConflict')
  );
}

/** Attempts of a write that keeps meeting other transactions, and the pause before each retry. */
const contentionAttempts = 12;
const contentionPause = (attempt: number) => Math.random() * Math.min(500, 10 * 2 ** attempt);

/**
 * Runs `write` again while it meets other transactions (with jittered back-off, about 4 s at
 * most), so contention is never reported as a version conflict; still contended after that, it
 * is `unavailable` (503 with Retry-After), never a 409.
 */
export async function retryingContention<T>(what: string, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isContention(error)) throw error;
      if (attempt >= contentionAttempts) {
        throw new DataError('unavailable', `${what}: still contended after ${attempt} attempts`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, contentionPause(attempt)));
    }
  }
}
