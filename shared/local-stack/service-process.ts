/**
 * The service as a separate process, started exactly as a user starts it (`node bin/start.ts`,
 * the `npm start` entry point), resolved once it printed its ready line: how the integration
 * tests (test/support/global-setup.ts) and the benchmarks (bench/) run the local stack.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { leanRuntime } from './lean-runtime.ts';

export interface RunningService {
  child: ChildProcess;
  baseUrl: string;
  /** The DynamoDB endpoint the service uses (its DynamoDB Local's, or the one it was given), as printed. */
  dynamodbEndpoint: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Spawn `bin/start.ts` and resolve once it printed its ready line. */
export async function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningService> {
  // As `npm start` runs it (package.json): the lean settings of a process holding connections.
  // FSM_SERVICE_NODE_FLAGS: more flags for the service's Node (`--cpu-prof` to profile a bench).
  const extra = (process.env.FSM_SERVICE_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...leanRuntime.nodeFlags, ...extra, 'bin/start.ts'], {
    env: { ...process.env, ...leanRuntime.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // FSM_TEST_SERVICE_LOG=<file>: the service's whole output also goes there (debugging a run).
  if (process.env.FSM_TEST_SERVICE_LOG) {
    const log = createWriteStream(process.env.FSM_TEST_SERVICE_LOG, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
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
  const dynamodbEndpoint = /DynamoDB(?: Local)? at (https?:\/\/\S+)/.exec(output)?.[1] ?? '';
  return {
    child,
    baseUrl,
    dynamodbEndpoint,
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
