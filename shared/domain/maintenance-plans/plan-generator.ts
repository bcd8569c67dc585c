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
import { caseStore } from '../cases/case.store.ts';
import { pickTemplate, templateFields, withTemplate } from './generated-case.ts';
import { casesPerTransaction, type PendingCase, writeCaseBatch } from './generated-case-writes.ts';
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
  /** Cases written per transaction (generated-case-writes.ts); 1 shows a case's own cost. */
  casesPerTransaction?: number;
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

/** What a plan has to do in this run: its window's occurrences, the unclaimed ones, its cursor. */
interface PlanWork {
  plan: MaintenancePlan;
  occurrences: string[];
  /** Filled from the claims of all the run's plans, read together (syncPlans). */
  pending: string[];
  /** The cursor to write once the pending cases are; none when the window held no occurrence. */
  cursor?: GenerationCursor;
}

/** One plan: reconcile after an edit, then the occurrences of its window. */
async function preparePlan(
  workspaceId: string,
  plan: MaintenancePlan,
  cursor: GenerationCursor | undefined,
  state: RunState,
): Promise<PlanWork | undefined> {
  if (plan.status !== 'ACTIVE') return undefined;
  state.report.plans += 1;
  const until = state.now + horizonMs(plan);
  const current = cursor?.revision === plan.lock_version;
  // A plan never edited (lock_version 0) has nothing to bring in line: its cases are its own.
  if (!current && plan.lock_version > 0) await reconcile(workspaceId, plan, state);
  // The same revision was generated up to `through`: only the new end of the horizon is left.
  const through = current && cursor ? Date.parse(cursor.through) : 0;
  const from = Math.max(state.now, through);
  const occurrences =
    from < until
      ? occurrencesBetween(plan, from, until).slice(0, maxOccurrencesPerHorizon).map(formatOccurrence)
      : [];
  // A window without occurrences leaves the cursor where it was: the next run expands a little
  // more instead of every run writing every plan's cursor.
  const next = { revision: plan.lock_version, through: new Date(Math.max(until, through)).toISOString() };
  return { plan, occurrences, pending: [], ...(!current || occurrences.length > 0 ? { cursor: next } : {}) };
}

/** The unclaimed occurrences of every plan, from one read of all their claims. */
async function findPending(workspaceId: string, works: readonly PlanWork[]): Promise<void> {
  const wanted = works.flatMap((work) =>
    work.occurrences.map((occurrence) => ({ planId: work.plan.id, occurrence })),
  );
  if (wanted.length === 0) return;
  const claimed = await generationStore.of(workspaceId).claimedOfPlans(wanted);
  for (const work of works) {
    work.pending = work.occurrences.filter((occurrence) => !claimed.has(`${work.plan.id} ${occurrence}`));
  }
}

/**
 * The pending cases of the plans in batches (generated-case-writes.ts). Returns the plans not
 * fully written (a batch failed, or the deadline came first): they keep their cursors, so the next
 * run does them again, and their claims keep it from writing anything twice. With a crash hook the
 * batches go one at a time and stop at exactly its count.
 */
async function writeCases(
  workspaceId: string,
  works: readonly PlanWork[],
  state: RunState,
): Promise<Set<string>> {
  const failed = new Set<string>();
  const pending: PendingCase[] = works.flatMap((work) =>
    work.pending.map((occurrence) => ({ plan: work.plan, occurrence })),
  );
  const stopAfter = state.options.stopAfterWrites;
  const perTransaction = Math.max(1, state.options.casesPerTransaction ?? casesPerTransaction);
  const batches: PendingCase[][] = [];
  for (let start = 0; start < pending.length; ) {
    const room = stopAfter === undefined ? perTransaction : Math.max(1, stopAfter - state.writes - start);
    const size = Math.min(perTransaction, room);
    batches.push(pending.slice(start, start + size));
    start += size;
  }
  const pool = stopAfter === undefined ? state : { ...state, options: { ...state.options, concurrency: 1 } };
  const written = new Set<PendingCase[]>();
  await inPool(batches, pool, async (batch) => {
    written.add(batch);
    try {
      const outcome = await writeCaseBatch(workspaceId, batch);
      state.report.created += outcome.created;
      state.report.lost += outcome.lost;
    } catch (error) {
      for (const planId of new Set(batch.map((one) => one.plan.id))) {
        if (!failed.has(planId)) state.onError(planId, error);
        failed.add(planId);
      }
      return;
    }
    for (const _ of batch) countWrite(state);
  });
  state.report.failed += failed.size;
  // Batches the deadline left unwritten: their plans keep their cursors, like failed ones.
  const unfinished = new Set(failed);
  for (const batch of batches) {
    if (!written.has(batch)) for (const one of batch) unfinished.add(one.plan.id);
  }
  return unfinished;
}

/** Prepares every plan, writes their cases, then moves the cursors of the plans that succeeded. */
async function syncPlans(
  workspaceId: string,
  plans: readonly MaintenancePlan[],
  cursors: ReadonlyArray<GenerationCursor | undefined>,
  state: RunState,
) {
  const works: PlanWork[] = [];
  await inPool(
    plans.map((plan, index) => ({ plan, cursor: cursors[index] })),
    state,
    async ({ plan, cursor }) => {
      try {
        const work = await preparePlan(workspaceId, plan, cursor, state);
        if (work) works.push(work);
      } catch (error) {
        if (error instanceof SimulatedGeneratorCrash) throw error;
        state.report.failed += 1;
        state.onError(plan.id, error);
      }
    },
  );
  await findPending(workspaceId, works);
  // The list counters of the run's cases move in a few merged applies at its end (tally.ts).
  const failed = await withTalliesGathered(() => writeCases(workspaceId, works, state));
  // Only after their cases: a cursor ahead of a case that was never written would skip it.
  const moved = works.flatMap((work) =>
    work.cursor && !failed.has(work.plan.id) ? [{ planId: work.plan.id, cursor: work.cursor }] : [],
  );
  try {
    if (moved.length > 0) await saveCursorsRetried(workspaceId, moved);
  } catch (error) {
    // Their cases are written; without cursors the next run only reads their claims again.
    state.report.failed += moved.length;
    for (const { planId } of moved) state.onError(planId, error);
  }
}

/**
 * The cursors, tried three times: the 10,000-plan bench saw a whole workspace's cursor writes run
 * out of the data layer's deadline on a busy DynamoDB Local. Every put is idempotent.
 */
async function saveCursorsRetried(
  workspaceId: string,
  moved: ReadonlyArray<{ planId: string; cursor: GenerationCursor }>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await generationStore.of(workspaceId).saveCursors(moved);
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
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
    const plans = (await maintenancePlanStore.of(workspaceId).list()).filter(
      (plan) => plan.status === 'ACTIVE',
    );
    if (plans.length === 0) continue;
    const cursors = await generationStore.of(workspaceId).cursors(plans.map((plan) => plan.id));
    await syncPlans(workspaceId, plans, cursors, state);
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
  const cursors = await generationStore.of(workspaceId).cursors([planId]);
  await syncPlans(workspaceId, [plan], cursors, state);
  return state.report;
}
