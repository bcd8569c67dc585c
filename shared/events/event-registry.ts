/**
 * Every event the service emits, in one place. The webhook event catalog
 * (GET /api/v2/webhooks/event-types), subscription validation and the dispatcher read it;
 * `domainEvent` and `systemEvent` accept only these names (a typo or an unregistered event does
 * not compile), and event-registry.test.ts scans the sources for emitted names as well.
 * A new resource registers its events here; custom objects and plugins will add theirs per
 * workspace (webhookCatalog below).
 */

export interface EventRegistration {
  /** What happened, for the catalog and the OpenAPI document. */
  description: string;
  /**
   * false: recorded in the audit log only, never delivered to webhooks (changes of webhook
   * endpoints themselves: an endpoint must not receive news of its own configuration).
   */
  webhook: boolean;
  /**
   * false: not written to the audit log. For telemetry-like events only (a vehicle's location
   * every few seconds would be thousands of entries a day per vehicle, kept forever); webhooks
   * and the event stream still carry them.
   */
  audit?: false;
}

const generic = <const R extends string>(resource: R, label: string) =>
  ({
    [`${resource}.created`]: { description: `${label} created.`, webhook: true },
    [`${resource}.updated`]: { description: `${label} changed.`, webhook: true },
    [`${resource}.deleted`]: { description: `${label} deleted; the record is gone.`, webhook: true },
  }) as Record<`${R}.${'created' | 'updated' | 'deleted'}`, EventRegistration>;

/**
 * Names follow SPEC.md (Webhooks, "Event names"): `updated` never says which property changed, and
 * `deleted` means the record is gone. The event stream's kinds that do name a property
 * (CASE_EXTERNAL_ID_UPDATED:V1, AREA_WAITING_TIME_UPDATED:V1, VEHICLE_LOCATION_UPDATED:V1) are fed by
 * internal events (webhook false, audit false) written beside the public one, or instead of one
 * for telemetry.
 */
