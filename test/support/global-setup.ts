/**
 * Starts the service once per test run as a user would, on a free port with a temporary
 * DATA_DIR and the test seed, and stops it afterwards. Tests reach it over real HTTP only.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { RecordingMark } from '../../shared/data/transaction-recorder.ts';
import { startService } from '../../shared/local-stack/service-process.ts';
import { startDnsServer } from './dns-server.ts';
import { clearObservedAnswers } from './observed-answers.ts';

/**
 * Names the service resolves through the test DNS server (FSM_WEBHOOK_DNS_SERVERS), so webhook
 * tests can register destinations whose addresses they choose: `<x>.public.hooks.test` is a
 * public address, `<x>.private.hooks.test` a private one, and `<x>.rebind.hooks.test` answers
 * public to its first A query and private to every later one (DNS rebinding).
 */
function hooksDns() {
  const asked = new Map<string, number>();
  return (name: string, type: string) => {
    if (type !== 'A') return 'NXDOMAIN' as const;
    if (name.endsWith('.public.hooks.test')) return ['93.184.216.34'];
    if (name.endsWith('.private.hooks.test')) return ['10.0.0.5'];
    if (name.endsWith('.rebind.hooks.test')) {
      const count = (asked.get(name) ?? 0) + 1;
      asked.set(name, count);
      return count === 1 ? ['93.184.216.34'] : ['10.0.0.5'];
    }
    return 'NXDOMAIN' as const;
  };
}

/**
 * Every write the service makes during a run, one JSON line each (FSM_RECORD_TRANSACTIONS,
 * shared/data/transaction-recorder.ts), for test/contract/transaction-keys.test.ts, which runs
 * after the integration project. Beside the observed answers, so it outlives the run's DATA_DIR;
 * a file per run (named by the vitest process), so runs side by side in one work tree do not
 * empty each other's. The run's file is also in the environment of the tests of this vitest
 * process (FSM_TEST_RECORDED_TRANSACTIONS), so the contract project of the same run reads it.
 */
export const recordedTransactionsDir = join(
  process.cwd(),
  'node_modules',
  '.cache',
  'fsm',
  'recorded-transactions',
);

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0; // removed meanwhile (another run's setup)
  }
}

/** Recordings of ended runs kept for a contract run of its own (`vitest run --project contract`). */
const keptRecordings = 2;

/** This run's recording; of the ended runs' recordings only the newest are kept. */
function newRecording(): string {
  mkdirSync(recordedTransactionsDir, { recursive: true });
  const ended = readdirSync(recordedTransactionsDir)
    .map((name) => ({ name, pid: Number.parseInt(name, 10) }))
    .filter(({ pid }) => pid === process.pid || !running(pid))
    .map(({ name }) => ({ name, modified: modifiedAt(join(recordedTransactionsDir, name)) }))
    .sort((a, b) => b.modified - a.modified);
  for (const { name } of ended.slice(keptRecordings))
    rmSync(join(recordedTransactionsDir, name), { force: true });
  const file = join(recordedTransactionsDir, `${process.pid}.jsonl`);
  rmSync(file, { force: true });
  process.env.FSM_TEST_RECORDED_TRANSACTIONS = file;
  return file;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    dynamodbEndpoint: string;
    /** The admin plane's client secret (FSM_ADMIN_CLIENT_SECRET), for test/support/admin.ts. */
    adminClientSecret: string;
    /** The file the service records its writes in (recordedTransactionsDir). */
    recordedTransactionsFile: string;
  }
}

export default async function setup(project: TestProject) {
  // test/contract compares what this run observes with the OpenAPI document.
  clearObservedAnswers();
  // test/contract/transaction-keys.test.ts checks the keys of this run's transactions.
  const recordedTransactionsFile = newRecording();
  const dataDir = await mkdtemp(join(tmpdir(), 'fsm-test-'));
  const adminClientSecret = randomBytes(24).toString('base64url');
  const dns = await startDnsServer(hooksDns());
  const service = await startService({
    DATA_DIR: dataDir,
    FSM_SEED: 'test/support/test-seed.json',
    FSM_ADMIN_CLIENT_SECRET: adminClientSecret,
    // Lists walk their indexes 7 entries per Query: every list of the tests spans many index pages.
    FSM_LIST_QUERY_MAX: '7',
    // Webhook receivers of the tests listen on 127.0.0.1 over plain http; the retry schedule
    // runs a thousand times faster (30 s → 30 ms … 2 h → 7.2 s; the 429 floor 5 min → 0.3 s).
    FSM_WEBHOOK_ALLOW_LOCAL: 'true',
    FSM_TIME_SCALE: '0.001',
    FSM_WEBHOOK_DNS_SERVERS: dns.address,
    // A deleted device's history goes 7 points per step: the tests see a purge of several steps.
    FSM_DEVICE_PURGE_STEP: '7',
    FSM_CUSTOM_OBJECT_PURGE_STEP: '2',
    // Upload forms (tenant logo and favicon) expire after 8 s: the tests can post to an expired one.
    FSM_UPLOAD_FORM_SECONDS: '8',
    // A repeated comment gets the first one back for 4 s (not 60): the tests can outlive the window.
    FSM_COMMENT_DEDUP_SECONDS: '4',
    // Tests may stop an apply after k writes, as a crash would (shared/local-stack/test-hooks.ts);
    // a crashed apply's message comes back after 3 s (not 30), and the service takes it up again.
    FSM_TEST_HOOKS: 'true',
    FSM_APPLY_VISIBILITY_SECONDS: '3',
    // The service-level detector every 2 s instead of every minute: a breach test waits seconds.
    FSM_SLA_DETECTOR_PERIOD_MS: '2000',
    FSM_RECORD_TRANSACTIONS: recordedTransactionsFile,
  });
  // The seed's writes came before: the transactions after this line are the tests' traffic.
  const ready: RecordingMark = { mark: 'ready' };
  mkdirSync(recordedTransactionsDir, { recursive: true });
  appendFileSync(recordedTransactionsFile, `${JSON.stringify(ready)}\n`);
  project.provide('baseUrl', service.baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('dynamodbEndpoint', service.dynamodbEndpoint);
  project.provide('adminClientSecret', adminClientSecret);
  project.provide('recordedTransactionsFile', recordedTransactionsFile);
  return async () => {
    await service.stop();
    await dns.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
