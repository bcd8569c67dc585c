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
