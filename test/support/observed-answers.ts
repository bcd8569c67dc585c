/**
 * What the integration tests observe of each answer (method, path, status, header names), so
 * test/contract can compare it with what the OpenAPI document declares. Each test worker appends
 * to its own file; the integration project's global setup empties the folder when a run starts.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const observedAnswersDir = join(process.cwd(), 'node_modules', '.cache', 'fsm', 'observed-answers');

export interface ObservedAnswer {
  method: string;
  /** The request path without its query string. */
  path: string;
  status: number;
  /** Lower-cased names of the response headers. */
  headers: string[];
}

let ready = false;

export function recordAnswer(answer: ObservedAnswer): void {
  if (!ready) {
    mkdirSync(observedAnswersDir, { recursive: true });
    ready = true;
  }
  const line = `${JSON.stringify(answer)}\n`;
  try {
    appendFileSync(join(observedAnswersDir, `${process.pid}.jsonl`), line);
  } catch (error) {
    // Work trees of one repository share node_modules (a symlink): another tree's run starting
    // meanwhile empties the folder. Start it again rather than fail this run's test.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(observedAnswersDir, { recursive: true });
    appendFileSync(join(observedAnswersDir, `${process.pid}.jsonl`), line);
  }
}

export function clearObservedAnswers(): void {
  rmSync(observedAnswersDir, { recursive: true, force: true });
}

export function readObservedAnswers(): ObservedAnswer[] {
  let files: string[];
  try {
    files = readdirSync(observedAnswersDir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.flatMap((name) =>
    readFileSync(join(observedAnswersDir, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ObservedAnswer),
  );
}
