/**
 * The service level of a case (docs/service-levels.md): `sla_status` from its `due_by`, its status,
 * its scheduled_end and the time. Pure, and apart from case.schema.ts, so that the case store (which
 * keeps the due-time index, case-due-index.ts) and the detector load no zod.
 *
 * - No due_by: no sla_status (the field is absent).
 * - Unfinished (any status but DONE and CANCELLED): BREACHED from due_by on; AT_RISK from
 *   `atRiskLeadMs` before due_by, or as soon as its scheduled_end lies after due_by (the plan
 *   already misses it); ON_TRACK otherwise.
 * - Finished: judged once, by the write that finished it (or that set or moved due_by while it was
 *   finished): BREACHED when due_by had passed then, else ON_TRACK (met). It no longer changes
 *   with time: a breach is history, a met commitment stays met.
 */
import type { CaseStatus } from './case-enums.ts';

export const slaStatuses = ['ON_TRACK', 'AT_RISK', 'BREACHED'] as const;
export type SlaStatus = (typeof slaStatuses)[number];

/** How long before due_by an unfinished case counts as at risk: about a job's travel and work. */
export const atRiskLeadMs = 2 * 60 * 60 * 1000;

const finishedStatuses: ReadonlySet<CaseStatus> = new Set(['DONE', 'CANCELLED']);

/** Whether a case's work is over (done or called off): time no longer changes its service level. */
export const isFinished = (status: CaseStatus) => finishedStatuses.has(status);

/** What the rule reads of a case. */
export interface ServiceLevelFields {
  status: CaseStatus;
  due_by?: string | undefined;
  scheduled_end?: string | undefined;
  sla_status?: SlaStatus | undefined;
}

/**
 * The sla_status of `record` at `now` (ms), written over `before` (the stored case a write
 * replaces; none on create): undefined when it has no due_by.
 */
export function slaStatusAt(
  record: ServiceLevelFields,
  now: number,
  before?: ServiceLevelFields,
): SlaStatus | undefined {
  if (!record.due_by) return undefined;
  const due = Date.parse(record.due_by);
  if (isFinished(record.status)) {
    const judged =
      before !== undefined &&
      isFinished(before.status) &&
      before.due_by === record.due_by &&
      before.sla_status !== undefined;
    if (judged) return before.sla_status;
    return now >= due ? 'BREACHED' : 'ON_TRACK';
  }
  if (now >= due) return 'BREACHED';
  if (due - now <= atRiskLeadMs) return 'AT_RISK';
  if (record.scheduled_end && Date.parse(record.scheduled_end) > due) return 'AT_RISK';
  return 'ON_TRACK';
}

/** `record` with its sla_status at `now` set (or removed when it has no due_by). */
export function withServiceLevel<T extends ServiceLevelFields>(record: T, now: number, before?: T): T {
  const status = slaStatusAt(record, now, before);
  const next = { ...record };
  if (status) next.sla_status = status;
  else delete next.sla_status;
  return next;
}

/** A moment at which time alone changes an unfinished case's sla_status. */
export interface SlaMoment {
  kind: 'AT_RISK' | 'BREACHED';
  /** Epoch ms. */
  at: number;
}

/**
 * The moments at which time alone may move the case's sla_status: due_by − lead (AT_RISK) and
 * due_by (BREACHED), for an unfinished case with a due_by; none otherwise. A function of the
 * stored fields only, so that what the due-time index holds follows from the record.
 */
export function slaMoments(record: ServiceLevelFields | undefined): SlaMoment[] {
  if (!record?.due_by || isFinished(record.status)) return [];
  const due = Date.parse(record.due_by);
  return [
    { kind: 'AT_RISK', at: due - atRiskLeadMs },
    { kind: 'BREACHED', at: due },
  ];
}
