/**
 * A data store that hangs instead of refusing (DynamoDB Local frozen with SIGSTOP) is reported
 * as unavailable within the store deadlines (shared/aws/client-deadlines.ts): reads and writes
 * answer 503 problems with Retry-After in seconds, not when the store comes back, and the
 * service recovers once it resumes. Runs on a service of its own: freezing the shared one
 * would stall every other test file.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDeadlines } from '../../shared/aws/client-deadlines.ts';
import { maxWaitMs } from '../../shared/domain/keyed-mutex.ts';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';
import { eventually } from '../support/api.ts';

/**
 * What a request may take while the store hangs: one store call's total deadline, plus one
 * wait in the same-record write queue, plus scheduling slack on a loaded 2-core machine.
 */
const budgetMs = clientDeadlines.totalMs + maxWaitMs + 1_500;

let service: RunningService;
let dataDir: string;
let token: string;
let javaPid: number;

async function request(method: string, path: string, body?: unknown) {
  const started = Date.now();
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body
        ? { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }
        : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    body: text ? JSON.parse(text) : undefined,
    elapsedMs: Date.now() - started,
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-outage-'));
  service = await startService({ DATA_DIR: dataDir, FSM_SEED: 'test/support/test-seed.json' });
  const tokenResponse = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'acme-admin',
      client_secret: 's3cret-acme-admin',
    }),
  });
  token = ((await tokenResponse.json()) as { access_token: string }).access_token;
  // DynamoDB Local is the Java process whose database lives in this test's data folder.
  javaPid = Number(
    execFileSync('pgrep', ['-f', join(dataDir, 'dynamodb')])
      .toString()
      .trim()
      .split('\n')[0],
  );
}, 90_000);

afterAll(async () => {
  if (javaPid) process.kill(javaPid, 'SIGCONT');
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('Data store outage: a frozen store', () => {
  it('answers reads and writes with 503 within the deadline, then recovers when it resumes', async () => {
    // Prepare
    const created = await request('POST', '/api/v2/areas', { name: 'Before the freeze', color: '#123456' });
    expect(created.status).toBe(201);
    const areaPath = `/api/v2/areas/${created.body.id}`;

    // Act: four clients keep reading and writing while the store hangs.
    process.kill(javaPid, 'SIGSTOP');
    let answers: Awaited<ReturnType<typeof request>>[];
    try {
      answers = await Promise.all([
        request('GET', '/api/v2/areas'),
        request('GET', areaPath),
        request('PATCH', areaPath, { name: 'During the freeze' }),
        request('PATCH', areaPath, { name: 'During the freeze, too' }),
        request('POST', '/api/v2/areas', { name: 'Created during the freeze', color: '#654321' }),
        request('GET', '/api/v2/users'),
        request('DELETE', `/api/v2/areas/${randomUUID()}`),
        request('GET', '/api/v2/tags'),
      ]);
    } finally {
      process.kill(javaPid, 'SIGCONT');
    }

    // Assess
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 503,
        contentType: 'application/problem+json',
        retryAfter: expect.stringMatching(/^\d+$/),
        body: { type: expect.stringMatching(/\/service-unavailable$/), status: 503 },
      });
      expect(answer.elapsedMs).toBeLessThan(budgetMs);
    }
    const recovered = await eventually(async () => {
      const answer = await request('GET', areaPath);
      if (answer.status !== 200) throw new Error(`still ${answer.status}`);
      return answer;
    }, 10_000);
    expect(recovered.body.id).toBe(created.body.id);
  }, 60_000);
});