export const eventRegistry = {
  ...generic('area', 'An area was'),
  'area.updated': {
    description:
      'An area changed, its operational waiting_time included (previous_attributes holds the old values).',
    webhook: true,
  },
  ...generic('tag', 'A tag was'),
  ...generic('skill', 'A skill was'),
  'area.waiting_time_updated': {
    description:
      "Internal: written beside area.updated when an area's waiting_time was set, changed or cleared, for the " +
      "event stream's AREA_WAITING_TIME_UPDATED:V1 (webhooks and the audit log have area.updated); never " +
      'delivered, never audited.',
    webhook: false,
    audit: false,
  },
  ...generic('vehicle', 'A vehicle was'),
  'vehicle.updated': {
    description:
      'A vehicle was edited. Location reports (PUT /api/v2/vehicles/{vehicle_id}/location) are telemetry, ' +
      'every few seconds per vehicle: they are not edits and never reach webhooks or the audit log; follow them ' +
      'on the event stream (VEHICLE_LOCATION_UPDATED:V1) or read the vehicle.',
    webhook: true,
  },
  'vehicle.location_updated': {
    description:
      'Internal: a vehicle reported a newer location (PUT /api/v2/vehicles/{vehicle_id}/location), for the ' +
      "event stream's VEHICLE_LOCATION_UPDATED:V1 only: telemetry, never delivered to webhooks, never audited " +
      '(thousands a day per vehicle); not an edit: no vehicle.updated, lock_version unchanged.',
    webhook: false,
    audit: false,
  },
  ...generic('tour', 'A tour was'),
  'optimization_run.created': {
    description:
      'An optimization run was requested (status QUEUED): data.object is the run. The solver takes it up off ' +
      'the request path; optimization_run.succeeded, .failed or .cancelled follows.',
    webhook: true,
  },
  'optimization_run.started': {
    description:
      "Internal: the solver took a run up (QUEUED → RUNNING), for the event stream's " +
      'OPTIMIZATION_RUN_UPDATED:V1 only; never delivered, never audited.',
    webhook: false,
    audit: false,
  },
  'optimization_run.succeeded': {
    description:
      'An optimization run found a plan (status SUCCEEDED): data.object is the run with its summary; read ' +
      'GET /api/v2/scheduling/optimization-runs/{run_id} for the routes and the cases left out.',
    webhook: true,
  },
  'optimization_run.failed': {
    description:
      'An optimization run failed (status FAILED): data.object has failure_code and failure_reason. A solver ' +
      'that stopped mid-run (out of memory, timed out) fails its run too, with actor SYSTEM.',
    webhook: true,
  },
  'optimization_run.cancelled': {
    description: 'An optimization run was cancelled while QUEUED or RUNNING (status CANCELLED).',
    webhook: true,
  },
  'optimization_run.apply_requested': {
    description:
      "Applying an optimization run's plan was requested (application.status APPLYING): the service writes its " +
      'tours and cases in the background; optimization_run.applied or optimization_run.apply_failed follows.',
    webhook: true,
  },
  'optimization_run.applied': {
    description:
      "An optimization run's plan was applied (application.status APPLIED, applied_at set): its tours and cases " +
      'were written, each with its own tour.created / tour.updated / case.updated event before this one.',
    webhook: true,
  },
  'optimization_run.apply_failed': {
    description:
      "Applying an optimization run's plan ended without writing it: application.status CONFLICT (records " +
      'changed since the run read them: application.conflicts names them) or FAILED (application.failure_reason). ' +
      'Anything the apply had written was undone first, with its own tour and case events.',
    webhook: true,
  },
  ...generic('device', 'A device was'),
  ...generic('custom_object_definition', 'A custom-object definition was'),
  'custom_object_relation.created': { description: 'A custom-object relation was created.', webhook: true },
  'custom_object_relation.deleted': {
    description: 'A custom-object relation was deleted; its associations are gone with it.',
    webhook: true,
  },
  'custom_object_relation.association.created': {
    description:
      'Two custom-object instances were associated through a relation (POST …/relations/{relation_id}/associations): ' +
      'data.object has relation_id, side_a_instance_id, side_b_instance_id and the two definition ids. Links given ' +
      "when an instance is created come with that instance's custom_object.<slug>.created instead.",
    webhook: true,
  },
  'custom_object_relation.association.deleted': {
    description:
      'An association was removed; the two instances are no longer linked through the relation. Associations ' +
      'that go with a deleted relation or instance come with that deletion instead.',
    webhook: true,
  },
  'custom_object_relation.association_purge': {
    description:
      "Internal: the next step of removing a deleted relation's associations (relation.service.ts " +
      '`relationAssociationPurger`); never delivered, never audited.',
    webhook: false,
    audit: false,
  },
  'custom_object_definition.permissions.updated': {
    description: 'The permission matrix of a PROTECTED custom-object type was replaced.',
    webhook: true,
  },
  'custom_object_definition.purge': {
    description:
      "Internal: the next step of removing a deleted definition's instances (custom-object-purge.consumer.ts); " +
      'never delivered, never audited.',
    webhook: false,
    audit: false,
  },
  'device.history_purge': {
    description:
      "Internal: the next step of deleting a deleted device's telemetry history (device-history.consumer.ts); " +
      'never delivered, never audited.',
    webhook: false,
    audit: false,
  },
  ...generic('case', 'A case (work order) was'),
  ...generic('shift', 'A shift (the working hours of a technician or driver) was'),
  ...generic('maintenance_plan', 'A maintenance plan (recurring work that generates cases) was'),
  'case.external_id_updated': {
    description:
      'The external (ERP/CRM) reference of a case changed; written beside case.updated for the event ' +
      "stream's CASE_EXTERNAL_ID_UPDATED:V1 (webhooks and the audit log have case.updated).",
    webhook: false,
    audit: false,
  },
  'comment.created': { description: 'A comment (or a reply) was posted on a record.', webhook: true },
  // No comment.deleted: deleting a comment leaves a restorable tombstone, and `deleted` means the
  // record is gone; no operation removes a comment for good.
  'comment.updated': {
    description:
      'A comment changed: its body was edited by its author; it was deleted (DELETE leaves a tombstone that ' +
      'keeps its place in the thread: data.object has is_deleted true, is_deleted_by_moderator when a moderator ' +
      'deleted it, and no body, reactions, mentions or attachments; previous_attributes holds only the flags ' +
      'that changed, never the withheld body); or a deleted comment was restored (is_deleted false again). ' +
      'Comments are never removed for good, so there is no comment.deleted.',
    webhook: true,
  },
  'comment.reaction': {
    description:
      'A reaction was added to or removed from a comment: data.object has comment_id, target_type, ' +
      'target_id, emoji, user_id, action (added or removed) and count (for that emoji, afterwards). A ' +
      'repeated add or a removal of a reaction that was not there emits nothing.',
    webhook: true,
  },
  // Upload intents are the uploader's own plumbing step, and their form lets its holder write to
  // the bucket until it expires: the audit log records that one was made (never the form), webhooks
  // carry what came of it (comment.created with its attachments, tenant.updated with the logo).
  'comment_attachment.created': {
    description:
      'An upload of a comment attachment was started (POST /api/v2/comments/attachments): file_id, name, type ' +
      'and form expiry, never the form (audit log only, never a webhook).',
    webhook: false,
  },
  'case.comment_added': {
    description:
      "Internal: written beside comment.created for a comment on a case, for the event stream's " +
      'CASE_COMMENT_ADDED:V1 (webhooks and the audit log have comment.created).',
    webhook: false,
    audit: false,
  },
  'user.created': { description: 'A user was invited or created.', webhook: true },
  'user.updated': {
    description: 'A user changed: fields, roles, skills, tags, status (activation, deactivation, blocking).',
    webhook: true,
  },
  'tenant.created': { description: 'The workspace was created (admin plane).', webhook: true },
  'tenant.updated': { description: 'The workspace record changed.', webhook: true },
  'tenant.logo_upload.created': {
    description:
      'An upload of a new logo was started (POST /api/v2/tenant/logo-uploads): file_id, name, type and form ' +
      'expiry, never the form (audit log only, never a webhook; an applied logo is a tenant.updated).',
    webhook: false,
  },
  'tenant.favicon_upload.created': {
    description:
      'An upload of a new favicon was started (POST /api/v2/tenant/favicon-uploads): file_id, name, type and ' +
      'form expiry, never the form (audit log only, never a webhook; an applied favicon is a tenant.updated).',
    webhook: false,
  },
  'ai_assistant_settings.updated': { description: 'The AI assistant settings changed.', webhook: true },
  'mcp_settings.updated': { description: 'The MCP server settings changed.', webhook: true },
  'geoservices_settings.updated': { description: 'The geoservices settings changed.', webhook: true },
  'live_day_settings.updated': {
    description: 'The live-day settings (arrival radius, dwell) changed.',
    webhook: true,
  },
  'document_management_settings.updated': {
    description: 'The document management settings changed.',
    webhook: true,
  },
  // Billing details are personal data (a person's name, address, tax number) that only owners
  // and admins may read (billing:read): the audit log keeps them, webhooks never carry them.
  'billing_profile.created': {
    description: 'The billing profile was created by its first PATCH (audit log only, never a webhook).',
    webhook: false,
  },
  'billing_profile.updated': {
    description: 'The billing profile changed (audit log only, never a webhook).',
    webhook: false,
  },
  'webhook_endpoint.created': { description: 'A webhook endpoint was created.', webhook: false },
  'webhook_endpoint.updated': {
    description: 'A webhook endpoint changed, or its secret was rotated.',
    webhook: false,
  },
  'webhook_endpoint.deleted': { description: 'A webhook endpoint was deleted.', webhook: false },
} as const satisfies Record<string, EventRegistration>;

