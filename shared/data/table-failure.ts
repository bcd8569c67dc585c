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
