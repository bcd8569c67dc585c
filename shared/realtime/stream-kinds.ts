/**
 * What the server-sent event stream sends for a domain event (SPEC.md, Events → Server-sent
 * event stream): the kinds of the spec, each an envelope with camelCase keys. Domain events
 * without a kind (users, tags, webhook endpoints, …) are not streamed; webhooks carry them.
 *
 * Who sees what (published with the route): a kind needs the read grant of its resource
 * (cases:read, tours:read, vehicles:read, areas:read; comments on cases comments:read too;
 * OPTIMIZATION_RUN_UPDATED:V1, every move of a run's status, scheduling:read).
 * Callers who only do field work (technician and/or driver roles) see case events (comments on
 * cases included) of cases assigned to them and tour events of their own tours; everyone with the
 * grant sees vehicle and area events.
 */

import type { Principal } from '../auth/actor.ts';
import type { Grant } from '../auth/grants.ts';
import type { DomainEvent } from '../events/domain-event.ts';

export interface StreamEnvelope {
  kind: string;
  /** The domain event's UUIDv7: the SSE `id:` line, and what `lastEventId` names. */
  eventId: string;
  timestamp: string;
  tenantId: string;
  businessId: string;
  [field: string]: unknown;
}

interface KindRule {
  kind: string;
  grant: Grant;
  /** A second grant the kind needs (comments on cases: comments:read too). */
  alsoGrant?: Grant;
  /** `case:<id>`-style business id and the kind-specific fields. */
  fields: (object: Record<string, unknown>, event: DomainEvent) => Record<string, unknown>;
  /** For field workers: the principal this record belongs to (assignee, driver). */
  ownerOf?: (object: Record<string, unknown>) => unknown;
}

const caseFields = (object: Record<string, unknown>) => ({
  businessId: `case:${String(object.id)}`,
  caseId: object.id,
  caseData: object,
});
const tourFields = (object: Record<string, unknown>) => ({
  businessId: `tour:${String(object.id)}`,
  tourId: object.id,
  tourData: object,
});

const runFields = (object: Record<string, unknown>) => ({
  businessId: `optimization_run:${String(object.id)}`,
  optimizationRunId: object.id,
  optimizationRunData: object,
});
/** Every move of a run's status: one kind, the run (without its routes) as data. */
const runRule: KindRule = {
  kind: 'OPTIMIZATION_RUN_UPDATED:V1',
  grant: 'scheduling:read',
  fields: runFields,
};

const rules: Record<string, KindRule> = {
  'case.created': {
    kind: 'CASE_CREATED:V1',
    grant: 'cases:read',
    fields: caseFields,
    ownerOf: (o) => o.assignee_id,
  },
  'case.updated': {
    kind: 'CASE_UPDATED:V1',
    grant: 'cases:read',
    fields: caseFields,
    ownerOf: (o) => o.assignee_id,
  },
  'case.external_id_updated': {
    kind: 'CASE_EXTERNAL_ID_UPDATED:V1',
    grant: 'cases:read',
    fields: (object, event) => ({
      ...caseFields(object),
      externalId: object.external_id ?? null,
      previousExternalId: event.data.previous_attributes?.external_id ?? null,
    }),
    ownerOf: (o) => o.assignee_id,
  },
  // Written beside comment.created for a comment on a case: data.object is the comment (event form)
  // with the case under `case`, so who may see it is decided like for the case's own events.
  'case.comment_added': {
    kind: 'CASE_COMMENT_ADDED:V1',
    grant: 'cases:read',
    alsoGrant: 'comments:read',
    fields: (object) => {
      const { case: caseData, ...comment } = object as { case?: Record<string, unknown>; id?: unknown };
      return {
        ...caseFields(caseData ?? {}),
        commentId: comment.id,
        commentData: comment,
      };
    },
    ownerOf: (o) => (o.case as { assignee_id?: unknown } | undefined)?.assignee_id,
  },
  'tour.created': {
    kind: 'TOUR_CREATED:V1',
    grant: 'tours:read',
    fields: tourFields,
    ownerOf: (o) => o.driver_id,
  },
  'tour.updated': {
    kind: 'TOUR_UPDATED:V1',
    grant: 'tours:read',
    fields: tourFields,
    ownerOf: (o) => o.driver_id,
  },
  'tour.deleted': {
    kind: 'TOUR_DELETED:V1',
    grant: 'tours:read',
    fields: tourFields,
    ownerOf: (o) => o.driver_id,
  },
  'optimization_run.created': runRule,
  'optimization_run.started': runRule,
  'optimization_run.succeeded': runRule,
  'optimization_run.failed': runRule,
  'optimization_run.cancelled': runRule,
  'optimization_run.apply_requested': runRule,
  'optimization_run.applied': runRule,
  'optimization_run.apply_failed': runRule,
  'vehicle.location_updated': {
    kind: 'VEHICLE_LOCATION_UPDATED:V1',
    grant: 'vehicles:read',
    fields: (object) => ({
      businessId: `vehicle:${String(object.id)}`,
      vehicleId: object.id,
      location: object.location ?? null,
    }),
  },
  'area.waiting_time_updated': {
    kind: 'AREA_WAITING_TIME_UPDATED:V1',
    grant: 'areas:read',
    fields: (object, event) => ({
      businessId: `area:${String(object.id)}`,
      areaId: object.id,
      waitingTime: object.waiting_time ?? null,
      previousWaitingTime: event.data.previous_attributes?.waiting_time ?? null,
    }),
  },
};

/** The kinds the stream sends, for the OpenAPI description and tests. */
export const streamKinds = [
  ...new Set(Object.values(rules).map((rule) => rule.kind)),
  'HEARTBEAT:V1',
  'RESYNC_REQUIRED:V1',
];

export interface StreamMessage {
  envelope: StreamEnvelope;
  /** Who may receive it. */
  visibleTo(principal: Principal): boolean;
}

const fieldRoles = new Set(['technician', 'driver']);

/** Callers whose every role is field work see only what is theirs. */
function onlyFieldWork(principal: Principal): boolean {
  return principal.roles.length > 0 && principal.roles.every((role) => fieldRoles.has(role));
}

export function streamMessageOf(event: DomainEvent): StreamMessage | undefined {
  const rule = rules[event.type];
  if (!rule) return undefined;
  const object = event.data.object;
  const envelope: StreamEnvelope = {
    kind: rule.kind,
    eventId: event.id,
    timestamp: new Date(event.occurred_at).toISOString(),
    tenantId: event.workspace_id,
    businessId: '',
    ...rule.fields(object, event),
  };
  return {
    envelope,
    visibleTo: (principal) => {
      if (principal.workspaceId !== event.workspace_id || !principal.grants.has(rule.grant)) return false;
      if (rule.alsoGrant && !principal.grants.has(rule.alsoGrant)) return false;
      if (rule.ownerOf && onlyFieldWork(principal)) return rule.ownerOf(object) === principal.id;
      return true;
    },
  };
}

/** A synthetic message (heartbeat, resync) of the stream itself. */
export function controlEnvelope(kind: string, tenantId: string, id: string): StreamEnvelope {
  return { kind, eventId: id, timestamp: new Date().toISOString(), tenantId, businessId: '' };
}
