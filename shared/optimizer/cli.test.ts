import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSolution } from '../../test/support/optimizer/vroom-checker.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function runCli(stdin: string, args: string[] = [], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['bin/solve.ts', ...args], {
    cwd: repoRoot,
    input: stdin,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const input = {
  vehicles: [{ id: 1, start_index: 0, end_index: 0, capacity: [4], time_window: [0, 1000] }],
  jobs: [
    { id: 11, location_index: 1, delivery: [1], service: 10, time_windows: [[0, 200]] },
    { id: 12, location_index: 2, delivery: [2], service: 10 },
  ],
  matrices: {
    car: {
      durations: [
        [0, 10, 20],
        [10, 0, 10],
        [20, 10, 0],
      ],
    },
  },
};

describe('CLI: npm run solve', () => {
  it('reads a VROOM input on stdin and writes the VROOM output on stdout', () => {
    // Act
    const result = runCli(JSON.stringify(input), ['--time-limit', '1', '--iterations', '200']);

    // Assess
    expect(result.status).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.code).toBe(0);
    expect(output.summary.unassigned).toBe(0);
    expect(checkSolution(input, output)).toEqual([]);
  });

  it('refuses invalid input with status 2 and one line naming the field, no stack trace', () => {
    const invalid = structuredClone(input) as any;
    invalid.jobs[1].time_windows = [[30, 5]];
    const result = runCli(JSON.stringify(invalid), ['--time-limit', '1']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('jobs[1].time_windows[0]: start after end (30 > 5)\n');
  });

  it('refuses a document that is not JSON', () => {
    const result = runCli('{"vehicles": [', ['--time-limit', '1']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^input: not valid JSON \(.*\)\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a time limit that is not a positive number', () => {
    const result = runCli(JSON.stringify(input), [], { VRPTW_TIME_LIMIT: 'soon' });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('VRPTW_TIME_LIMIT: expected a positive number of seconds, got "soon"\n');
  });

  it('answers within the time limit given by VRPTW_TIME_LIMIT', () => {
    const began = performance.now();
    const result = runCli(JSON.stringify(input), [], { VRPTW_TIME_LIMIT: '1.5' });
    expect(result.status).toBe(0);
    expect(performance.now() - began).toBeLessThan(1500);
  });
});
