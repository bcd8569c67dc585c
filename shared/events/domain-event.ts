/**
 * Domain events: what happened, to which resource, by whom, in which request. Every successful
 * write stores one in the same transaction as the change (the outbox); consumers of the table
 * stream (audit log today, SSE and webhooks later) receive it from there.
 */
import { isDeepStrictEqual } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../auth/actor.ts';
import { currentTraceHeader } from '../observability/tracer.ts';
import type { EventType } from './event-registry.ts';

/** Who the event says acted: a user or service account, or the service itself. */
export type EventActor = { type: 'USER'; id: string } | { type: 'SYSTEM' };

export interface DomainEvent {
  /** UUIDv7: time-ordered, used as the SSE event id and the webhook event_id. */
  id: string;
  /** Webhook-style name `<resource_path>.<verb>`, e.g. `area.created`. */
  type: string;
  occurred_at: string;
  workspace_id: string;
  actor?: EventActor;
  request?: { id: string; correlation_id: string };
  resource: { type: string; id: string };
  data: {
    object: Record<string, unknown>;
    /** Edits only: the old values of the changed keys; null = the key used to be empty. */
    previous_attributes?: Record<string, unknown>;
  };
  /**
   * The X-Ray trace header of the invocation that wrote the event (on Lambda with tracing on),
   * handed on to the work it sets off (webhook deliveries) so they join its trace. Internal:
   * no envelope publishes it; the correlation id stays the public handle.
   */
  trace?: string;
}

function traceOfInvocation(): { trace?: string } {
  const trace = currentTraceHeader();
  return trace ? { trace } : {};
}

/** Keys that change on every write and so say nothing about what the caller changed. */
const bookkeepingKeys = new Set(['updated_at', 'lock_version']);

export function previousAttributes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (bookkeepingKeys.has(key)) continue;
    if (!isDeepStrictEqual(before[key], after[key])) previous[key] = before[key] ?? null;
  }
  return previous;
}

/**
 * An event of a change the service made by itself (blocking a user after failed sign-ins) or
 * an operator made through the admin plane: actor SYSTEM; the request ids when there was one.
 */
export function systemEvent(
  workspaceId: string,
  type: EventType,
  resource: { type: string; id: string },
  object: Record<string, unknown>,
  previous?: Record<string, unknown>,
  request?: { requestId: string; correlationId: string },
): DomainEvent {
  return {
    id: uuidv7(),
    type,
    occurred_at: new Date().toISOString(),
    workspace_id: workspaceId,
    actor: { type: 'SYSTEM' },
    ...(request ? { request: { id: request.requestId, correlation_id: request.correlationId } } : {}),
    resource,
    data: { object, ...(previous ? { previous_attributes: previous } : {}) },
    ...traceOfInvocation(),
  };
}

export function domainEvent(
  actor: Actor,
  type: EventType,
  resource: { type: string; id: string },
  object: Record<string, unknown>,
  previous?: Record<string, unknown>,
): DomainEvent {
  return {
    id: uuidv7(),
    type,
    occurred_at: new Date().toISOString(),
    workspace_id: actor.workspaceId,
    actor: { type: 'USER', id: actor.principal.id },
    request: { id: actor.requestId, correlation_id: actor.correlationId },
    resource,
    data: { object, ...(previous ? { previous_attributes: previous } : {}) },
    ...traceOfInvocation(),
  };
}
