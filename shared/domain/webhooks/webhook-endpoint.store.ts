/** Storage of webhook endpoints. Endpoint items hold their signing secret: services strip it from every representation. */
import { resourceStore } from '../../data/resource-store.ts';
import { webhookEndpointList } from './webhook-endpoint.list.ts';
import type { StoredWebhookEndpoint } from './webhook-endpoint.schema.ts';

export const webhookEndpointStore = resourceStore<StoredWebhookEndpoint>(
  'webhook_endpoint',
  'WEBHOOK',
  webhookEndpointList,
);
