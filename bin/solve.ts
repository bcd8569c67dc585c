/**
 * `npm run --silent solve -- [--time-limit S] [--seed N] [--iterations N] < input.json > output.json`
 *
 * Reads a VROOM input document on stdin and writes the VROOM output on stdout
 * (shared/optimizer/README.md). The time limit is the wall-clock limit of the whole process:
 * `--time-limit`, else the environment's VRPTW_TIME_LIMIT (seconds), else 30 s, as the API's
 * optimization runs. The search stops early enough to leave max(0.5 s, 5 %) of it, plus the time
 * `npm run` takes to start node, for reading, writing and exiting, because a harness that kills
 * the process at the limit gets nothing from a solver that was still searching.
 *
 * Invalid input exits with status 2 and one line on stderr naming the field; any other failure
 * exits with status 1 and one line, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { defaultTimeLimitSeconds, OptimizerInputError, solve } from '../shared/optimizer/solve.ts';

/** What `npm run` spends before node starts (measured about 0.2-0.3 s here), kept out of the budget. */
const launcherAllowanceSeconds = 0.35;

function fail(message: string, status: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(status);
}

function positiveNumber(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    fail(`${name}: expected a positive number of seconds, got "${text}"`, 2);
  return value;
}

function nonNegativeInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0)
    fail(`${name}: expected a non-negative integer, got "${text}"`, 2);
  return value;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        'time-limit': { type: 'string' },
        seed: { type: 'string' },
        iterations: { type: 'string' },
      },
    }));
  } catch (error) {
    fail(`arguments: ${(error as Error).message}`, 2);
  }
  const limit =
    positiveNumber(values['time-limit'] as string | undefined, '--time-limit') ??
    positiveNumber(process.env.VRPTW_TIME_LIMIT, 'VRPTW_TIME_LIMIT') ??
    defaultTimeLimitSeconds;
  const seed = nonNegativeInteger(values.seed as string | undefined, '--seed');
  const iterations = nonNegativeInteger(values.iterations as string | undefined, '--iterations');

  const text = await readStdin();
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    fail(`input: not valid JSON (${(error as Error).message.replace(/\s+/g, ' ')})`, 2);
  }
  // performance.now() counts from this process's start; the launcher's time comes on top.
  const margin = Math.max(0.5, 0.05 * limit) + launcherAllowanceSeconds;
  const searchSeconds = Math.max(0.05, limit - margin - performance.now() / 1000);
  try {
    const output = solve(input, {
      timeLimit: searchSeconds,
      ...(seed !== undefined ? { seed } : {}),
      ...(iterations !== undefined ? { iterations } : {}),
    });
    process.stdout.write(`${JSON.stringify(output)}\n`);
  } catch (error) {
    if (error instanceof OptimizerInputError) fail(error.message, 2);
    fail(`internal error: ${(error as Error).message}`, 1);
  }
}

await main();
