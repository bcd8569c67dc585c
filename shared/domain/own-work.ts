/**
 * Field workers write their own work items (API-DECISIONS.md, "Baseline role grants":
 * technicians and drivers "write only their own comments and their own work items"). The rule
 * needs the record, so it is not a route grant: the route requires the narrow `…:own` grant
 * (grants.ts), and the service of the resource asks this module, with the record it read, whether
 * the caller may write what it sent:
 *
 * - a holder of the full grant (`cases:update`: dispatcher, admin, owner) writes any record and
 *   any field, as before;
 * - a holder of the `:own` grant alone writes only records that are theirs (a case assigned to
 *   them, a tour they drive), only the fields a field worker reports, and a status only to the
 *   values that report progress: planning (new, scheduled, cancelled) stays with dispatch.
 *
 * Refusals are 403 access-denied, in the order a caller can act on them: a field outside the
 * narrow set (`data.reason` missing_grant, `required_grants` the full grant, `data.fields` the
 * fields), then someone else's record (`data.reason` not_owner: retrying never helps, no grant
 * is named because none of the baseline roles that holds it would be refused), then a status
 * that is not a field worker's to set (missing_grant, `data.fields` ["status"]).
 */

import type { Principal } from '../auth/actor.ts';
import type { Grant } from '../auth/grants.ts';
import type { CaseStatus } from './cases/case-enums.ts';
import { CommonDomainError } from './common-error.ts';
import type { TourStatus } from './tours/tour.schema.ts';

export interface OwnWorkRule {
  /** `case`, `tour`: for the messages. */
  resource: string;
  /** Writes every record of the resource and every field. */
  anyGrant: Grant;
  /** Writes the caller's own records, within `fields` and `statuses`. */
  ownGrant: Grant;
  /** The body fields a field worker may send (lock_version is always allowed). */
  fields: readonly string[];
  /** The statuses a field worker may set; the record's current status may always be sent back. */
  statuses: readonly string[];
  /** Which records are the caller's, for the messages (`cases whose assignee_id is …`). */
  ownership: string;
}

/**
 * A case assigned to a technician or driver: they report how far the work got. Whether it is
 * planned, rescheduled or cancelled is dispatch's.
 */
export const caseOwnWork = {
  resource: 'case',
  anyGrant: 'cases:update',
  ownGrant: 'cases:update:own',
  fields: ['status'],
  statuses: ['IN_PROGRESS', 'ON_HOLD', 'DONE'] satisfies CaseStatus[],
  ownership: "cases whose assignee_id is the caller's user id",
} as const satisfies OwnWorkRule;

/** A tour they drive: they report starting and finishing it. */
export const tourOwnWork = {
  resource: 'tour',
  anyGrant: 'tours:update',
  ownGrant: 'tours:update:own',
  fields: ['status'],
  statuses: ['IN_PROGRESS', 'DONE'] satisfies TourStatus[],
  ownership: "tours whose driver_id is the caller's user id",
} as const satisfies OwnWorkRule;

/**
 * A vehicle location report (PUT /api/v2/vehicles/{vehicle_id}/location): a driver reports the
 * vehicle it drives now. Only the ownership part of a rule applies: the body is the report.
 */
export const vehicleLocationOwnWork = {
  resource: 'vehicle',
  anyGrant: 'vehicles:update',
  ownGrant: 'vehicles:location:update:own',
  fields: ['latitude', 'longitude', 'recorded_at', 'heading', 'speed_kmh'],
  statuses: [],
  ownership: 'the vehicle of a tour the caller drives that is IN_PROGRESS',
} as const satisfies OwnWorkRule;

/**
 * The route documentation of a rule: who may change what, and what each refusal looks like.
 * `roles` names the baseline roles that hold the full grant.
 */
export function ownWorkDocs(rule: OwnWorkRule, roles: string): string {
  return (
    `The route requires \`${rule.ownGrant}\`, which every role that writes ${rule.resource}s holds. ` +
    `Holders of \`${rule.anyGrant}\` too (${roles}) change any field of any ${rule.resource}. Holders of ` +
    `\`${rule.ownGrant}\` alone (technician, driver) change only ${list(rule.fields)} (and send ` +
    `lock_version) of their own ${rule.resource}s (${rule.ownership}), and set the status only to ` +
    `${list(rule.statuses, 'or')} (sending back the current one is fine). Any other field is 403 ` +
    `access-denied with data.reason missing_grant, required_grants [${rule.anyGrant}] and data.fields ` +
    `naming the fields; another status is the same 403 with data.fields ["status"]; a ${rule.resource} ` +
    `of someone else is 403 with data.reason not_owner (reads answer 404 for it, as they do not show it).`
  );
}

/** Whether the caller writes only within the rule (holds the `:own` grant, not the full one). */
export function writesOwnWorkOnly(principal: Pick<Principal, 'grants'>, rule: OwnWorkRule): boolean {
  return !principal.grants.has(rule.anyGrant);
}

/** 403 when the body sends a field that a field worker does not report. */
export function assertOwnWorkFields(body: Record<string, unknown>, rule: OwnWorkRule): void {
  const allowed = new Set([...rule.fields, 'lock_version']);
  const outside = Object.keys(body).filter((field) => body[field] !== undefined && !allowed.has(field));
  if (outside.length === 0) return;
  throw new CommonDomainError('forbidden', {
    detail:
      `With ${rule.ownGrant} you change only ${list(rule.fields)} of your own ${rule.resource}s; ` +
      `${list(outside)} need${outside.length === 1 ? 's' : ''} ${rule.anyGrant}.`,
    data: { reason: 'missing_grant', required_grants: [rule.anyGrant], fields: outside },
  });
}

/** 403 not_owner when the record is not the caller's. */
export function assertOwner(isOwn: boolean, rule: OwnWorkRule): void {
  if (isOwn) return;
  throw new CommonDomainError('forbidden', {
    detail: `This ${rule.resource} is not yours: ${rule.ownGrant} writes only ${rule.ownership}.`,
    data: { reason: 'not_owner' },
  });
}

/** 403 when the status sent is not one a field worker sets (sending back the current one is fine). */
export function assertOwnWorkStatus(sent: string | undefined, current: string, rule: OwnWorkRule): void {
  if (sent === undefined || sent === current || rule.statuses.includes(sent)) return;
  throw new CommonDomainError('forbidden', {
    detail:
      `With ${rule.ownGrant} you set the status of your ${rule.resource}s to ${list(rule.statuses, 'or')}; ` +
      `${sent} needs ${rule.anyGrant}.`,
    data: { reason: 'missing_grant', required_grants: [rule.anyGrant], fields: ['status'] },
  });
}

function list(names: readonly string[], conjunction = 'and'): string {
  const quoted = names.map((name) => `\`${name}\``);
  return quoted.length <= 1
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}
