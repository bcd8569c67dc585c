/** Routes of the `webhooks` operation group (one Lambda): endpoints, the catalog, tests, failures. */

import type * as z from 'zod';
import {
  DeliveryFailureIdParams,
  DeliveryFailureListQuery,
  DeliveryFailureListSchema,
  DeliveryFailureSchema,
} from '../../domain/webhooks/delivery-failure.schema.ts';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  SendTestSchema,
  UpdateWebhookEndpointSchema,
  WebhookEndpointIdParams,
  WebhookEndpointListQuery,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEventTypeListSchema,
  WebhookTestResultSchema,
} from '../../domain/webhooks/webhook-endpoint.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes, onePage } from '../crud-routes.ts';

const endpointExample: z.input<typeof WebhookEndpointSchema> = {
  id: '01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e70',
  display_name: 'ERP sync',
  endpoint_url: 'https://erp.example.com/hooks/fsm',
  signature_scheme: 'HMAC_SHA256',
  enabled: true,
  retry: true,
  subscriptions: ['area.*', 'user.created'],
  invalid_subscriptions: [],
  created_at: '2026-03-02T08:15:00Z',
  updated_at: '2026-06-11T14:02:37Z',
  lock_version: 4,
};

const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6ZzQ3kT2nKo=';

const failureExample: z.input<typeof DeliveryFailureSchema> = {
  id: '5b6a2f7e-3c1d-5e4f-8a9b-0c1d2e3f4a5b',
  endpoint_id: endpointExample.id,
  event_id: '01936b2f-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
  event_type: 'area.updated',
  retry_state: 'PENDING',
  attempts: 2,
  last_status_code: 503,
  last_response: '{"error":"maintenance"}',
  first_failed_at: '2026-06-11T14:02:38Z',
  last_attempt_at: '2026-06-11T14:03:09Z',
  next_attempt_at: '2026-06-11T14:05:09Z',
  expires_at: '2026-07-12T00:00:00Z',
};

const { next_attempt_at: _settled, ...settledExample } = failureExample;
const redeliveredExample = { ...settledExample, retry_state: 'SUCCEEDED_AFTER_RETRY', attempts: 8 };

const endpoint = '/api/v2/webhook-endpoints/{endpoint_id}' as const;

const endpointRoutes = crudRoutes({
  group: 'webhooks',
  collection: '/api/v2/webhook-endpoints',
  idParam: 'endpoint_id',
  singular: 'webhook endpoint',
  plural: 'webhook endpoints',
  tag: 'Webhooks',
  readGrants: ['webhooks:read'],
  writeGrants: ['webhooks:update'],
  createGrants: ['webhooks:create'],
  schemas: {
    listQuery: WebhookEndpointListQuery,
    idParams: WebhookEndpointIdParams,
    item: WebhookEndpointSchema,
    list: WebhookEndpointListSchema,
    create: CreateWebhookEndpointSchema,
    update: UpdateWebhookEndpointSchema,
    created: CreatedWebhookEndpointSchema,
  },
  docs: {
    about:
      'A webhook endpoint receives the events of the workspace it subscribes to as signed HTTPS POSTs ' +
      '(Standard Webhooks v1: webhook-id, webhook-timestamp, webhook-signature), at least once, retried ' +
      '30 s, 2 min, 10 min, 30 min, 1 h and 2 h after a failed attempt when retry is true.',
    list:
      'Default order: created_at ascending, ties by id. The secret never appears here. A workspace holds at ' +
      'most 100 endpoints.',
    create:
      'display_name and endpoint_url are required; enabled and retry default to true, subscriptions to [] ' +
      '(no events). The answer holds the signing secret, the only time it is shown besides rotate-secret. ' +
      'A destination that resolves to a non-public address is 422 on #/endpoint_url; a name that does not ' +
      'resolve yet is accepted (it is resolved again before every attempt). A 101st endpoint is 409.',
    update:
      'display_name and endpoint_url cannot be null or blank, retry, subscriptions and lock_version cannot ' +
      'be null (422). subscriptions, when sent, replaces the whole set. Disabling stops deliveries at once: ' +
      'messages already queued for the endpoint are dropped, and their pending failure rows become CANCELLED.',
    delete: 'The endpoint and its subscriptions are gone; queued deliveries to it are dropped.',
  },
  examples: {
    item: endpointExample,
    created: {
      ...endpointExample,
      lock_version: 0,
      updated_at: endpointExample.created_at,
      secret: secretExample,
    },
    create: {
      display_name: 'ERP sync',
      endpoint_url: 'https://erp.example.com/hooks/fsm',
      subscriptions: ['area.*', 'user.created'],
    },
    update: { enabled: false, lock_version: 4 },
  },
});

