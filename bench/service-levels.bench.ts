/**
 * `npm run bench:service-levels`: what one run of the service-level detector (docs/service-levels.md)
 * costs when a busy minute comes due, on a fresh local stack. `--cases` (2,000) cases of one
 * workspace, all due in the same minute an hour ahead, are written through the case store (so their
 * due-time index items are written as the API writes them); then one detector run judges them at
 * that minute (its clock given, the cursor of this throwaway stack moved into the future). The
 * stack's own timer is held off (FSM_SLA_DETECTOR_PERIOD_MS of an hour).
 *
 * Prints: cases written per second, the run's duration, cases settled per second, and the read and
 * write units per breached case as DynamoDB Local reports them. Figures only.
 */
import { parseArgs } from 'node:util';
import { startSeededService } from './support/seeded-service.ts';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '2000' } } });
const count = Number(values.cases);

process.env.FSM_SLA_DETECTOR_PERIOD_MS = String(3_600_000);
process.env.FSM_REPORT_DYNAMODB_CALLS = 'true';
const client = { client_id: 'sla-bench', client_secret: 'sla-bench-secret' };
const bench = await startSeededService('service-levels', [{ name: 'SLA bench', clients: [client] }]);
try {
  const token = await bench.token(client);
  const workspaceId = String(
    JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).tenant_id,
  );
  const { caseStore } = await import('../shared/domain/cases/case.store.ts');
  const { withServiceLevel } = await import('../shared/domain/cases/case-service-level.ts');
  const { detectServiceLevels } = await import('../shared/domain/cases/sla-detector.ts');
  const { systemEvent } = await import('../shared/events/domain-event.ts');
  const { newRecordId } = await import('../shared/domain/record-id.ts');
  const { countingDynamoCalls } = await import('../shared/data/call-cost.ts');

  // All due within one minute, an hour ahead: one partition of the index.
  const minute = Math.floor((Date.now() + 3_600_000) / 60_000) * 60_000;
  const store = caseStore.of(workspaceId);
  const writeStart = performance.now();
  const ids = Array.from({ length: count }, () => newRecordId());
  for (let start = 0; start < count; start += 16) {
    await Promise.all(
      ids.slice(start, start + 16).map((id, index) => {
        const now = new Date().toISOString();
        const record = withServiceLevel(
          {
            id,
            title: `Due case ${start + index}`,
            status: 'SCHEDULED' as const,
            priority: 'NORMAL' as const,
            due_by: new Date(minute + ((start + index) % 60) * 1000).toISOString(),
            lock_version: 0,
            created_at: now,
            updated_at: now,
          },
          Date.now(),
        );
        return store.create(record, systemEvent(workspaceId, 'case.created', { type: 'case', id }, record));
      }),
    );
  }
  const writeSeconds = (performance.now() - writeStart) / 1000;

  const runStart = performance.now();
  const {
    result: report,
    readUnits,
    writeUnits,
  } = await countingDynamoCalls(() => detectServiceLevels({ now: minute + 59_999 }));
  const runSeconds = (performance.now() - runStart) / 1000;

  const round = (value: number, digits = 1) => Number(value.toFixed(digits));
  console.log(
    JSON.stringify(
      {
        cases: count,
        written_per_second: round(count / writeSeconds),
        run: report,
        run_seconds: round(runSeconds, 2),
        settled_per_second: round(report.changed / runSeconds),
        read_units_per_breach: round(readUnits / Math.max(1, report.changed), 2),
        write_units_per_breach: round(writeUnits / Math.max(1, report.changed), 2),
      },
      null,
      2,
    ),
  );
} finally {
  await bench.stop();
}
