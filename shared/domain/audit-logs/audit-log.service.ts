/**
 * Audit log: written by the stream consumer from domain events, read newest first.
 */
import type { z } from 'zod';
import { auditLogStore } from '../../data/audit-log.store.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import { isAuditedEvent } from '../../events/event-registry.ts';
import { defaultPageSize, pageOf } from '../../http/list.ts';
import { validationProblem } from '../../http/problem.ts';
import type { AuthenticatedContext } from '../../http/request-context.ts';
import type { AuditLogEntry, AuditLogListQuery } from './audit-log.schema.ts';

export async function listAuditLogs(ctx: AuthenticatedContext, query: z.output<typeof AuditLogListQuery>) {
  if (query.created_from && query.created_to && query.created_from > query.created_to) {
    throw validationProblem([
      {
        type: 'field-invalid',
        pointer: '#/created_to',
        parameter: 'created_to',
        detail: 'must not be before created_from',
      },
    ]);
  }
  const page = query.page ?? 0;
  const size = query.size ?? defaultPageSize;
  const { entries, total } = await auditLogStore.listNewestFirst(
    ctx.workspaceId,
    { from: query.created_from, to: query.created_to },
    (page + 1) * size,
  );
  return { items: entries.slice(page * size), page: pageOf(total, { page, size }) };
}

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
