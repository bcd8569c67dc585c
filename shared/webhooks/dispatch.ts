/**
 * The dispatcher: the outbox consumer that turns one domain event into one delivery message per
 * enabled endpoint of the workspace that subscribes to it (however many of its patterns match).
 *
 * It reads the workspace's endpoints (one Query; at most maxEndpointsPerWorkspace) once per
 * stream batch and workspace. Within a batch, a change of an endpoint is itself an event that
 * precedes, in stream order, every event written after it (a workspace's outbox is one
 * partition, so one shard): seeing one drops the cached endpoints of that workspace, and an
 * endpoint created before an event is always offered that event.
 */

import type { StoredWebhookEndpoint } from '../domain/webhooks/webhook-endpoint.schema.ts';
import { webhookEndpointStore } from '../domain/webhooks/webhook-endpoint.store.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import { isCustomObjectEvent, isWebhookEvent } from '../events/event-registry.ts';
import {
  type DefinitionNames,
  definitionNames,
  deliveredType,
  renderSubscriptions,
} from './definition-scopes.ts';
import { type DeliveryMessage, enqueueDeliveries } from './delivery-queue.ts';
import { deliveryIdOf, prepareEnvelope, withDeliveryId } from './envelope.ts';
import { compilePatterns } from './subscription-pattern.ts';

interface Subscriber {
  id: string;
  matches: (eventType: string) => boolean;
}

export interface DispatcherPorts {
  endpointsOf(workspaceId: string): Promise<StoredWebhookEndpoint[]>;
  enqueue(messages: readonly DeliveryMessage[]): Promise<void>;
  definitionNames(workspaceId: string): Promise<DefinitionNames>;
}

const defaultPorts: DispatcherPorts = {
  endpointsOf: (workspaceId) => webhookEndpointStore.of(workspaceId).list(),
  enqueue: enqueueDeliveries,
  definitionNames,
};

/** A custom-object event as delivered: its type and definition_slug with the definition's current slug. */
function renderedEvent(event: DomainEvent, names: DefinitionNames): DomainEvent {
  const type = deliveredType(event, names);
  if (type === event.type) return event;
  const slug = type.split('.')[1];
  return { ...event, type, data: { ...event.data, object: { ...event.data.object, definition_slug: slug } } };
}

export function webhookDispatcher(ports: DispatcherPorts = defaultPorts) {
  return {
    name: 'webhook-dispatch',
    /** All messages of a batch, in stream order, then sent together (SendMessageBatch of 10). */
    async handleBatch(events: readonly DomainEvent[]): Promise<void> {
      const subscribers = new Map<string, Subscriber[]>();
      // The workspace's definitions, read only when a custom-object event or a subscription
      // scoped to a definition needs their current slugs (definition-scopes.ts).
      const names = new Map<string, Promise<DefinitionNames>>();
      const namesOf = (workspaceId: string) => {
        let found = names.get(workspaceId);
        if (!found) {
          found = ports.definitionNames(workspaceId);
          names.set(workspaceId, found);
        }
        return found;
      };
      const subscribersOf = async (workspaceId: string): Promise<Subscriber[]> => {
        const cached = subscribers.get(workspaceId);
        if (cached) return cached;
        const endpoints = (await ports.endpointsOf(workspaceId)).filter(
          (endpoint) => endpoint.enabled && endpoint.subscriptions.length > 0,
        );
        const scoped = endpoints.some((endpoint) => endpoint.subscription_scopes?.some(Boolean));
        const current = scoped ? await namesOf(workspaceId) : undefined;
        const loaded = endpoints.map((endpoint) => ({
          id: endpoint.id,
          matches: compilePatterns(
            renderSubscriptions(endpoint.subscriptions, endpoint.subscription_scopes, current)
              .filter((subscription) => !subscription.orphaned)
              .map((subscription) => subscription.pattern),
          ),
        }));
        subscribers.set(workspaceId, loaded);
        return loaded;
      };
      const messages: DeliveryMessage[] = [];
      for (const original of events) {
        if (original.type.startsWith('webhook_endpoint.')) {
          subscribers.delete(original.workspace_id);
          continue;
        }
        if (original.type.startsWith('custom_object_definition.')) {
          // A rename or deletion changes what scoped subscriptions and event types render.
          subscribers.delete(original.workspace_id);
          names.delete(original.workspace_id);
        }
        if (!isWebhookEvent(original.type)) continue;
        const event = isCustomObjectEvent(original.type)
          ? renderedEvent(original, await namesOf(original.workspace_id))
          : original;
        const matching = (await subscribersOf(event.workspace_id)).filter((s) => s.matches(event.type));
        if (matching.length === 0) continue;
        const envelope = prepareEnvelope(event);
        for (const subscriber of matching) {
          const deliveryId = deliveryIdOf(event.id, subscriber.id);
          messages.push({
            v: 1,
            delivery_id: deliveryId,
            workspace_id: event.workspace_id,
            endpoint_id: subscriber.id,
            event_id: event.id,
            event_type: event.type,
            request_id: event.request?.correlation_id ?? event.id,
            attempt: 1,
            body: withDeliveryId(envelope, deliveryId),
            ...(original.trace ? { trace: original.trace } : {}),
          });
        }
      }
      if (messages.length > 0) await ports.enqueue(messages);
    },
  };
}
