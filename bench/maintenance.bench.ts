/**
 * `npm run bench:maintenance` (issue 39): `--plans` (10,000) maintenance plans generating
 * `--days` (30) ahead on a fresh local stack. The plans are written straight into the table (as
 * a migration would: no create events, so the stack's own consumer generates nothing), the
 * stack's timer is off (FSM_MAINTENANCE_INTERVAL_MS=0), and this process runs the scheduled
 * generation itself (plan-generator.ts `generateAll`, as the function on AWS does) against the
 * stack's DynamoDB Local: the seconds for the whole horizon (goal ≤ 60 s) and cases per second.
 * Write units per generated case are measured first on 20 plans with one case per transaction
 * (ReturnConsumedCapacity, tallies included): DynamoDB Local under-reports a transaction of many
 * items, while DynamoDB bills a batch as the sum of its cases. Those 20 plans are then generated
 * already, so the timed run covers the rest. Then a second run, the steady state.
 *
 * The rules are a maintenance mix: a quarter weekly (4–5 cases in 30 days), half monthly (1),
 * a quarter quarterly (0–1), each at 07:00–16:00 local in Europe/Berlin or America/New_York.
 * Prints figures only.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startSeededService } from './support/seeded-service.ts';

const { values } = parseArgs({
  options: {
    plans: { type: 'string', default: '10000' },
    days: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '4' },
  },
});
const planCount = Number(values.plans);
const days = Number(values.days);
const concurrency = Number(values.concurrency);

process.env.FSM_MAINTENANCE_INTERVAL_MS = '0';
const client = { client_id: 'maintenance-bench', client_secret: 'maintenance-bench-secret' };
const bench = await startSeededService('maintenance', [{ name: 'Maintenance bench', clients: [client] }]);

try {
  const { putRecords } = await import('../shared/data/table.ts');
  const { collectionPk } = await import('../shared/data/keys.ts');
  const { countingDynamoCalls } = await import('../shared/data/call-cost.ts');
  const { maintenanceWorkspaces } = await import(
    '../shared/domain/maintenance-plans/maintenance-plan.store.ts'
  );
  const { generateAll } = await import('../shared/domain/maintenance-plans/plan-generator.ts');

  // Ten workspaces of 1,000 plans: the run goes workspace by workspace, as on AWS.
  const workspaces = Array.from({ length: Math.max(1, Math.ceil(planCount / 1000)) }, () => randomUUID());
  const rules = [
    'FREQ=WEEKLY;BYDAY=TU',
    'FREQ=MONTHLY;BYMONTHDAY=15',
    'FREQ=MONTHLY;BYDAY=1MO',
    'FREQ=MONTHLY;INTERVAL=3',
  ];
  const today = new Date().toISOString().slice(0, 10);
  const plans = Array.from({ length: planCount }, (_, index) => {
    const workspaceId = workspaces[index % workspaces.length] as string;
    const hour = String(7 + (index % 10)).padStart(2, '0');
    return {
      workspaceId,
      plan: {
        id: randomUUID(),
        name: `Plan ${index}`,
        status: 'ACTIVE',
        case_template: { title: `Maintenance ${index}`, priority: 'NORMAL', duration: 'PT1H' },
        rrule: rules[index % rules.length],
        dtstart: `${today}T${hour}:00:00`,
        timezone: index % 2 ? 'Europe/Berlin' : 'America/New_York',
        horizon: `P${days}D`,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        lock_version: 0,
      },
    };
  });
  const loadStarted = performance.now();
  // Retried: on a machine shared with other work DynamoDB Local may miss the data layer's 3 s deadline.
  const retried = async (work: () => Promise<void>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      }
    }
  };
  for (let start = 0; start < plans.length; start += 100) {
    await retried(() =>
      putRecords(
        plans.slice(start, start + 100).map(({ workspaceId, plan }) => ({
          key: { pk: collectionPk(workspaceId, 'MAINTENANCE_PLAN'), sk: plan.id },
          entity: 'maintenance-plan',
          record: plan,
        })),
      ),
    );
  }
  for (const id of workspaces) await retried(() => maintenanceWorkspaces.register(id));
  console.log(
    `maintenance: ${planCount} plans in ${workspaces.length} workspaces loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );

  // What one case costs in write units, alone in its transaction: DynamoDB Local under-reports the
  // capacity of a transaction of many items, and on DynamoDB a batch costs the sum of its cases.
  const { generatePlan } = await import('../shared/domain/maintenance-plans/plan-generator.ts');
  const calibration = plans.slice(0, 20);
  const alone = await countingDynamoCalls(async () => {
    let created = 0;
    for (const { workspaceId, plan } of calibration) {
      created += (await generatePlan(workspaceId, plan.id, { casesPerTransaction: 1 })).created;
    }
    return created;
  });
  console.log(
    `  write units per generated case, one case per transaction (${alone.result} cases of ${calibration.length} plans, tallies included): ${(alone.writeUnits / Math.max(1, alone.result)).toFixed(1)}`,
  );

  const started = performance.now();
  const run = await countingDynamoCalls(() => generateAll({ concurrency }));
  const seconds = (performance.now() - started) / 1000;
  const report = run.result;
  console.log(`  first run (the whole ${days}-day horizon): ${seconds.toFixed(1)} s (goal ≤ 60 s)`);
  console.log(
    `  ${report.created} cases for ${report.plans} plans, ${(report.created / seconds).toFixed(0)} cases/s, ${report.failed} plans failed, ${report.lost} occurrences lost to another generator`,
  );
  console.log(
    `  ${run.writeUnits.toFixed(0)} write units as DynamoDB Local reports batched transactions (${(run.writeUnits / Math.max(1, report.created)).toFixed(1)} per case: an under-count, see above); ${run.readUnits.toFixed(0)} read units`,
  );
  console.log(
    `  calls: ${[...run.calls.entries()].map(([command, count]) => `${command} ${count}`).join(', ')}`,
  );

  const steadyStarted = performance.now();
  const steady = await countingDynamoCalls(() => generateAll({ concurrency }));
  console.log(
    `  second run (nothing new): ${((performance.now() - steadyStarted) / 1000).toFixed(1)} s, ${steady.result.created} cases, ${steady.writeUnits.toFixed(0)} write units, ${steady.readUnits.toFixed(0)} read units`,
  );
} finally {
  await bench.stop();
}
