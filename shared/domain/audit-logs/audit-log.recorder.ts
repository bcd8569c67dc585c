/**
 * The audit log's writer: the stream consumer (shared/events/consumers.ts) records each audited
 * domain event as an entry. Apart from the read side (audit-log.service.ts), whose paging
 * helpers load zod, so that the stream processor does not load it.
 */

import type { DomainEvent } from '../../events/domain-event.ts';
import { isAuditedEvent } from '../../events/event-registry.ts';
import type { AuditLogEntry } from './audit-log.schema.ts';
import { auditLogStore } from './audit-log.store.ts';

export function auditEntryOf(event: DomainEvent): AuditLogEntry {
  return {
    id: event.id,
    event_type: event.type,
    created_at: event.occurred_at,
    ...(event.actor ? { actor: event.actor } : {}),
    ...(event.request ? { request: event.request } : {}),
    resource: event.resource,
    data: event.data,
  };
}

/** The entries of a whole stream batch, in BatchWriteItem calls of 25 (one entry per event id). */
export async function recordAuditEntries(events: readonly DomainEvent[]): Promise<void> {
  const unique = new Map(
    events.filter((event) => isAuditedEvent(event.type)).map((event) => [event.id, event]),
  );
  await auditLogStore.putMany(
    [...unique.values()].map((event) => ({ workspaceId: event.workspace_id, entry: auditEntryOf(event) })),
  );
}
