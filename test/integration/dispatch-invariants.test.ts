/**
 * The invariants of dispatch (docs/scheduling.md, "Invariants"), held under random days: random
 * cases, locks, edits and bookings, random runs applied in random order, applies racing each other
 * and bookings, and applies stopped after k writes (as a crash would) and taken up again — with a
 * record changed meanwhile or not. After every step:
 *
 * Runs are PLAN runs and REPAIR runs (the rest of one or two shifts' days, the fewest changes).
 *
 * 1. a case is a stop of one open (PLANNED or IN_PROGRESS) tour at most;
 * 2. a shift has one PLANNED tour at most;
 * 3. no case is SCHEDULED off an open tour, and a SCHEDULED case's assignee is its tour's technician;
 * 4. every lock is kept: no run or apply moved a locked case off its technician or start;
 * 5. every PLANNED tour is feasible as written — each stop starting at its scheduled_start, with
 *    travel, the shift's hours and its breaks — under an independent check
 *    (test/support/tour-feasibility.ts, sharing no code with the service's);
 * 6. an apply is all or nothing: APPLIED means every planned case is where the plan put it; CONFLICT
 *    means every record is as before (content), apart from the one changed meanwhile.
 *
 * The domain runs in this process against a DynamoDB Local of its own behind the DynamoDB-semantics
 * proxy (shared/local-stack/dynamodb-semantics-proxy.ts): concurrent transactions on one item cancel
 * one another there, as on DynamoDB, which DynamoDB Local alone never shows. The solver searches a
 * fixed number of iterations (fast, and the same answer for the same input).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../shared/auth/actor.ts';
import { grantsOfRoles } from '../../shared/auth/grants.ts';
import type { Case } from '../../shared/domain/cases/case.schema.ts';
import { createCase, updateCase } from '../../shared/domain/cases/case.service.ts';
import { caseStore } from '../../shared/domain/cases/case.store.ts';
import { applyRun } from '../../shared/domain/optimization-runs/apply.service.ts';
import { processApplyMessage } from '../../shared/domain/optimization-runs/apply-job.ts';
import { createRun, getRun } from '../../shared/domain/optimization-runs/optimization-run.service.ts';
import { processSolverMessage } from '../../shared/domain/optimization-runs/solver-job.ts';
import type { SolverPort } from '../../shared/domain/optimization-runs/solver-port.ts';
import { bookCase } from '../../shared/domain/scheduling/booking.service.ts';
import { findSlots } from '../../shared/domain/scheduling/slots.service.ts';
import { greatCircleMetres, greatCircleTravel, type Place } from '../../shared/domain/scheduling/travel.ts';
import type { Shift } from '../../shared/domain/shifts/shift.schema.ts';
import { createShift } from '../../shared/domain/shifts/shift.service.ts';
import type { Tour } from '../../shared/domain/tours/tour.schema.ts';
import { tourStore } from '../../shared/domain/tours/tour.store.ts';
import {
  serviceAccountIdOf,
  userIdOf,
  workspaceIdOf,
} from '../../shared/domain/workspaces/workspace-provisioning.ts';
import { applySeed } from '../../shared/local-stack/seed.ts';
import { writeMetricsTo } from '../../shared/observability/metrics.ts';
import { solve } from '../../shared/optimizer/solve.ts';
import { type SemanticsHarness, startSemanticsHarness } from '../support/semantics-harness.ts';
import { checkTourFeasible, tourAsWritten } from '../support/tour-feasibility.ts';

const workspaceName = 'Invariant Works';
const technicians = ['ada', 'bo', 'cy'].map((name) => `${name}@invariants.test`);
const depot: Place = { latitude: 52.52, longitude: 13.405 };
let harness: SemanticsHarness;
let dataDir: string;
let ctx: Actor;
let users: string[];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-invariants-'));
  harness = await startSemanticsHarness({ holdMs: 10 });
  // The runs' metric lines go to a file of this test's, not to its output.
  writeMetricsTo(join(dataDir, 'metrics.jsonl'));
  await applySeed({
    workspaces: [
      {
        name: workspaceName,
        realm: 'shared',
        status: 'ACTIVE',
        users: technicians.map((email) => ({
          email,
          firstname: 'Tech',
          lastname: email,
          roles: ['technician'],
        })),
        clients: [{ client_id: 'inv-admin', client_secret: 'inv-secret-1', roles: ['admin'] }],
      },
    ],
  });
  const workspaceId = workspaceIdOf(workspaceName);
  users = technicians.map((email) => userIdOf(workspaceId, email));
  ctx = {
    workspaceId,
    principal: {
      id: serviceAccountIdOf(workspaceId, 'inv-admin'),
      kind: 'service_account',
      workspaceId,
      roles: ['admin'],
      grants: grantsOfRoles(['admin']),
    },
    requestId: 'invariants',
    correlationId: 'invariants',
  };
}, 120_000);

afterAll(async () => {
  writeMetricsTo(undefined);
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The optimizer on a fixed budget of iterations: fast, and the same plan for the same input. */
const fastSolver: SolverPort = {
  async solve({ input, seed }) {
    return { output: solve(input, { timeLimit: 10, seed, iterations: 300 }) as never, solveMs: 1 };
  },
};