export type EventType = keyof typeof eventRegistry;

/** The synthetic event of POST /api/v2/webhooks/send-test: sent regardless of subscriptions. */
export const testEventType = 'test.webhook';

export function isRegisteredEvent(type: string): type is EventType {
  return Object.hasOwn(eventRegistry, type);
}

/** The verbs of a custom-object instance's events. */
export const customObjectVerbs = ['created', 'updated', 'deleted'] as const;

/**
 * `custom_object.<definition_slug>.<verb>`: the events of instances, one set per definition of a
 * workspace (the slug is the definition's at the time of the write; deliveries render the
 * current one).
 */
export function isCustomObjectEvent(type: string): boolean {
  const parts = type.split('.');
  return (
    parts.length === 3 &&
    parts[0] === 'custom_object' &&
    (customObjectVerbs as readonly string[]).includes(parts[2] ?? '')
  );
}

/** The catalog entries of one definition's instance events. */
export function customObjectCatalog(slug: string): CatalogEntry[] {
  return customObjectVerbs.map((verb) => ({
    type: `custom_object.${slug}.${verb}`,
    resource_path: `custom_object.${slug}`,
    verb,
    definition_slug: slug,
    description: `A ${slug} record was ${verb}${verb === 'deleted' ? '; the record is gone' : ''}.`,
  }));
}

export interface CatalogEntry {
  type: string;
  resource_path: string;
  verb: string;
  definition_slug?: string;
  description?: string;
}

function entryOf(type: string, description?: string): CatalogEntry {
  const cut = type.lastIndexOf('.');
  return {
    type,
    resource_path: type.slice(0, cut),
    verb: type.slice(cut + 1),
    ...(description ? { description } : {}),
  };
}

/**
 * The events a workspace's endpoints can subscribe to, sorted by name: the generic events that
 * are delivered to webhooks. Plugin events (of enabled plugins) and custom-object events (of
 * the workspace's definitions) join here when those modules exist.
 */
export function webhookCatalog(): CatalogEntry[] {
  return Object.entries(eventRegistry as Record<string, EventRegistration>)
    .filter(([, registration]) => registration.webhook)
    .map(([type, registration]) => entryOf(type, registration.description))
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Whether the audit log records events of this type (every registered one unless it opts out). */
export function isAuditedEvent(type: string): boolean {
  return !isRegisteredEvent(type) || (eventRegistry[type] as EventRegistration).audit !== false;
}

export function isWebhookEvent(type: string): boolean {
  if (isCustomObjectEvent(type)) return true;
  return isRegisteredEvent(type) && (eventRegistry[type] as EventRegistration).webhook;
}