export const webhookRoutes = [
  ...endpointRoutes,
  {
    operationId: 'webhooks.rotate-secret',
    group: 'webhooks',
    tags: ['Webhooks'],
    auth: 'bearer',
    method: 'POST',
    path: `${endpoint}/rotate-secret`,
    summary: 'Rotate the signing secret of a webhook endpoint',
    description:
      'Replaces the secret with a new one, returned in this answer only. The old secret is invalid at once: ' +
      'every attempt from now on, retries of earlier events included, carries one signature made with the new ' +
      'secret. lock_version advances. No body.',
    examples: { response: { ...endpointExample, lock_version: 5, secret: secretExample } },
    grants: ['webhooks:update'],
    params: WebhookEndpointIdParams,
    success: {
      status: 200,
      description: 'The endpoint with its new secret.',
      schema: CreatedWebhookEndpointSchema,
    },
  },
  {
    operationId: 'webhooks.event-types',
    group: 'webhooks',
    tags: ['Webhooks'],
    auth: 'bearer',
    method: 'GET',
    path: '/api/v2/webhooks/event-types',
    summary: 'List the event types endpoints can subscribe to',
    description:
      'The catalog of the workspace: every event name (`<resource_path>.<verb>`) the service delivers, with ' +
      'its resource path and verb, sorted by name. Subscriptions are these names or patterns over them: ' +
      '`area.*` (every verb and nested resource of area), `*.created`, `*`. test.webhook is not listed: ' +
      'it is only sent by send-test.',
    examples: {
      response: {
        items: [
          {
            type: 'area.created',
            resource_path: 'area',
            verb: 'created',
            description: 'An area was created.',
          },
        ],
      },
    },
    grants: ['webhooks:read'],
    success: { status: 200, description: 'The event catalog.', schema: WebhookEventTypeListSchema },
  },
  {
    operationId: 'webhooks.send-test',
    group: 'webhooks',
    tags: ['Webhooks'],
    auth: 'bearer',
    method: 'POST',
    path: '/api/v2/webhooks/send-test',
    summary: 'Send a test event to a webhook endpoint',
    description:
      'Sends one test.webhook event now and answers when the receiver has (or has not, within 3 s to ' +
      'connect and 5 s to answer). It ignores subscriptions, works while the endpoint is disabled, is never ' +
      'retried, and appears in the delivery failures (retry_state FAILED) when it fails. The endpoint ' +
      "records the outcome, so its lock_version advances by exactly 1. A receiver's non-2xx is a 200 here " +
      'with test_was_successful false.\n\n' +
      'A failed test says why: `failure_reason`, one of DESTINATION_REFUSED (the URL or its addresses may not ' +
      'receive webhooks; plain http and loopback receivers only where local delivery is on, ' +
      'FSM_WEBHOOK_ALLOW_LOCAL=true, development only), DNS_FAILED, CONNECT_TIMEOUT, TLS_FAILED, ' +
      'CONNECTION_FAILED, RESPONSE_TIMEOUT, INVALID_RESPONSE, REDIRECT_NOT_FOLLOWED (a 3xx: redirects are never ' +
      'followed) or NON_2XX_RESPONSE, and `response_status`, the status the receiver answered, when it answered ' +
      'one. Both are omitted on success. The delivery failure row of the test has the full text in last_error. ' +
      'An `endpoint_id` that names no endpoint of the workspace is 404 not-found.',
    examples: {
      request: { endpoint_id: endpointExample.id },
      response: {
        last_test_tried_at: '2026-06-11T14:10:00Z',
        test_was_successful: false,
        failure_reason: 'NON_2XX_RESPONSE',
        response_status: 503,
      },
    },
    grants: ['webhooks:update'],
    body: SendTestSchema,
    errors: [404],
    success: { status: 200, description: 'The outcome of the test.', schema: WebhookTestResultSchema },
  },
  {
    operationId: 'webhooks.failures.list',
    group: 'webhooks',
    tags: ['Webhooks'],
    auth: 'bearer',
    method: 'GET',
    path: '/api/v2/webhooks/delivery-failures',
    summary: 'List webhook delivery failures',
    description:
      'One row per message that failed at least once, updated on every further attempt, newest first failure ' +
      'first, kept about 30 days (until expires_at). Successes are never recorded, so absence proves nothing; ' +
      'retry_state tells whether a row is still being retried. A page reads its own rows only; totals come ' +
      'from counters.',
    examples: { query: `endpoint_id=${endpointExample.id}&size=20`, response: onePage(failureExample) },
    grants: ['webhooks:read'],
    query: DeliveryFailureListQuery,
    success: { status: 200, description: 'A page of failure rows.', schema: DeliveryFailureListSchema },
  },
  {
    operationId: 'webhooks.failures.redeliver',
    group: 'webhooks',
    tags: ['Webhooks'],
    auth: 'bearer',
    method: 'POST',
    path: '/api/v2/webhooks/delivery-failures/{delivery_id}/redeliver',
    summary: 'Redeliver a failed webhook message',
    description:
      'Sends the message again now, synchronously, with its original webhook-id and body, to the endpoint as ' +
      'it is now (URL, current secret), whether enabled or not; one attempt, never retried. The row records ' +
      'it: SUCCEEDED_AFTER_RETRY when it got a 2xx, otherwise the state stays and attempts and the last ' +
      'answer move on. 409 while the row is PENDING (automatic retries are still running) or when the endpoint ' +
      'was deleted.',
    examples: { response: redeliveredExample },
    grants: ['webhooks:update'],
    params: DeliveryFailureIdParams,
    errors: [409],
    success: { status: 200, description: 'The updated failure row.', schema: DeliveryFailureSchema },
  },
] as const satisfies readonly RouteSpec[];
