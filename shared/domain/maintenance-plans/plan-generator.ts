/**
 * Keeping the cases of maintenance plans generated, off the request path: the scheduled run over
 * every plan (functions/maintenance-generator on AWS, a timer of the local stack), and one plan
 * right after it was created or edited (plan-generation.consumer.ts). The invariants
 * (docs/maintenance-plans.md):
 *
 * - Exactly one case per occurrence. Each case is created in one transaction with its occurrence
 *   claim, on the condition that the claim is absent (maintenance-plan.store.ts). A generator that
 *   retries, crashes mid-batch and runs again, or meets another generator, loses that condition
 *   and moves on: nothing here needs a lock or a leader.
 * - Only future NEW cases follow an edit. When the plan's revision (lock_version) differs from the
 *   one its cursor names, its future generated cases still NEW are brought in line first: an
 *   occurrence the rule no longer has loses its case (and claim), a case whose template fields
 *   changed is updated in place. SCHEDULED, IN_PROGRESS, ON_HOLD, DONE and CANCELLED cases, and
 *   past ones, are never touched. A case a user deleted keeps its claim: it is not generated again.
 * - Paused plans generate nothing and change nothing.
 * - Only occurrences from now to now + horizon are generated: a plan never fills the past.
 */
import { isDeepStrictEqual } from 'node:util';
import { DataError } from '../../data/data-error.ts';
import { transactWrite, withTalliesGathered } from '../../data/table.ts';
import { previousAttributes, systemEvent } from '../../events/domain-event.ts';
import { parseIsoDuration } from '../../schema/duration.ts';
import type { Case } from '../cases/case.schema.ts';
import { instantOfId } from '../cases/case.service.ts';
import { caseStore } from '../cases/case.store.ts';
import { newRecordId } from '../record-id.ts';
import type { MaintenancePlan } from './maintenance-plan.schema.ts';
import { maxOccurrencesPerHorizon } from './maintenance-plan.service.ts';
import {
  type GenerationCursor,
  generationStore,
  maintenancePlanStore,
  maintenanceWorkspaces,
} from './maintenance-plan.store.ts';
import { formatOccurrence, occurrencesBetween } from './occurrences.ts';

export interface GenerationOptions {
  /** The instant generation starts from (tests move it); default the clock. */
  now?: number;
  /** Plans worked on at once. */
  concurrency?: number;
  /** Stop taking up plans after this instant (a Lambda's timeout); the next run goes on. */
  deadline?: number;
  /** Tests only: stop as a crash would, after this many case writes (SimulatedGeneratorCrash). */
  stopAfterWrites?: number;
}

export interface GenerationReport {
  plans: number;
  created: number;
  updated: number;
  deleted: number;
  /** Occurrences another generator claimed first. */
  lost: number;
  /** Plans whose generation failed (logged; the next run tries again). */
  failed: number;
}

/** What a test hook throws to stop a generator mid-batch, as a crash would (nothing cleaned up). */
export class SimulatedGeneratorCrash extends Error {
  override readonly name = 'SimulatedGeneratorCrash';
}

interface RunState {
  now: number;
  writes: number;
  options: GenerationOptions;
  report: GenerationReport;
  onError: (planId: string, error: unknown) => void;
}

const emptyReport = (): GenerationReport => ({
  plans: 0,
  created: 0,
  updated: 0,
  deleted: 0,
  lost: 0,
  failed: 0,
});

/** The fields a generated case takes from its plan's template. */
function templateFields(plan: MaintenancePlan): Partial<Case> {
  const t = plan.case_template;
  return {
    title: t.title,
    ...(t.description !== undefined ? { description: t.description } : {}),
    priority: t.priority,
    duration: t.duration,
    ...(t.required_skill_ids?.length ? { required_skill_ids: [...t.required_skill_ids] } : {}),
    ...(t.area_id !== undefined ? { area_id: t.area_id } : {}),
    ...(t.location !== undefined ? { location: { ...t.location } } : {}),
  };
}

const templateKeys = [
  'title',
  'description',
  'priority',
  'duration',
  'required_skill_ids',
  'area_id',
  'location',
] as const;

function pickTemplate(record: Partial<Case>): Record<string, unknown> {
  return Object.fromEntries(
    templateKeys.flatMap((key) => (record[key] === undefined ? [] : [[key, record[key]]])),
  );
}

