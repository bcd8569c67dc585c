/**
 * Starts the service once per test run as a user would, on a free port with a temporary
 * DATA_DIR and the test seed, and stops it afterwards. Tests reach it over real HTTP only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
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

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    dynamodbEndpoint: string;
    /** The admin plane's client secret (FSM_ADMIN_CLIENT_SECRET), for test/support/admin.ts. */
    adminClientSecret: string;
  }
}

export default async function setup(project: TestProject) {
  // test/contract compares what this run observes with the OpenAPI document.
  clearObservedAnswers();
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
  });
  project.provide('baseUrl', service.baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('dynamodbEndpoint', service.dynamodbEndpoint);
  project.provide('adminClientSecret', adminClientSecret);
  return async () => {
    await service.stop();
    await dns.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