const hours = (day: number, h: number) => new Date(day + h * 3_600_000).toISOString();
const travel = (a: Place, b: Place) => Math.round((greatCircleMetres(a, b) * 1.3) / (40_000 / 3600));

/** What a lock keeps of a case, as last set by the test itself. */
interface Kept {
  lock: string;
  assignee_id?: string;
  scheduled_start?: string;
}

/** One random day: its shifts, cases, runs waiting to be applied, and what the locks keep. */
class Day {
  shifts: Shift[] = [];
  cases: string[] = [];
  pending: string[] = [];
  kept = new Map<string, Kept>();
  /** The steps taken so far (a failure's message lists them). */
  done: string[] = [];
  runs: string[] = [];
  /** Runs that left a locked case out (LOCK_NOT_KEPT): their stops stay put, feasible or not. */
  keptInPlace = new Set<string>();
  readonly day: number;
  readonly random: () => number;
  constructor(day: number, random: () => number) {
    this.day = day;
    this.random = random;
  }
  pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.random() * items.length)];
  }
}

async function newCase(d: Day): Promise<void> {
  const open = 8 + Math.floor(d.random() * 5);
  const record = await createCase(ctx, {
    title: `Job ${randomUUID().slice(0, 6)}`,
    status: 'NEW',
    priority: 'NORMAL',
    location: {
      latitude: depot.latitude + (d.random() - 0.5) * 0.04,
      longitude: depot.longitude + (d.random() - 0.5) * 0.06,
    },
    duration: `PT${30 + Math.floor(d.random() * 4) * 10}M`,
    time_windows: [{ start: hours(d.day, open), end: hours(d.day, open + 2 + Math.floor(d.random() * 4)) }],
  } as never);
  d.cases.push(record.id);
}

async function lock(d: Day): Promise<void> {
  const id = d.pick(d.cases) as string;
  const lockValue = d.pick(['NONE', 'ASSIGNEE', 'TIME', 'ASSIGNEE_AND_TIME'] as const) ?? 'NONE';
  try {
    const record = await updateCase(ctx, id, { schedule_lock: lockValue });
    d.done.push(`lock ${id.slice(-6)} ${lockValue}`);
    remember(d, record);
  } catch {
    // A lock needs what it keeps (an assignee, a start): refused with 422, nothing changed.
  }
}

function remember(d: Day, record: Case): void {
  if (!record.schedule_lock || record.schedule_lock === 'NONE') d.kept.delete(record.id);
  else {
    d.kept.set(record.id, {
      lock: record.schedule_lock,
      ...(record.assignee_id ? { assignee_id: record.assignee_id } : {}),
      ...(record.scheduled_start ? { scheduled_start: record.scheduled_start } : {}),
    });
  }
}

async function edit(d: Day, id = d.pick(d.cases) as string): Promise<void> {
  await updateCase(ctx, id, { title: `Edited ${randomUUID().slice(0, 6)}` });
}

/** Books a random case into one of its first offered slots: offered now, so bookable now. */
async function book(d: Day, racing = false, id = d.pick(d.cases) as string): Promise<string | undefined> {
  const record = await caseStore.of(ctx).get(id);
  if (!record || ['IN_PROGRESS', 'DONE', 'CANCELLED'].includes(record.status)) return undefined;
  const { items } = await findSlots(ctx, {
    case_id: id,
    from: hours(d.day, 8),
    to: hours(d.day, 16),
    limit: 3,
  } as never);
  const slot = d.pick(items);
  if (!slot) return undefined;
  const lockValue = d.random() < 0.3 ? 'ASSIGNEE' : 'NONE';
  try {
    const booked = await bookCase(ctx, id, {
      shift_id: slot.shift_id,
      start: slot.start,
      end: slot.end,
      schedule_lock: lockValue,
    });
    if (!racing) remember(d, booked);
    return id;
  } catch (error) {
    // Only a booking that raced another may find its slot gone.
    if (!racing) throw error;
    expect((error as { init?: { data?: { reason?: string } } }).init?.data?.reason).toBe('slot_unavailable');
    return undefined;
  }
}