/** A new case of an occurrence: NEW, unplanned, carrying its plan and occurrence. */
export function generatedCase(plan: MaintenancePlan, occurrence: string): Case {
  const id = newRecordId();
  const now = instantOfId(id);
  return {
    id,
    status: 'NEW',
    ...templateFields(plan),
    schedule_lock: 'NONE',
    maintenance_plan_id: plan.id,
    occurrence,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  } as Case;
}

function horizonMs(plan: MaintenancePlan): number {
  const parsed = parseIsoDuration(plan.horizon);
  return 'seconds' in parsed ? parsed.seconds * 1000 : 30 * 86_400_000;
}

function countWrite(state: RunState): void {
  state.writes += 1;
  const stopAfter = state.options.stopAfterWrites;
  if (stopAfter !== undefined && state.writes >= stopAfter) {
    throw new SimulatedGeneratorCrash(`stopped after ${state.writes} writes`);
  }
}

const lostRace = (error: unknown) =>
  error instanceof DataError && (error.code === 'version-conflict' || error.code === 'not-found');

/** A generated case with the plan's template fields instead of its own. */
function withTemplate(current: Case, plan: MaintenancePlan): Case {
  const next = { ...current } as Record<string, unknown>;
  for (const key of templateKeys) delete next[key];
  return {
    ...(next as unknown as Case),
    ...templateFields(plan),
    updated_at: new Date().toISOString(),
    lock_version: current.lock_version + 1,
  };
}

/** One future NEW case after an edit: deleted, updated or left; whether it wrote. */
async function reconcileCase(
  workspaceId: string,
  plan: MaintenancePlan,
  current: Case,
  occurrence: { at: string; wanted: boolean },
): Promise<boolean> {
  const resource = { type: 'case', id: current.id };
  const store = caseStore.of(workspaceId);
  try {
    if (!occurrence.wanted) {
      const event = systemEvent(workspaceId, 'case.deleted', resource, current);
      await transactWrite([
        ...store.writes.remove(current, event),
        generationStore.of(workspaceId).release(plan.id, occurrence.at),
      ]);
      return true;
    }
    if (isDeepStrictEqual(pickTemplate(current), pickTemplate(templateFields(plan)))) return false;
    const updated = withTemplate(current, plan);
    const previous = previousAttributes(current, updated);
    await store.replace(
      updated,
      current,
      systemEvent(workspaceId, 'case.updated', resource, updated, previous),
    );
    return true;
  } catch (error) {
    // Someone changed or deleted the case meanwhile: theirs stands.
    if (lostRace(error)) return false;
    throw error;
  }
}

/** Future generated cases still NEW follow the plan as it is now (see the invariants above). */
async function reconcile(workspaceId: string, plan: MaintenancePlan, state: RunState): Promise<void> {
  const claims = await generationStore.of(workspaceId).claimsFrom(plan.id, formatOccurrence(state.now));
  if (claims.length === 0) return;
  const last = Date.parse(claims[claims.length - 1]?.occurrence ?? '');
  const wanted = new Set(occurrencesBetween(plan, state.now, last + 1000).map(formatOccurrence));
  const cases = await caseStore.of(workspaceId).getManyConsistent(claims.map((claim) => claim.case_id));
  for (const [index, claim] of claims.entries()) {
    const current = cases[index];
    if (current?.status !== 'NEW' || current.maintenance_plan_id !== plan.id) continue;
    const at = claim.occurrence;
    const wrote = await reconcileCase(workspaceId, plan, current, { at, wanted: wanted.has(at) });
    if (!wrote) continue;
    if (wanted.has(at)) state.report.updated += 1;
    else state.report.deleted += 1;
    countWrite(state);
  }
}

