/**
 * The webhook envelope (SPEC.md, Webhooks → Envelope), payload_version 1. It is built once per
 * event: everything but the delivery id is serialized once, and each delivery splices its own
 * id in, so one event sent to three endpoints costs one JSON.stringify of its object.
 */
import { v5 as uuidv5 } from 'uuid';
import type { DomainEvent } from '../events/domain-event.ts';
import { withoutNullKeys } from '../json/without-nulls.ts';

export const payloadVersion = 1;

/** Fixed namespace of delivery ids (a random UUID chosen once for this service). */
const deliveryNamespace = '8b0c4f52-4d0e-4f5c-9a55-3f1f0c2b7e61';

/**
 * The delivery id of (event, endpoint): stable, so a dispatcher retry re-sends the same
 * `webhook-id` and receivers deduplicate it, as the header promises.
 */
export function deliveryIdOf(eventId: string, endpointId: string): string {
  return uuidv5(`${eventId}/${endpointId}`, deliveryNamespace);
}

/** The envelope of one event, without its delivery id: call `withDeliveryId` per endpoint. */
export interface PreparedEnvelope {
  type: string;
  eventId: string;
  /** JSON text after the id: `,"event_id":…}`. */
  rest: string;
}

export function prepareEnvelope(event: DomainEvent, type: string = event.type): PreparedEnvelope {
  const rest = JSON.stringify({
    event_id: event.id,
    timestamp: event.occurred_at,
    payload_version: payloadVersion,
    tenant_id: event.workspace_id,
    ...(event.actor ? { actor: event.actor } : {}),
    ...(event.request ? { request: event.request } : {}),
    data: {
      // The object follows "Absent values" like every answer (its key set is open, nulls add
      // nothing); previous_attributes keep theirs: a null there means "used to be empty".
      object: withoutNullKeys(event.data.object),
      ...(event.data.previous_attributes ? { previous_attributes: event.data.previous_attributes } : {}),
    },
  });
  return { type, eventId: event.id, rest: `,${rest.slice(1)}` };
}

/** The exact body of one delivery: `{"type":…,"id":<delivery id>,"event_id":…}`. */
export function withDeliveryId(envelope: PreparedEnvelope, deliveryId: string): string {
  return `{"type":${JSON.stringify(envelope.type)},"id":${JSON.stringify(deliveryId)}${envelope.rest}`;
}
