/**
 * `npm run --silent solve -- [--time-limit S] [--seed N] [--iterations N] [--threads N] < input.json > output.json`
 *
 * Reads a VROOM input document on stdin and writes the VROOM output on stdout
 * (shared/optimizer/README.md). The time limit is the wall-clock limit of the whole run, launcher
 * included: `--time-limit`, else the environment's VRPTW_TIME_LIMIT (seconds), else 30 s, as the
 * API's optimization runs. A harness that kills the process at the limit gets nothing from a
 * solver that was still searching, so the solver is given the limit less max(0.15 s, 3 %) for
 * writing the answer and exiting (every phase of solve() ends inside the time it is given), after the time already gone when the search starts: node's
 * start-up and the input (counted by performance.now()), and before node, `npm run` and the
 * shell it starts (measured from /proc: see launcherSeconds).
 *
 * `--threads N` runs N searches at once and keeps the best (shared/optimizer/parallel.ts); the
 * default, 0 or no flag, is one per core up to 4 (`defaultThreads`). `--threads 1` is one search
 * on this thread, the library's `solve()`.
 *
 * Invalid input exits with status 2 and one line on stderr naming the field; any other failure
 * exits with status 1 and one line, never a stack trace.
 */
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';

// Node compiles the solver's TypeScript on every start: about 150 ms, a third of what a 1 s limit
// leaves to search. The compile cache keeps the result (in node_modules/.cache, beside the other
// tools' caches); the solver is imported after it is enabled. `npm run solve` sets
// NODE_COMPILE_CACHE to the same folder so that this file too comes from the cache and node's
// TypeScript stripper is never loaded (another 90 ms). A cache that cannot be written costs
// nothing but the time it would have saved.
module.enableCompileCache?.(
  join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'node-compile-cache'),
);
// V8 optimises hot functions on background threads; with one search per core those threads wait
// for a core, and at a 1 s limit the searches ran unoptimised code for much of their time (a third
// of the iterations). Optimising on the searching thread itself costs the same work without the
// wait. A process-wide flag, set before any solver code runs.
setFlagsFromString('--no-concurrent-recompilation');
// Loads nothing of the solver: the workers start (and load it) before this thread does.
const { startSearchThreads } = await import('../shared/optimizer/search-threads.ts');

/**
 * One search per core, at most 4 (VROOM's default `-t`): each thread holds its own copy of the
 * problem (about 100 MB for 1,000 customers), so memory stays bounded on a large machine.
 */
const defaultThreads = Math.min(4, availableParallelism());

/** What `npm run` spends before node starts where /proc cannot tell (0.2-0.5 s on a busy 2-core machine). */
const launcherAllowanceSeconds = 0.5;

/** Name, start time (clock ticks since boot) and parent of a process, from /proc/<pid>/stat. */
function processInfo(pid: number | 'self'): { name: string; start: number; parent: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The name sits in parentheses and may hold spaces and parentheses; state is the field after it.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    parent: Number(fields[1]),
    start: Number(fields[19]),
  };
}

/** `npm run` titles its process "npm run solve" and runs the script through `sh -c`. */
const isLauncher = (name: string) => name === 'sh' || name === 'dash' || /^np[mx]\b/.test(name);

/**
 * Seconds between the start of the launch chain (the `npm run` and `sh -c` processes above this
 * one, started at most 10 s before it) and this process's own start, which performance.now()
 * does not see. Linux counts start times in ticks of 1/100 s. Where /proc cannot be read, a
 * fixed allowance.
 */
function launcherSeconds(): number {
  try {
    const self = processInfo('self');
    const ticksPerSecond = 100;
    let earliest = self.start;
    let pid = self.parent;
    for (let depth = 0; depth < 6 && pid > 1; depth++) {
      const ancestor = processInfo(pid);
      if (!isLauncher(ancestor.name) || self.start - ancestor.start > 10 * ticksPerSecond) break;
      earliest = Math.min(earliest, ancestor.start);
      pid = ancestor.parent;
    }
    // One tick for the rounding of both start times.
    return (self.start - earliest + 1) / ticksPerSecond;
  } catch {
    return launcherAllowanceSeconds;
  }
}

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
        threads: { type: 'string' },
      },
    }));
  } catch (error) {
    fail(`arguments: ${(error as Error).message.replace(/\s*\n\s*/g, ' ')}`, 2);
  }
  const timeLimit =
    positiveNumber(values['time-limit'] as string | undefined, '--time-limit') ??
    positiveNumber(process.env.VRPTW_TIME_LIMIT, 'VRPTW_TIME_LIMIT');
  const seed = nonNegativeInteger(values.seed as string | undefined, '--seed');
  const iterations = nonNegativeInteger(values.iterations as string | undefined, '--iterations');
  const threads = nonNegativeInteger(values.threads as string | undefined, '--threads') || defaultThreads;
  // The other searches' threads load the solver while this one does and reads the input.
  const workers = startSearchThreads(threads - 1);
  const { defaultTimeLimitSeconds, OptimizerInputError } = await import('../shared/optimizer/solve.ts');
  const { solveInParallel } = await import('../shared/optimizer/parallel.ts');
  const limit = timeLimit ?? defaultTimeLimitSeconds;

  const text = await readStdin();
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    fail(`input: not valid JSON (${(error as Error).message.replace(/\s+/g, ' ')})`, 2);
  }
  // performance.now() counts from this process's start; the launcher's time comes on top.
  const margin = Math.max(0.15, 0.03 * limit) + launcherSeconds();
  const searchSeconds = Math.max(0.05, limit - margin - performance.now() / 1000);
  try {
    const output = await solveInParallel(input, text, {
      workers,
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

main().catch((error: unknown) => fail(`internal error: ${(error as Error).message}`, 1));
