/**
 * Exactly one case per occurrence, whatever happens to the generators: a generator stopped after
 * k writes (as a crash stops it: no cursor written, nothing cleaned up) and run again, and two
 * generators at once (one of them crashing too), leave one case per occurrence of the horizon, no
 * more and no fewer. The generators run here, in the test, on the stack's DynamoDB Local, over a
 * plan of a workspace of their own that neither the stack's timer nor its consumer sees (the plan
 * is put without an outbox event, and the workspace is in no workspace index).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';

type Generator = typeof import('../../shared/domain/maintenance-plans/plan-generator.ts');
type Table = typeof import('../../shared/data/table.ts');
type Keys = typeof import('../../shared/data/keys.ts');

let generator: Generator;
let table: Table;
let dataKeys: Keys;

beforeAll(async () => {
  process.env.FSM_DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
  const { resetConfig } = await import('../../shared/config.ts');
  resetConfig();
  generator = await import('../../shared/domain/maintenance-plans/plan-generator.ts');
  table = await import('../../shared/data/table.ts');
  dataKeys = await import('../../shared/data/keys.ts');
});

const dayMs = 86_400_000;
/** A fixed clock: every run of the property sees the same horizon. */
const now = Date.parse('2026-12-01T00:00:00Z');

async function putPlan(workspaceId: string, horizonDays: number) {
  const plan = {
    id: randomUUID(),
    name: 'Chaos plan',
    status: 'ACTIVE' as const,
    case_template: { title: 'Check the pumps', priority: 'NORMAL' as const, duration: 'PT30M' },
    rrule: 'FREQ=DAILY;BYHOUR=8,14',
    dtstart: '2026-11-20T08:00:00',
    timezone: 'Europe/Berlin',
    horizon: `P${horizonDays}D`,
    created_at: '2026-11-20T07:00:00Z',
    updated_at: '2026-11-20T07:00:00Z',
    lock_version: 0,
  };
  await table.putRecord(
    { pk: dataKeys.collectionPk(workspaceId, 'MAINTENANCE_PLAN'), sk: plan.id },
    'maintenance-plan',
    plan,
  );
  return plan;
}

/** The plan's cases in the table, by occurrence, and its claims. */
async function generatedOf(workspaceId: string, planId: string) {
  const cases = (
    await table.queryPartition(dataKeys.collectionPk(workspaceId, 'CASE'), { consistent: true })
  ).filter((item) => item.maintenance_plan_id === planId);
  const claims = await table.queryPartition(dataKeys.occurrenceClaimPartition(workspaceId, planId), {
    consistent: true,
  });
  return { cases, claims };
}

/** Twice a day over the horizon from `now`. */
const expectedCount = (horizonDays: number) => horizonDays * 2;

async function expectOnePerOccurrence(workspaceId: string, planId: string, horizonDays: number) {
  const { cases, claims } = await generatedOf(workspaceId, planId);
  const occurrences = cases.map((item) => String(item.occurrence));
  expect(new Set(occurrences).size).toBe(occurrences.length);
  expect(occurrences).toHaveLength(expectedCount(horizonDays));
  expect(claims).toHaveLength(occurrences.length);
  // Each claim names the one case of its occurrence.
  const caseOf = new Map(cases.map((item) => [String(item.occurrence), String(item.id)]));
  for (const claim of claims) expect(caseOf.get(String(claim.occurrence))).toBe(String(claim.case_id));
}

async function expectOnePerOccurrenceOf(cases: Array<Record<string, unknown>>) {
  const occurrences = cases.map((item) => String(item.occurrence));
  expect(new Set(occurrences).size).toBe(occurrences.length);
}

const crashed = (error: unknown) => error instanceof generator.SimulatedGeneratorCrash;

describe('Maintenance generation under crashes and concurrency', () => {
  it('leaves one case per occurrence when a generator crashed after k writes is run again', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 9 }), async (k) => {
        const workspaceId = randomUUID();
        const plan = await putPlan(workspaceId, 5);
        const first = await generator.generatePlan(workspaceId, plan.id, { now, stopAfterWrites: k }).then(
          () => 'finished',
          (error: unknown) => (crashed(error) ? 'crashed' : Promise.reject(error)),
        );
        expect(first).toBe('crashed');
        expect((await generatedOf(workspaceId, plan.id)).cases).toHaveLength(k);
        // Restarted: it knows nothing of the crashed run (no cursor) and finishes the horizon.
        const report = await generator.generatePlan(workspaceId, plan.id, { now: now + 60_000 });
        expect(report.created).toBe(expectedCount(5) - k);
        await expectOnePerOccurrence(workspaceId, plan.id, 5);
      }),
      { numRuns: 6 },
    );
  });

  it('leaves one case per occurrence when two generators run at once, one of them crashing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), async (k) => {
        const workspaceId = randomUUID();
        const plan = await putPlan(workspaceId, 7);
        const [one, two] = await Promise.allSettled([
          generator.generatePlan(workspaceId, plan.id, { now }),
          generator.generatePlan(workspaceId, plan.id, { now, stopAfterWrites: k }),
        ]);
        expect(one.status).toBe('fulfilled');
        if (two.status === 'rejected') expect(crashed(two.reason)).toBe(true);
        await expectOnePerOccurrence(workspaceId, plan.id, 7);
        // A third run later finds nothing left to do.
        const again = await generator.generatePlan(workspaceId, plan.id, { now: now + 60_000 });
        expect(again.created).toBe(0);
        await expectOnePerOccurrence(workspaceId, plan.id, 7);
      }),
      { numRuns: 4 },
    );
  });

  it('finds the plans of every workspace that has plans in the scheduled run', async () => {
    const workspaceId = randomUUID();
    const plan = await putPlan(workspaceId, 3);
    const { maintenanceWorkspaces } = await import(
      '../../shared/domain/maintenance-plans/maintenance-plan.store.ts'
    );
    await maintenanceWorkspaces.register(workspaceId);
    // The real clock, as the stack's timer runs it (a fixed one would fill other tests' plans ahead).
    const started = Date.now();
    const report = await generator.generateAll();
    expect(report.failed).toBe(0);
    const { cases } = await generatedOf(workspaceId, plan.id);
    expect(cases.length).toBeGreaterThanOrEqual(5);
    expect(cases.every((item) => Date.parse(String(item.occurrence)) >= started - 60_000)).toBe(true);
    await expectOnePerOccurrenceOf(cases);
  });

  it('never generates occurrences before now, nor twice when the clock moves on', async () => {
    const workspaceId = randomUUID();
    const plan = await putPlan(workspaceId, 2);
    await generator.generatePlan(workspaceId, plan.id, { now });
    const later = await generator.generatePlan(workspaceId, plan.id, { now: now + dayMs });
    // One more day of horizon: two more occurrences, nothing again.
    expect(later.created).toBe(2);
    const { cases } = await generatedOf(workspaceId, plan.id);
    expect(cases).toHaveLength(6);
    expect(cases.every((item) => Date.parse(String(item.occurrence)) >= now)).toBe(true);
  });
});
