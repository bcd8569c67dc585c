import { ProblemError } from '../../shared/http/problem.ts';

/** The ProblemError that `act` throws; fails the test when it throws nothing or something else. */
export function problemOf(act: () => unknown): ProblemError {
  try {
    act();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error('expected a ProblemError');
}