/** Cases for the unclaimed occurrences in [from, to). */
async function fill(
  workspaceId: string,
  plan: MaintenancePlan,
  window: { from: number; to: number },
  state: RunState,
): Promise<number> {
  const generation = generationStore.of(workspaceId);
  const occurrences = occurrencesBetween(plan, window.from, window.to)
    .slice(0, maxOccurrencesPerHorizon)
    .map(formatOccurrence);
  if (occurrences.length === 0) return 0;
  const claimed = await generation.claimed(plan.id, occurrences);
  for (const occurrence of occurrences) {
    if (claimed.has(occurrence)) continue;
    const record = generatedCase(plan, occurrence);
    const event = systemEvent(workspaceId, 'case.created', { type: 'case', id: record.id }, record);
    try {
      await transactWrite([
        ...caseStore.of(workspaceId).writes.create(record, event),
        generation.claim(plan.id, occurrence, record.id),
      ]);
      state.report.created += 1;
    } catch (error) {
      // The claim is taken: another generator (or this one before a crash) made this case.
      if (error instanceof DataError && error.code === 'already-exists') {
        state.report.lost += 1;
        continue;
      }
      throw error;
    }
    countWrite(state);
  }
  return occurrences.length;
}

/** One plan: reconcile after an edit, then fill the horizon, then remember how far it got. */
async function syncPlan(
  workspaceId: string,
  plan: MaintenancePlan,
  cursor: GenerationCursor | undefined,
  state: RunState,
): Promise<void> {
  if (plan.status !== 'ACTIVE') return;
  state.report.plans += 1;
  const until = state.now + horizonMs(plan);
  const current = cursor?.revision === plan.lock_version;
  if (!current) await reconcile(workspaceId, plan, state);
  // The same revision was generated up to `through`: only the new end of the horizon is left.
  const through = current && cursor ? Date.parse(cursor.through) : 0;
  const from = Math.max(state.now, through);
  const filled = from < until ? await fill(workspaceId, plan, { from, to: until }, state) : 0;
  // A window without occurrences leaves the cursor where it was: the next run expands a little
  // more instead of every run writing every plan's cursor.
  if (!current || filled > 0) {
    await generationStore.of(workspaceId).saveCursor(plan.id, {
      revision: plan.lock_version,
      through: new Date(Math.max(until, through)).toISOString(),
    });
  }
}

/** Runs `work` over `items`, `concurrency` at a time, stopping at the deadline. */
async function inPool<T>(items: readonly T[], state: RunState, work: (item: T) => Promise<void>) {
  let next = 0;
  const concurrency = Math.max(1, state.options.concurrency ?? 8);
  const worker = async () => {
    while (next < items.length) {
      if (state.options.deadline !== undefined && Date.now() > state.options.deadline) return;
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

async function syncPlans(workspaceId: string, plans: readonly MaintenancePlan[], state: RunState) {
  const active = plans.filter((plan) => plan.status === 'ACTIVE');
  const cursors = await generationStore.of(workspaceId).cursors(active.map((plan) => plan.id));
  const byId = new Map(active.map((plan, index) => [plan.id, cursors[index]]));
  await inPool(active, state, async (plan) => {
    try {
      // The list counters of a plan's cases move in one apply after the plan, not one per case.
      await withTalliesGathered(() => syncPlan(workspaceId, plan, byId.get(plan.id), state));
    } catch (error) {
      if (error instanceof SimulatedGeneratorCrash) throw error;
      state.report.failed += 1;
      state.onError(plan.id, error);
    }
  });
}

function runState(options: GenerationOptions, onError: RunState['onError']): RunState {
  return { now: options.now ?? Date.now(), writes: 0, options, report: emptyReport(), onError };
}

/** The scheduled run: every active plan of every workspace. */
export async function generateAll(
  options: GenerationOptions = {},
  onError: RunState['onError'] = () => {},
): Promise<GenerationReport> {
  const state = runState(options, onError);
  for (const workspaceId of await maintenanceWorkspaces.all()) {
    const plans = await maintenancePlanStore.of(workspaceId).list();
    if (plans.length > 0) await syncPlans(workspaceId, plans, state);
  }
  return state.report;
}

/** One plan of one workspace (after its create or edit); nothing when it is gone. */
export async function generatePlan(
  workspaceId: string,
  planId: string,
  options: GenerationOptions = {},
): Promise<GenerationReport> {
  const state = runState(options, (_, error) => {
    throw error;
  });
  const plan = await maintenancePlanStore.of(workspaceId).getConsistent(planId);
  if (!plan) return state.report;
  const [cursor] = await generationStore.of(workspaceId).cursors([planId]);
  await withTalliesGathered(() => syncPlan(workspaceId, plan, cursor, state));
  return state.report;
}