/** After bookings that raced (of one case, maybe), what their locks keep is what the last one wrote. */
async function rememberBooked(d: Day, ids: ReadonlyArray<string | undefined>): Promise<void> {
  for (const id of new Set(ids.filter((booked): booked is string => booked !== undefined))) {
    const record = await caseStore.of(ctx).getConsistent(id);
    if (record) remember(d, record);
  }
}

/** A run over the day (its default selection, or some of the cases), solved; waits to be applied. */
async function plan(d: Day, mode: 'PLAN' | 'REPAIR' = 'PLAN'): Promise<void> {
  const named = d.random() < 0.5 ? d.cases.filter(() => d.random() < 0.6) : [];
  const run = await createRun(ctx, {
    from: hours(d.day, 0),
    to: hours(d.day, 24),
    ...(named.length > 0 ? { case_ids: named } : {}),
    // A REPAIR run re-plans one or two shifts' days with the fewest changes.
    shift_ids:
      mode === 'REPAIR'
        ? d.shifts
            .filter(() => d.random() < 0.5)
            .map((shift) => shift.id)
            .slice(0, 2)
        : d.shifts.map((shift) => shift.id),
    ...(mode === 'REPAIR' ? { mode } : {}),
    time_limit_seconds: 1,
  }).catch(() => undefined);
  if (!run) return; // a named case is no longer plannable, or no shift was named (422)
  const message = JSON.stringify({ v: 1, workspace_id: ctx.workspaceId, run_id: run.id });
  await processSolverMessage(
    message,
    { messageId: randomUUID() },
    {
      solver: fastSolver,
      travelFor: async () => greatCircleTravel,
      log: () => {},
    },
  );
  d.runs.push(run.id);
  if ((await getRun(ctx, run.id)).status === 'SUCCEEDED') d.pending.push(run.id);
}

interface Snapshot {
  cases: Map<string, string>;
  tours: Map<string, string>;
}

async function snapshot(): Promise<Snapshot> {
  const [cases, tours] = await Promise.all([caseStore.of(ctx).list(), tourStore.of(ctx).list()]);
  return {
    cases: new Map(
      cases.map((c) => [c.id, JSON.stringify([c.status, c.assignee_id, c.scheduled_start, c.scheduled_end])]),
    ),
    tours: new Map(
      tours.map((t) => [
        t.id,
        JSON.stringify([t.status, t.stops.map((s) => s.case_id), t.driver_id, t.shift_id]),
      ]),
    ),
  };
}

/**
 * Applies a waiting run: the job stops after k writes (sometimes), a record it read may change
 * while it is down, and the job is taken up again (the same message, as SQS hands it out again).
 */
async function apply(
  d: Day,
  runId = d.pending.splice(Math.floor(d.random() * d.pending.length), 1)[0],
  racing = false,
  bookedMeanwhile?: string,
): Promise<void> {
  if (!runId) return;
  const before = await snapshot();
  const requested = await applyRun(ctx, runId).catch(() => undefined);
  if (!requested) return;
  const message = JSON.stringify({
    v: 1,
    workspace_id: ctx.workspaceId,
    run_id: runId,
    attempt: requested.application?.attempt,
  });
  const messageId = randomUUID();
  const crashAt = d.random() < 0.5 ? 1 + Math.floor(d.random() * 6) : undefined;
  let changed: string | undefined;
  const ports = {
    log: () => {},
    crashHook: async () => (crashAt ? { afterWrites: crashAt, crashed: async () => {} } : undefined),
  };
  try {
    await processApplyMessage(message, { messageId }, ports);
  } catch (error) {
    expect((error as Error).name).toBe('SimulatedCrash');
    if (d.random() < 0.5) {
      changed = d.pick(
        requested.result?.routes.flatMap((route) => route.stops.map((stop) => stop.case_id)) ?? [],
      );
      if (changed) await edit(d, changed);
    }
    await processApplyMessage(message, { messageId }, { log: () => {} });
  }
  await expectAllOrNothing(d, runId, before, changed, racing, bookedMeanwhile);
}

