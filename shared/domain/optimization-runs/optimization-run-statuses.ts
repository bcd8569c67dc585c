/**
 * Where a run stands, and why a failed one failed. Apart from the schemas so that the list
 * declaration (optimization-run.list.ts), which the store loads, does not load zod.
 *
 * QUEUED → RUNNING → SUCCEEDED | FAILED; QUEUED or RUNNING → CANCELLED. The last three are final.
 */
export const runStatuses = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type RunStatus = (typeof runStatuses)[number];

export const finalStatuses: ReadonlySet<RunStatus> = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/**
 * Why a run failed, for clients to branch on (`failure_reason` says it in words):
 * - INVALID_PROBLEM: the optimizer refused the problem (e.g. a shift whose breaks cannot fit);
 * - TOO_LARGE: more cases or shifts than one run plans;
 * - TRAVEL_UNAVAILABLE: the travel provider could not answer the matrix;
 * - SOLVER_STOPPED: the solver stopped without an answer (out of memory, timed out, crashed);
 * - INTERNAL_ERROR: anything else; the logs have the details.
 */
export const failureCodes = [
  'INVALID_PROBLEM',
  'TOO_LARGE',
  'TRAVEL_UNAVAILABLE',
  'SOLVER_STOPPED',
  'INTERNAL_ERROR',
] as const;
export type FailureCode = (typeof failureCodes)[number];

/** The time limits a run may ask for, in seconds (API-DECISIONS.md: 1..300, default 30). */
export const timeLimits = { min: 1, max: 300, default: 30 } as const;

/**
 * Seconds after its time limit at which a RUNNING run that has not answered is stalled: the
 * solver reads the records, gets the travel matrix and writes the answer in well under this.
 * The solver function's timeout is the longest time limit plus this (lib/solver-settings.ts),
 * so a run a read calls stalled can no longer be answered by a live solver.
 */
export const stallGraceSeconds = 60;

/** What one run plans at most: the run's item and its plan stay far below DynamoDB's 400 KB. */
export const maxPlannedCases = 1000;
export const maxPlannedShifts = 100;
/** The longest horizon a run plans (API-DECISIONS.md leaves it open; a week is a dispatcher's board). */
export const maxHorizonDays = 7;
