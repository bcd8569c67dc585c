/**
 * The time-window rule of every node (job or break): service starts inside one of its windows,
 * sorted by start and merged (vroom-input.ts), and arriving early means waiting. Both look-ups
 * are monotone in `t`, which is what makes the route's forward and backward passes exact.
 */
import type { Problem } from './problem.ts';

/** Earliest service start of `node` arriving at `t`, or Infinity when every window has closed. */
export function earliestStart(problem: Problem, node: number, t: number): number {
  const offsets = problem.twOffset;
  const last = offsets[node + 1]!;
  for (let w = offsets[node]!; w < last; w++) {
    if (t <= problem.twEnd[w]!) {
      const start = problem.twStart[w]!;
      return t > start ? t : start;
    }
  }
  return Number.POSITIVE_INFINITY;
}

/** Latest service start of `node` not after `t`, or -Infinity when every window opens later. */
export function latestStart(problem: Problem, node: number, t: number): number {
  const offsets = problem.twOffset;
  const first = offsets[node]!;
  for (let w = offsets[node + 1]! - 1; w >= first; w--) {
    if (problem.twStart[w]! <= t) {
      const end = problem.twEnd[w]!;
      return t < end ? t : end;
    }
  }
  return Number.NEGATIVE_INFINITY;
}
