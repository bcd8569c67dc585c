/**
 * `npm run bench:fuzz [-- --seed N --requests N --concurrency N]`: the fuzz run of test/fuzz
 * against a fresh local stack, longer than the test's: every operation of the published
 * OpenAPI document with plausible and hostile input, eight requests in flight.
 * Prints throughput, latency and every finding (5xx, hangs, answers that are not problem
 * documents, undocumented statuses, responses that break their schema). Exit code 1 on findings.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from '../shared/local-stack/service-process.ts';
import { runFuzz, summarize } from '../test/fuzz/api-fuzzer.ts';
import { fuzzTarget } from '../test/fuzz/fuzz-workspace.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: String(Date.now() % 100_000) },
    requests: { type: 'string', default: '6000' },
    concurrency: { type: 'string', default: '8' },
    'base-url': { type: 'string' },
    'admin-secret': { type: 'string' },
  },
});

const dataDir = await mkdtemp(join(tmpdir(), 'fsm-fuzz-'));
const adminSecret = values['admin-secret'] ?? randomBytes(24).toString('base64url');
const service = values['base-url']
  ? undefined
  : await startService({ DATA_DIR: dataDir, FSM_ADMIN_CLIENT_SECRET: adminSecret, LOG_LEVEL: 'warn' });
const baseUrl = values['base-url'] ?? service?.baseUrl ?? '';
try {
  // Access tokens live 300 s: a long run gets fresh ones.
  let target = await fuzzTarget(baseUrl, adminSecret);
  const requests = Number(values.requests);
  const chunk = 4000;
  const reports = [];
  for (let done = 0; done < requests; done += chunk) {
    if (done > 0) target = { ...target, tokens: (await fuzzTarget(baseUrl, adminSecret)).tokens };
    reports.push(
      await runFuzz(target, {
        seed: Number(values.seed) + done,
        requests: Math.min(chunk, requests - done),
        concurrency: Number(values.concurrency),
        timeoutMs: 15_000,
        progress: {
          every: 1000,
          report: (sent, findings) => console.log(`  ${done + sent} sent, ${findings} findings`),
        },
      }),
    );
  }
  for (const report of reports) console.log(summarize(report));
  // What the service itself reported: errors and blocked event loops, next to the findings.
  const serviceLines = (service?.output() ?? '')
    .split('\n')
    .filter((line) => line.includes('"level":"error"') || line.includes('event loop blocked'));
  console.log(`service: ${serviceLines.length} error or event-loop lines`);
  for (const line of serviceLines.slice(0, 20)) console.log(`  ${line.slice(0, 400)}`);
  process.exitCode = reports.some((report) => report.findings.length > 0) ? 1 : 0;
} finally {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
