/** How webhook endpoints are listed: by creation, change and id (README.md, "Lists", WEBHOOK). */
import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, byId, collectionOf } from '../../data/list-patterns.ts';
import type { StoredWebhookEndpoint } from './webhook-endpoint.schema.ts';

export const webhookEndpointList: ListSpec<StoredWebhookEndpoint> = {
  name: 'WEBHOOK',
  listed: () => true,
  orders: { created_at: byCreation(), updated_at: byChange(), id: byId() },
  basePartition: collectionOf('WEBHOOK'),
};
