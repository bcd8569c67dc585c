/** Webhooks: parse, call the domain, respond. */
import * as deliveries from '../../shared/domain/webhooks/webhook-delivery.service.ts';
import * as endpoints from '../../shared/domain/webhooks/webhook-endpoint.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { webhookRoutes } from '../../shared/routes/groups/webhooks.routes.ts';

export const handler = createGroupHandler(webhookRoutes, {
  'webhooks.list': async ({ ctx, query }) => ({ body: await endpoints.listEndpoints(ctx, query) }),
  'webhooks.create': async ({ ctx, body }) => {
    const created = await endpoints.createEndpoint(ctx, body);
    return { body: created, location: `/api/v2/webhook-endpoints/${created.id}` };
  },
  'webhooks.get': async ({ ctx, params }) => ({ body: await endpoints.getEndpoint(ctx, params.endpoint_id) }),
  'webhooks.update': async ({ ctx, params, body }) => ({
    body: await endpoints.updateEndpoint(ctx, params.endpoint_id, body),
  }),
  'webhooks.delete': async ({ ctx, params }) => {
    await endpoints.deleteEndpoint(ctx, params.endpoint_id);
    return {};
  },
  'webhooks.rotate-secret': async ({ ctx, params }) => ({
    body: await endpoints.rotateSecret(ctx, params.endpoint_id),
  }),
  'webhooks.event-types': async ({ ctx }) => ({ body: await endpoints.listEventTypes(ctx) }),
  'webhooks.send-test': async ({ ctx, body }) => ({ body: await deliveries.sendTest(ctx, body.endpoint_id) }),
  'webhooks.failures.list': async ({ ctx, query }) => ({ body: await deliveries.listFailures(ctx, query) }),
  'webhooks.failures.redeliver': async ({ ctx, params }) => ({
    body: await deliveries.redeliver(ctx, params.delivery_id),
  }),
});
