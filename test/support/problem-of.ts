import { DomainError } from '../../shared/domain/domain-error.ts';
import { problemOfDomainError } from '../../shared/http/domain-problem.ts';
import { ProblemError } from '../../shared/http/problem.ts';

/**
 * What a client would be answered for an error: a ProblemError as it is, a domain error through
 * the REST mapper (shared/http/domain-problem.ts). Anything else is rethrown (the test fails).
 */
export function asProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof DomainError) return problemOfDomainError(error);
  throw error;
}

/** The problem `act` throws; fails the test when it throws nothing or something else. */
export function problemOf(act: () => unknown): ProblemError {
  try {
    act();
  } catch (error) {
    return asProblem(error);
  }
  throw new Error('expected an error that answers a problem document');
}

/** The same for an asynchronous act. */
export async function problemOfAsync(act: () => Promise<unknown>): Promise<ProblemError> {
  try {
    await act();
  } catch (error) {
    return asProblem(error);
  }
  throw new Error('expected an error that answers a problem document');
}
