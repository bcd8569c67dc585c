/**
 * A run's deadlines: a QUEUED run has the queue timeout to be taken up, a RUNNING run the
 * preparation budget to start its search, then its time limit plus the grace from the search's
 * own start — however long the preparation took.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from './optimization-run.record.ts';
import {
  preparationBudgetSeconds,
  queueTimeoutSeconds,
  stallGraceSeconds,
} from './optimization-run-statuses.ts';
import { answerDueOf, deadlineOf, overdueOf, queuedDeadlineOf } from './run-deadlines.ts';

const t0 = Date.parse('2030-01-01T08:00:00.000Z');
const iso = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();

const run = (fields: Partial<RunRecord>) =>
  ({ status: 'RUNNING', created_at: iso(0), time_limit_seconds: 30, ...fields }) as RunRecord;

describe('Function: deadlineOf', () => {
  it('gives a run still preparing the preparation budget from when it was taken up', () => {
    expect(deadlineOf(run({ started_at: iso(10) }))).toBe(t0 + (10 + preparationBudgetSeconds) * 1000);
  });

  it('gives a searching run its time limit plus the grace from the search’s start, not from started_at', () => {
    // Prepare: a matrix that took 200 s
    const searching = run({ started_at: iso(10), solving_started_at: iso(210), time_limit_seconds: 300 });

    // Act
    const deadline = deadlineOf(searching);

    // Assess
    expect(deadline).toBe(t0 + (210 + 300 + stallGraceSeconds) * 1000);
  });

  it('has none for a run never taken up', () => {
    expect(deadlineOf(run({ status: 'QUEUED' }))).toBeUndefined();
  });
});

describe('Function: answerDueOf', () => {
  it('expects the answer of a preparing run after the longest preparation and its whole search', () => {
    expect(answerDueOf(run({ started_at: iso(0), time_limit_seconds: 30 }))).toBe(
      t0 + (preparationBudgetSeconds + 30 + stallGraceSeconds) * 1000,
    );
  });

  it('expects a searching run’s answer at its deadline: never later than it said while preparing', () => {
    const preparing = run({ started_at: iso(0), time_limit_seconds: 30 });
    const searching = { ...preparing, solving_started_at: iso(preparationBudgetSeconds) };

    expect(answerDueOf(searching)).toBe(deadlineOf(searching));
    expect(answerDueOf(searching)).toBeLessThanOrEqual(answerDueOf(preparing) ?? 0);
  });
});

describe('Function: overdueOf', () => {
  const cases = [
    {
      title: 'a QUEUED run within the queue timeout is not overdue',
      at: queueTimeoutSeconds,
      fields: { status: 'QUEUED' },
      expected: undefined,
    },
    {
      title: 'a QUEUED run past the queue timeout was never started',
      at: queueTimeoutSeconds + 1,
      fields: { status: 'QUEUED' },
      expected: 'not-started',
    },
    {
      title: 'a run preparing past its budget is stalled',
      at: preparationBudgetSeconds + 1,
      fields: { started_at: iso(0) },
      expected: 'stalled',
    },
    {
      title: 'a run preparing within its budget is not',
      at: preparationBudgetSeconds,
      fields: { started_at: iso(0) },
      expected: undefined,
    },
    {
      title: 'a run taken up long ago whose search began recently is not stalled',
      at: 400,
      fields: { started_at: iso(0), solving_started_at: iso(350) },
      expected: undefined,
    },
    {
      title: 'a searching run past its time limit and grace is stalled',
      at: 350 + 30 + stallGraceSeconds + 1,
      fields: { started_at: iso(0), solving_started_at: iso(350) },
      expected: 'stalled',
    },
    {
      title: 'a final run is never overdue',
      at: 10 * queueTimeoutSeconds,
      fields: { status: 'FAILED', started_at: iso(0) },
      expected: undefined,
    },
  ] as const;

  it.each(cases)('$title', ({ at, fields, expected }) => {
    expect(overdueOf(run(fields as Partial<RunRecord>), t0 + at * 1000)).toBe(expected);
  });

  it('counts the queue timeout from the run’s creation', () => {
    expect(queuedDeadlineOf({ created_at: iso(5) })).toBe(t0 + (5 + queueTimeoutSeconds) * 1000);
  });
});
