/**
 * The fuzz run of test/fuzz against a service of its own (its failed sign-ins would
 * otherwise count against the address every other test signs in from): every published
 * operation with plausible and hostile input, eight in flight, with a fixed seed. Whatever the
 * input: no 5xx, no request left unanswered, every API error a problem document of a status the
 * operation declares, every success body valid for its schema. `npm run bench:fuzz` runs longer.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';
import { type FuzzTarget, runFuzz, summarize } from '../fuzz/api-fuzzer.ts';
import { fuzzTarget } from '../fuzz/fuzz-workspace.ts';

let service: RunningService;
let dataDir: string;
let target: FuzzTarget;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-fuzz-'));
  const adminSecret = randomBytes(24).toString('base64url');
  service = await startService({ DATA_DIR: dataDir, FSM_ADMIN_CLIENT_SECRET: adminSecret });
  target = await fuzzTarget(service.baseUrl, adminSecret);
}, 90_000);

afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('Fuzzing every operation of the published document', () => {
  it('answers 1,500 generated requests without a 5xx, a hang or an undocumented answer', async () => {
    // Act
    const report = await runFuzz(target, {
      seed: 20261124,
      requests: 1500,
      concurrency: 8,
      timeoutMs: 15_000,
    });

    // Assess
    expect(report.findings, summarize(report)).toEqual([]);
    const operations = Object.values(target.document.paths).flatMap((item) =>
      Object.values(item).map((operation) => String(operation.operationId)),
    );
    const untried = operations.filter((operation) => !report.statuses.has(operation));
    expect(untried).toEqual([]);
  }, 180_000);
});
