/**
 * The solver's work on a message, over an in-memory stand-in for the table adapter (the same
 * conditions: create-if-absent, versioned replace and update): a message delivered again while
 * its run is RUNNING within its deadline leaves the run alone, past it fails the run as stalled;
 * a run QUEUED past the queue timeout is not started but FAILED (NOT_STARTED); the search's start
 * is recorded before the search, and a preparation past its budget fails the run; a plan is
 * stored in parts under a header, and parts of a success that lost to a cancel are removed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Key, TableWrite } from '../../data/table.ts';
import { greatCircleTravel } from '../scheduling/travel.ts';
import type { RunRecord } from './optimization-run.record.ts';
import { preparationBudgetSeconds, queueTimeoutSeconds } from './optimization-run-statuses.ts';

const items = vi.hoisted(() => new Map<string, Record<string, unknown>>());
const itemId = (key: Key) => `${key.pk}\u0000${key.sk}`;

vi.mock('../../data/table.ts', async () => {
  const { DataError } = await import('../../data/data-error.ts');
  const { itemMeta } = await import('../../data/keys.ts');
  const read = (key: Key) => {
    const item = items.get(itemId(key));
    if (!item) return undefined;
    const record = { ...item };
    for (const name of itemMeta) delete record[name];
    return record;
  };
  const versionOf = (write: { key: Key; expectedVersion?: number }) => {
    const stored = items.get(itemId(write.key));
    if (!stored) throw new DataError('not-found', 'absent');
    if (write.expectedVersion !== undefined && stored.lock_version !== write.expectedVersion) {
      throw new DataError('version-conflict', 'changed');
    }
    return stored;
  };
  const check = (write: TableWrite) => {
    if (write.kind === 'create' && items.has(itemId(write.key)))
      throw new DataError('already-exists', 'taken');
    if (write.kind === 'replace' || write.kind === 'update' || write.kind === 'delete') versionOf(write);
  };
  const apply = (write: TableWrite) => {
    const id = itemId(write.key);
    if (write.kind === 'create' || write.kind === 'replace' || write.kind === 'put') {
      items.set(id, { ...write.record, ...write.key });
    } else if (write.kind === 'update') {
      const next: Record<string, unknown> = { ...versionOf({ key: write.key }), ...write.set };
      for (const name of write.remove ?? []) delete next[name];
      items.set(id, next);
    } else if (write.kind === 'add') {
      const stored = items.get(id) ?? { ...write.key };
      items.set(id, { ...stored, [write.attribute]: Number(stored[write.attribute] ?? 0) + write.by });
    } else if (write.kind === 'delete' || write.kind === 'discard') {
      items.delete(id);
    }
  };
  return {
    isIndexed: () => false,
    storable: () => true,
    getRecord: async (key: Key) => read(key),
    getRecords: async (keys: readonly Key[]) => keys.map(read),
    transactWrite: async (writes: readonly TableWrite[]) => {
      writes.forEach(check);
      writes.forEach(apply);
    },
    writeItem: async (write: TableWrite) => {
      check(write);
      apply(write);
    },
    putRecords: async (puts: ReadonlyArray<{ key: Key; record: Record<string, unknown> }>) => {
      for (const { key, record } of puts) items.set(itemId(key), { ...record, ...key });
    },
    discardRecords: async (keys: readonly Key[]) => {
      for (const key of keys) items.delete(itemId(key));
    },
  };
});

vi.mock('../../observability/metrics.ts', () => ({ recordOptimizationRun: () => undefined }));

const workspace = 'ws-solver';
const caseId = '0190a0b0-0000-7000-8000-000000000001';
const shiftId = '0190a0b0-0000-7000-8000-000000000002';
const depot = { latitude: 52.52, longitude: 13.405 };

vi.mock('./planning-input.ts', () => ({
  PlanTooLargeError: class extends Error {},
  readPlanningInput: async () => ({
    problem: {
      from: '2030-01-01T00:00:00.000Z',
      to: '2030-01-02T00:00:00.000Z',
      cases: [
        {
          id: caseId,
          location: depot,
          durationSeconds: 1800,
          requiredSkillIds: [],
          timeWindows: [],
          priority: 'NORMAL',
        },
      ],
      shifts: [
        {
          id: shiftId,
          userId: '0190a0b0-0000-7000-8000-000000000003',
          start: '2030-01-01T08:00:00.000Z',
          end: '2030-01-01T16:00:00.000Z',
          startLocation: depot,
          endLocation: depot,
          breaks: [],
          skillIds: [],
        },
      ],
    },
    basis: { cases: { [caseId]: { v: 0, status: 'NEW' } }, shifts: { [shiftId]: { v: 0 } }, tours: {} },
    places: { cases: { [caseId]: [depot.latitude, depot.longitude] }, shifts: {} },
  }),
}));

const { processSolverMessage } = await import('./solver-job.ts');
const { readPlan } = await import('./run-plan.store.ts');
const { planPartPartition } = await import('../../data/keys.ts');

const runKey = (id: string) => `T#${workspace}#OPT_RUN\u0000${id}`;
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

function storeRun(fields: Partial<RunRecord>): RunRecord {
  const run: RunRecord = {
    id: `0190a0b0-0000-7000-8000-${String(items.size + 100).padStart(12, '0')}`,
    status: 'QUEUED',
    from: '2030-01-01T00:00:00.000Z',
    to: '2030-01-02T00:00:00.000Z',
    time_limit_seconds: 30,
    created_at: ago(20),
    updated_at: ago(20),
    lock_version: 0,
    ...fields,
  };
  items.set(runKey(run.id), { ...run });
  return run;
}

const stored = (id: string) => items.get(runKey(id)) as unknown as RunRecord;
const body = (run: RunRecord) => JSON.stringify({ v: 1, workspace_id: workspace, run_id: run.id });

/** The solver's ports; its solve leaves the one case out, after `during` ran. */
function portsWith(during: () => void = () => undefined) {
  return {
    solver: {
      solve: vi.fn(async () => {
        during();
        return { output: { routes: [], unassigned: [{ id: 1 }] }, solveMs: 3 };
      }),
    },
    travelFor: vi.fn(async () => greatCircleTravel),
    log: vi.fn(),
  };
}

