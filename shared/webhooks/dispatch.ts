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
import { webhookEndpointStore } from '../data/stores.ts';
import type { StoredWebhookEndpoint } from '../domain/webhooks/webhook-endpoint.schema.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import { isWebhookEvent } from '../events/event-registry.ts';
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
}

const defaultPorts: DispatcherPorts = {
  endpointsOf: (workspaceId) => webhookEndpointStore.list(workspaceId),
  enqueue: enqueueDeliveries,
};

export function webhookDispatcher(ports: DispatcherPorts = defaultPorts) {
  return {
    name: 'webhook-dispatch',
    /** All messages of a batch, in stream order, then sent together (SendMessageBatch of 10). */
    async handleBatch(events: readonly DomainEvent[]): Promise<void> {
      const subscribers = new Map<string, Subscriber[]>();
      const subscribersOf = async (workspaceId: string): Promise<Subscriber[]> => {
        const cached = subscribers.get(workspaceId);
        if (cached) return cached;
        const loaded = (await ports.endpointsOf(workspaceId))
          .filter((endpoint) => endpoint.enabled && endpoint.subscriptions.length > 0)
          .map((endpoint) => ({ id: endpoint.id, matches: compilePatterns(endpoint.subscriptions) }));
        subscribers.set(workspaceId, loaded);
        return loaded;
      };
      const messages: DeliveryMessage[] = [];
      for (const event of events) {
        if (event.type.startsWith('webhook_endpoint.')) {
          subscribers.delete(event.workspace_id);
          continue;
        }
        if (!isWebhookEvent(event.type)) continue;
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
          });
        }
      }
      if (messages.length > 0) await ports.enqueue(messages);
    },
  };
}
