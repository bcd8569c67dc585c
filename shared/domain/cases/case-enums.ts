/**
 * The closed value lists of a case. Apart from case.schema.ts so that the list declarations
 * (case.list.ts), which the case store loads, do not load the case schemas and zod.
 */

/** In lifecycle order: the order of `sort=status`. */
export const caseStatuses = ['NEW', 'SCHEDULED', 'IN_PROGRESS', 'ON_HOLD', 'DONE', 'CANCELLED'] as const;
export type CaseStatus = (typeof caseStatuses)[number];

/** From least to most urgent: the order of `sort=priority`. */
export const casePriorities = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const;
export type CasePriority = (typeof casePriorities)[number];

/**
 * What planning must keep of a case (API-DECISIONS.md, "Dispatch you can trust"): NONE, ASSIGNEE
 * (only shifts of its assignee), TIME (its stop starts at its scheduled_start), or both.
 */
export const scheduleLocks = ['NONE', 'ASSIGNEE', 'TIME', 'ASSIGNEE_AND_TIME'] as const;
export type ScheduleLock = (typeof scheduleLocks)[number];

/** Whether a lock keeps the case's technician. */
export const locksAssignee = (lock: ScheduleLock | undefined) =>
  lock === 'ASSIGNEE' || lock === 'ASSIGNEE_AND_TIME';
/** Whether a lock keeps the case's start. */
export const locksTime = (lock: ScheduleLock | undefined) => lock === 'TIME' || lock === 'ASSIGNEE_AND_TIME';