beforeEach(() => items.clear());
afterEach(() => vi.useRealTimers());

describe('Function: processSolverMessage > a message delivered again', () => {
  it('leaves a RUNNING run alone when its own message comes again within its deadline', async () => {
    // Prepare: taken 100 s ago, still preparing (the budget is 240 s)
    const run = storeRun({
      status: 'RUNNING',
      started_at: ago(100),
      solver_message_id: 'm-1',
      lock_version: 1,
    });
    const ports = portsWith();

    // Act
    await processSolverMessage(body(run), { messageId: 'm-1' }, ports);

    // Assess
    expect(stored(run.id)).toMatchObject({ status: 'RUNNING', lock_version: 1, solver_message_id: 'm-1' });
    expect(ports.travelFor).not.toHaveBeenCalled();
    expect(ports.log).toHaveBeenCalledWith(expect.stringMatching(/delivered again/), expect.anything());
  });

  it('leaves a run alone whose search began recently, however long ago it was taken up', async () => {
    const run = storeRun({
      status: 'RUNNING',
      started_at: ago(preparationBudgetSeconds + 60),
      solving_started_at: ago(10),
      solver_message_id: 'm-1',
      lock_version: 2,
    });

    await processSolverMessage(body(run), { messageId: 'm-1' }, portsWith());

    expect(stored(run.id)).toMatchObject({ status: 'RUNNING', lock_version: 2 });
  });

  it.each([
    { title: 'its search outlasted its time limit and grace', fields: { solving_started_at: ago(200) } },
    { title: 'it never began its search within the preparation budget', fields: {} },
  ])(
    'fails a RUNNING run as stalled when its own message comes again past its deadline: $title',
    async ({ fields }) => {
      const run = storeRun({
        status: 'RUNNING',
        started_at: ago(preparationBudgetSeconds + 60),
        solver_message_id: 'm-1',
        lock_version: 1,
        ...fields,
      });

      await processSolverMessage(body(run), { messageId: 'm-1' }, portsWith());

      expect(stored(run.id)).toMatchObject({
        status: 'FAILED',
        failure_code: 'SOLVER_STOPPED',
        failure_reason: expect.stringMatching(/stopped without an answer/),
      });
    },
  );
});

describe('Function: processSolverMessage > a QUEUED run', () => {
  it('fails a run QUEUED past the queue timeout as NOT_STARTED instead of starting it late', async () => {
    const run = storeRun({ created_at: ago(queueTimeoutSeconds + 5) });
    const ports = portsWith();

    await processSolverMessage(body(run), { messageId: 'm-1' }, ports);

    expect(stored(run.id)).toMatchObject({ status: 'FAILED', failure_code: 'NOT_STARTED' });
    expect(stored(run.id).failure_reason).toMatch(/never took the run up/);
    expect(ports.solver.solve).not.toHaveBeenCalled();
  });

  it('records the search’s start before the search, and stores the plan in parts under its header', async () => {
    // Prepare
    const run = storeRun({});
    let seenBySolver: RunRecord | undefined;
    const ports = portsWith(() => {
      seenBySolver = { ...stored(run.id) };
    });

    // Act
    await processSolverMessage(body(run), { messageId: 'm-1' }, ports);

    // Assess
    expect(seenBySolver).toMatchObject({ status: 'RUNNING', solving_started_at: expect.any(String) });
    expect(stored(run.id)).toMatchObject({ status: 'SUCCEEDED', summary: { assigned: 0, unassigned: 1 } });
    expect(items.get(`T#${workspace}#OPT_PLAN\u0000${run.id}`)).toMatchObject({ part_count: 1 });
    expect(await readPlan(workspace, run.id)).toMatchObject({
      id: run.id,
      routes: [],
      unassigned: [{ case_id: caseId }],
    });
  });

  it('removes the plan’s parts when the run was cancelled during the search', async () => {
    const run = storeRun({});
    const ports = portsWith(() => {
      const current = stored(run.id);
      items.set(runKey(run.id), { ...current, status: 'CANCELLED', lock_version: current.lock_version + 1 });
    });

    await processSolverMessage(body(run), { messageId: 'm-1' }, ports);

    expect(stored(run.id).status).toBe('CANCELLED');
    expect([...items.keys()].filter((key) => key.startsWith(planPartPartition(workspace, run.id)))).toEqual(
      [],
    );
  });

  it('fails the run without searching when reading the records and the matrix outlasted the budget', async () => {
    // Prepare: the matrix takes longer than the preparation budget
    vi.useFakeTimers({ toFake: ['Date'] });
    const run = storeRun({});
    const ports = portsWith();
    ports.travelFor.mockResolvedValue({
      model: 'great-circle',
      matrix: async (places) => {
        vi.setSystemTime(Date.now() + (preparationBudgetSeconds + 1) * 1000);
        return greatCircleTravel.matrix(places);
      },
    });

    // Act
    await processSolverMessage(body(run), { messageId: 'm-1' }, ports);

    // Assess
    expect(ports.solver.solve).not.toHaveBeenCalled();
    expect(stored(run.id)).toMatchObject({ status: 'FAILED', failure_code: 'SOLVER_STOPPED' });
    expect(stored(run.id).failure_reason).toMatch(/took longer than the 240 s/);
  });
});