/**
 * APPLIED: every planned case is where the plan put it, apart from the case a racing booking was
 * for: booked after the apply ended, it is where the booking put it ("a booking moves it").
 * CONFLICT: every record as before, apart from the one changed meanwhile.
 */
async function expectAllOrNothing(
  d: Day,
  runId: string,
  before: Snapshot,
  changed: string | undefined,
  racing: boolean,
  bookedMeanwhile: string | undefined,
): Promise<void> {
  const run = await getRun(ctx, runId);
  const status = run.application?.status;
  d.done.push(
    `${runId.slice(-6)}:${status}${racing ? ' racing' : ''}${changed ? ' changed' : ''}${run.application?.not_restored ? ` not_restored ${JSON.stringify(run.application.not_restored)}` : ''}`,
  );
  expect(['APPLIED', 'CONFLICT']).toContain(status);
  if (run.result?.unassigned.some((entry) => entry.reason === 'LOCK_NOT_KEPT')) d.keptInPlace.add(runId);
  // Beside another apply or a booking, which may write the same records (even the same plan):
  // the invariants after the race are what holds it to account.
  if (status === 'CONFLICT' && racing) return;
  if (status === 'CONFLICT') {
    const after = await snapshot();
    for (const [id, state] of before.cases)
      if (id !== changed) expect(after.cases.get(id), `case ${id}`).toBe(state);
    for (const [id, state] of before.tours) expect(after.tours.get(id), `tour ${id}`).toBe(state);
    expect([...after.tours.keys()].filter((id) => !before.tours.has(id))).toEqual([]);
    return;
  }
  for (const route of run.result?.routes ?? []) {
    const cases = await caseStore.of(ctx).getMany(route.stops.map((stop) => stop.case_id));
    route.stops.forEach((stop, index) => {
      if (stop.case_id === bookedMeanwhile) return;
      const record = cases[index];
      expect(record?.status).toBe('SCHEDULED');
      expect(record?.assignee_id, `case ${stop.case_id} as planned ${JSON.stringify(d.done)}`).toBe(
        route.user_id,
      );
      expect(record?.scheduled_start).toBe(stop.start);
    });
  }
}

async function race(d: Day): Promise<void> {
  const kind = d.pick(['applies', 'apply-book', 'books'] as const);
  if (kind === 'applies' && d.pending.length >= 2) {
    const [a, b] = d.pending.splice(0, 2);
    await Promise.all([apply(d, a, true), apply(d, b, true)]);
  } else if (kind === 'apply-book' && d.pending.length >= 1) {
    const id = d.pick(d.cases) as string;
    const [, booked] = await Promise.all([apply(d, d.pending.shift(), true, id), book(d, true, id)]);
    await rememberBooked(d, [booked]);
  } else {
    // Three at once: the first is booked alone, the two that queue behind it are written together
    // (booking-batch.ts), perhaps of one case or one shift.
    await rememberBooked(d, await Promise.all([book(d, true), book(d, true), book(d, true)]));
  }
}

async function expectInvariants(d: Day): Promise<void> {
  const [tours, cases] = await Promise.all([tourStore.of(ctx).list(), caseStore.of(ctx).list()]);
  const byId = new Map(cases.map((record) => [record.id, record]));
  const open = tours.filter((tour) => tour.status === 'PLANNED' || tour.status === 'IN_PROGRESS');
  // 1. one open tour per case
  const tourOf = new Map<string, Tour>();
  for (const tour of open) {
    for (const stop of tour.stops) {
      expect(tourOf.get(stop.case_id)?.id, `case ${stop.case_id} on two open tours`).toBeUndefined();
      tourOf.set(stop.case_id, tour);
    }
  }
  // 2. one PLANNED tour per shift
  const planned = tours
    .filter((tour) => tour.status === 'PLANNED' && tour.shift_id)
    .map((tour) => tour.shift_id);
  expect(planned.length, 'a shift with two PLANNED tours').toBe(new Set(planned).size);
  const shiftById = new Map(d.shifts.map((shift) => [shift.id, shift]));
  for (const record of cases.filter((c) => d.cases.includes(c.id))) {
    // 3. no SCHEDULED case off an open tour; its assignee is the tour's technician
    if (record.status === 'SCHEDULED') {
      const tour = tourOf.get(record.id);
      expect(tour, `SCHEDULED case ${record.id} off every open tour ${JSON.stringify(d.done)}`).toBeDefined();
      expect(
        record.assignee_id,
        `assignee of ${record.id} on tour ${tour?.id} ${JSON.stringify(d.done)}`,
      ).toBe(shiftById.get(tour?.shift_id ?? '')?.user_id ?? tour?.driver_id);
    }
    // 4. every lock kept
    const kept = d.kept.get(record.id);
    if (kept && ['ASSIGNEE', 'ASSIGNEE_AND_TIME'].includes(kept.lock))
      expect(record.assignee_id).toBe(kept.assignee_id);
    if (kept && ['TIME', 'ASSIGNEE_AND_TIME'].includes(kept.lock))
      expect(record.scheduled_start).toBe(kept.scheduled_start);
  }
  // 5. every PLANNED tour feasible as written
  if (d.keptInPlace.size > 0) return;
  for (const tour of open.filter((t) => t.status === 'PLANNED' && t.shift_id && shiftById.has(t.shift_id))) {
    const shift = shiftById.get(tour.shift_id as string) as Shift;
    const stops = tour.stops.map((stop) => byId.get(stop.case_id) as Case);
    const verdict = checkTourFeasible(tourAsWritten(shift, stops, travel));
    const written = stops.map((record) => [
      record.id.slice(-6),
      record.scheduled_start,
      record.duration,
      record.schedule_lock,
    ]);
    expect(
      verdict.feasible,
      `tour ${tour.id} not feasible as written: ${verdict.reason} ${JSON.stringify({ written, steps: d.done, shift })}`,
    ).toBe(true);
  }
}

