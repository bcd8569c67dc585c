import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSolution } from '../../test/support/optimizer/vroom-checker.ts';
import { solveInParallel } from './parallel.ts';
import { OptimizerInputError, solveWithStats } from './solve.ts';

describe('solveInParallel: one search per thread, the best answer kept', () => {
  it('answers the better of the seeds its threads searched, as one thread would have found them', async () => {
    // Arrange: an iteration budget makes each seed's answer the same on any thread.
    const input = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'R105.json'), 'utf8'));
    const options = { timeLimit: 20, iterations: 300, seed: 1 };
    const bySeed = [1, 2].map((seed) => solveWithStats(input, { ...options, seed }).output.summary.cost);
    // The worker's seed (2) is the better one here, so the answer must come from the worker.
    expect(bySeed[1]).toBeLessThan(bySeed[0]!);

    // Act
    const output = await solveInParallel(input, JSON.stringify(input), { ...options, threads: 2 });

    // Assess
    expect(checkSolution(input, output)).toEqual([]);
    expect(output.summary.cost).toBe(Math.min(...bySeed));
  });

  it('refuses invalid input as one thread does, naming the field', async () => {
    const input = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'C101.json'), 'utf8'));
    input.jobs[2].time_windows = [[30, 5]];
    await expect(solveInParallel(input, JSON.stringify(input), { threads: 2, timeLimit: 5 })).rejects.toThrow(
      OptimizerInputError,
    );
  });
});
