/**
 * Starts the service once per test run exactly as a user would (`node bin/start.ts`, the
 * `npm start` entry point) on a free port with a temporary DATA_DIR and the test seed, waits
 * for its ready line, and stops it afterwards. Tests reach it over real HTTP only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export interface RunningService {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Spawn `bin/start.ts` and resolve once it printed its ready line. */
export async function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningService> {
  const child = spawn(process.execPath, ['bin/start.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service not ready after ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before it was ready:\n${output}`));
    });
  });
  return {
    child,
    baseUrl,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'fsm-test-'));
  const service = await startService({ DATA_DIR: dataDir, FSM_SEED: 'test/support/test-seed.json' });
  project.provide('baseUrl', service.baseUrl);
  project.provide('dataDir', dataDir);
  return async () => {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
