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
 * - NOT_STARTED: no solver took the run up within `queueTimeoutSeconds` (its hand-over to the
 *   solver queue failed for good, or the solvers stayed busy that long);
 * - INTERNAL_ERROR: anything else; the logs have the details.
 */
export const failureCodes = [
  'INVALID_PROBLEM',
  'TOO_LARGE',
  'TRAVEL_UNAVAILABLE',
  'SOLVER_STOPPED',
  'NOT_STARTED',
  'INTERNAL_ERROR',
] as const;
export type FailureCode = (typeof failureCodes)[number];

/** The time limits a run may ask for, in seconds (API-DECISIONS.md: 1..300, default 30). */
export const timeLimits = { min: 1, max: 300, default: 30 } as const;

/**
 * A run's deadlines (run-deadlines.ts). Taken up, the solver first prepares: it reads the records
 * and the travel matrix (Amazon Location answers a large matrix in minutes), then records
 * `solving_started_at` and searches for the run's whole time limit. A RUNNING run that has not
 * started its search `preparationBudgetSeconds` after it was taken up, or has not answered
 * `stallGraceSeconds` after its search's time limit, is stalled: a read records it FAILED. The
 * grace covers writing the answer (the plan's parts and the success), which takes seconds.
 * The solver function's timeout is the sum of the three (lib/solver-settings.ts), so a healthy
 * solver is never cut off before its run's deadline.
 */
export const preparationBudgetSeconds = 240;
export const stallGraceSeconds = 60;

/**
 * How long a run may stay QUEUED: past it no solver took it up (the outbox batch that carried its
 * optimization_run.created went to the stream's failure destination, or every solver stayed busy
 * that long), and a read records it FAILED (NOT_STARTED). The solver queue's oldest-message alarm
 * fires at the same age (lib/solver-settings.ts).
 */
export const queueTimeoutSeconds = 30 * 60;

/**
 * What one run plans at most (its plan is stored in parts of its own, run-plan.store.ts, so its size
 * is no limit of DynamoDB's: these bound the solve).
 */
export const maxPlannedCases = 1000;
export const maxPlannedShifts = 100;
/** The longest horizon a run plans (API-DECISIONS.md leaves it open; a week is a dispatcher's board). */
export const maxHorizonDays = 7;