/** Debugging a failure: the day's records and journals as JSON (FSM_PROPERTY_DUMP=<file>). */
async function dump(d: Day, file: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  const { queryPartition } = await import('../../shared/data/table.ts');
  const [tours, cases] = await Promise.all([tourStore.of(ctx).list(), caseStore.of(ctx).list()]);
  const runs = await Promise.all(d.runs.map((id) => getRun(ctx, id)));
  const journals = await Promise.all(
    d.runs.map((id) => queryPartition(`T#${ctx.workspaceId}#APPLY#${id}#1`, { consistent: true })),
  );
  await writeFile(
    file,
    JSON.stringify(
      {
        done: d.done,
        shifts: d.shifts,
        tours,
        cases: cases.filter((c) => d.cases.includes(c.id)),
        runs,
        journals,
      },
      null,
      1,
    ),
  );
}

const steps = {
  case: newCase,
  lock,
  edit: (d: Day) => edit(d),
  book: (d: Day) => book(d),
  plan: (d: Day) => plan(d),
  repair: (d: Day) => plan(d, 'REPAIR'),
  apply: (d: Day) => apply(d),
  race,
};
type Step = keyof typeof steps;

let nextDay = 0;

describe('Dispatch invariants under random days', () => {
  it('holds every invariant after every step: random cases, locks, edits, bookings, runs, applies, races and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.constantFrom<Step>(
            'case',
            'lock',
            'edit',
            'book',
            'book',
            'plan',
            'plan',
            'repair',
            'apply',
            'apply',
            'race',
          ),
          {
            minLength: 10,
            maxLength: 18,
          },
        ),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        async (sequence, seed) => {
          let state = seed;
          const random = () => {
            state = (state * 48271) % 2147483647;
            return state / 2147483647;
          };
          const d = new Day(Date.UTC(6100, 0, 1) + nextDay++ * 86_400_000, random);
          for (const user of users) {
            d.shifts.push(
              await createShift(ctx, {
                user_id: user,
                start: hours(d.day, 8),
                end: hours(d.day, 16),
                start_location: depot,
                breaks: [
                  { earliest_start: hours(d.day, 11.5), latest_end: hours(d.day, 13.5), duration: 'PT30M' },
                ],
              } as never),
            );
          }
          for (let i = 0; i < 5; i++) await newCase(d);
          for (const step of sequence) {
            d.done.push(step);
            await steps[step](d);
            await expectInvariants(d).catch(async (error) => {
              if (process.env.FSM_PROPERTY_DUMP) await dump(d, process.env.FSM_PROPERTY_DUMP);
              throw error;
            });
          }
        },
      ),
      {
        numRuns: Number(process.env.FSM_PROPERTY_RUNS ?? 5),
        endOnFailure: true,
        ...(process.env.FSM_PROPERTY_SEED ? { seed: Number(process.env.FSM_PROPERTY_SEED) } : {}),
      },
    );
    // The harness really met concurrent writes on one item (and the service retried them).
    expect(harness.proxy.stats().transactions).toBeGreaterThan(0);
  }, 300_000);
});
