/**
 * README.md, "Using the API", "Integrator's first hour" and "Planning a day": every ```sh block of these sections,
 * in order, run by bash exactly as written (one shell, `set -euo pipefail`, so a failing command
 * fails the test), against the service started as the README says: `npm start` without FSM_SEED
 * (the demo workspace and its credentials) and with FSM_WEBHOOK_ALLOW_LOCAL=true. Its own service,
 * not the shared test service: that one runs time a thousand times faster (FSM_TIME_SCALE), which
 * drops an event stream after 90 ms, and has no demo workspace. The blocks use
 * `${BASE_URL:-http://127.0.0.1:3000}` and `${RECEIVER_PORT:-4000}`; the test sets both. The shell
 * runs in an empty folder whose node_modules is the repository's (the receiver imports
 * standardwebhooks), in a process group of its own, so background jobs a failed run leaves behind
 * are stopped with it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../shared/local-stack/free-port.ts';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';
import { eventually } from '../support/api.ts';

const repository = resolve(import.meta.dirname, '..', '..');

/** The ```sh blocks of the README between two headings. */
async function shellBlocks(from: string, to: string): Promise<string[]> {
  const readme = await readFile(join(repository, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n${from}\n`);
  const end = readme.indexOf(`\n${to}\n`, start);
  expect(start, `README.md has a section ${from}`).toBeGreaterThan(-1);
  expect(end, `README.md has a section ${to} after ${from}`).toBeGreaterThan(start);
  return [...readme.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const running: ChildProcess[] = [];

/** Runs a script with bash in `cwd`; resolves when bash exits (background jobs may live on). */
function bash(script: string, cwd: string, env: Record<string, string>, timeoutMs = 120_000): Promise<Run> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    // A process group of its own: the background jobs of the script stay in it.
    detached: true,
    env: {
      ...process.env,
      // The node of this run first (the README's one-liners need no particular version).
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => stopGroup(child), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      // Output written just before the exit may still be in the pipes.
      setTimeout(() => resolvePromise({ code, stdout, stderr }), 50);
    });
  });
}

function stopGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

/** The script: each block announced on stderr, so a failure names the block it came from. */
function scriptOf(blocks: string[]): string {
  return blocks
    .map((block, index) => `printf '%s\\n' '--- README block ${index + 1} ---' >&2\n${block}`)
    .join('\n');
}

let folder: string;
let dataDir: string;
let service: RunningService | undefined;
const baseUrl = () => service?.baseUrl ?? '';

beforeAll(async () => {
  [folder, dataDir] = await Promise.all([
    mkdtemp(join(tmpdir(), 'fsm-readme-')),
    mkdtemp(join(tmpdir(), 'fsm-readme-data-')),
  ]);
  await symlink(join(repository, 'node_modules'), join(folder, 'node_modules'), 'dir');
  // As `FSM_WEBHOOK_ALLOW_LOCAL=true npm start` (an empty FSM_SEED is none), on a free port.
  service = await startService(
    { DATA_DIR: dataDir, FSM_SEED: '', FSM_TIME_SCALE: '1', FSM_WEBHOOK_ALLOW_LOCAL: 'true' },
    150_000,
  );
}, 180_000);

afterAll(async () => {
  for (const child of running) stopGroup(child);
  await service?.stop();
  await Promise.all(
    [folder, dataDir].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })),
  );
}, 60_000);

describe("README: Using the API and the integrator's first hour", () => {
  it('runs every command of both sections against the started service', { timeout: 180_000 }, async () => {
    // Prepare
    const blocks = [
      ...(await shellBlocks('## Using the API', "## Integrator's first hour")),
      ...(await shellBlocks("## Integrator's first hour", '## Planning a day')),
    ];
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const receiverPort = String(await freePort());

    // Act
    const run = await bash(scriptOf(blocks), folder, { BASE_URL: baseUrl(), RECEIVER_PORT: receiverPort });

    // Assess
    expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
    // The case, the tour, the comment and the GraphQL answer, as the commands printed them.
    expect(run.stdout).toContain('"name":"North loop"');
    expect(run.stdout).toContain('"test_was_successful":true');
    expect(run.stdout).toMatch(
      /"totalCount":1,"edges":\[\{"node":\{"id":"[0-9a-f-]{36}","serial_number":"VC-2291"/,
    );
    expect(run.stdout).toContain('"body_markdown":"Customer asks for a call **30 minutes** ahead."');
    const events = await readFile(join(folder, 'events.log'), 'utf8');
    expect(events).toContain('event: CASE_UPDATED:V1');
    expect(events).toContain('event: CASE_COMMENT_ADDED:V1');
    const receiver = await eventually(async () => {
      const log = await readFile(join(folder, 'receiver.log'), 'utf8');
      expect(log).toContain('verified case.updated');
      return log;
    });
    expect(receiver).toContain('verified test.webhook');
    expect(receiver).not.toContain('refused');
  });
});

describe('README: Planning a day', () => {
  it('plans the seeded demo day, draws and applies it, and books the best slot a new case is offered', {
    timeout: 120_000,
  }, async () => {
    // Prepare
    const blocks = await shellBlocks('## Planning a day', '## Configuration');
    expect(blocks.length).toBe(4);

    // Act
    const run = await bash(scriptOf(blocks), folder, { BASE_URL: baseUrl() });

    // Assess: every seeded case planned (the demo day has room for all), the map, the apply, slots
    expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
    expect(run.stdout).toMatch(/^SUCCEEDED \{"assigned":\d+,"unassigned":0,/m);
    expect(run.stdout).toMatch(/^APPLIED [1-6] tours, \d+ cases planned$/m);
    const svg = await readFile(join(folder, 'plan.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    // The best slot offered, booked.
    expect(run.stdout.trim().split('\n').pop()).toMatch(/^SCHEDULED at \d{4}-\d\d-\d\dT/);
  });
});

describe('README: the token command', () => {
  async function tokenBlock(): Promise<string> {
    const [block] = await shellBlocks('## Using the API', "## Integrator's first hour");
    // The token lines only (the calls after them need a token).
    const lines = (block ?? '').split('\n');
    return lines
      .slice(
        0,
        lines.findIndex((line) => line.startsWith('curl ')),
      )
      .join('\n');
  }

  it("exits non-zero and shows the identity provider's error for wrong credentials", async () => {
    // Prepare
    const block = (await tokenBlock()).replace('client_secret=demo-secret-1', 'client_secret=not-the-secret');

    // Act
    const run = await bash(block, folder, { BASE_URL: baseUrl() });

    // Assess
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no token:');
    expect(run.stderr).toContain('invalid_client');
  });

  it('exits non-zero with the reason when nothing answers', async () => {
    // Prepare
    const closed = `http://127.0.0.1:${await freePort()}`;

    // Act
    const run = await bash(await tokenBlock(), folder, { BASE_URL: closed });

    // Assess
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/curl: \(7\)/);
    expect(run.stderr).toContain('no token: no answer');
  });
});
