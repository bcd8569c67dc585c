/**
 * What a user does by hand with deliveries: send the test event, list the failures, redeliver
 * one failed message. Both sends are synchronous single attempts through the same code as the
 * worker's (attempt.ts): the same SSRF checks, signature and deadlines; neither is retried.
 */
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import { testEventType } from '../../events/event-registry.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { type AttemptOutcome, attemptDelivery, outcomeFields } from '../../webhooks/attempt.ts';
import { prepareEnvelope, withDeliveryId } from '../../webhooks/envelope.ts';
import type { DeliveryFailure, DeliveryFailureListQuery } from './delivery-failure.schema.ts';
import { writeEndpoint } from './webhook-endpoint.service.ts';
import { webhookEndpointStore } from './webhook-endpoint.store.ts';
import { WebhookError } from './webhook-error.ts';
import { type DeliveryFailureRecord, rowExpiry, webhookFailureStore } from './webhook-failure.store.ts';

/**
 * POST /webhooks/send-test: test.webhook now, whatever the subscriptions, enabled or not. A failure
 * says why (failure_reason, failure-reason.ts) and, when the receiver answered, with which status.
 */
export async function sendTest(ctx: Actor, endpointId: string) {
  const endpoint = await webhookEndpointStore.of(ctx).get(endpointId);
  if (!endpoint) throw new WebhookError('not-found', { detail: 'No webhook endpoint with this id exists.' });
  const deliveryId = randomUUID();
  const event: DomainEvent = {
    id: uuidv7(),
    type: testEventType,
    occurred_at: new Date().toISOString(),
    workspace_id: ctx.workspaceId,
    actor: { type: 'USER', id: ctx.principal.id },
    request: { id: ctx.requestId, correlation_id: ctx.correlationId },
    resource: { type: 'webhook_endpoint', id: endpoint.id },
    data: {
      object: {
        id: endpoint.id,
        endpoint_id: endpoint.id,
        message: 'A test event sent from the API: if it arrived, this endpoint works.',
      },
    },
  };
  const body = withDeliveryId(prepareEnvelope(event), deliveryId);
  const outcome = await attemptDelivery(endpoint, { id: deliveryId, body, requestId: ctx.correlationId });
  if (!outcome.ok) {
    await webhookFailureStore.of(ctx).save({
      id: deliveryId,
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: testEventType,
      retry_state: 'FAILED',
      attempts: 1,
      first_failed_at: outcome.at,
      expires_at: rowExpiry(outcome.at),
      body,
      ...outcomeFields(outcome),
    });
  }
  // Exactly one write, so lock_version advances by exactly one.
  await writeEndpoint(ctx, endpointId, undefined, (current) => ({
    ...current,
    last_test_tried_at: outcome.at,
    test_was_successful: outcome.ok,
  }));
  return {
    last_test_tried_at: outcome.at,
    test_was_successful: outcome.ok,
    ...(outcome.ok ? {} : { failure_reason: outcome.failure ?? 'CONNECTION_FAILED' }),
    ...(!outcome.ok && outcome.status !== undefined ? { response_status: outcome.status } : {}),
  };
}

export function toFailure(row: DeliveryFailureRecord): DeliveryFailure {
  const { body: _body, ...published } = row;
  return published;
}

export async function listFailures(ctx: Actor, query: z.output<typeof DeliveryFailureListQuery>) {
  const { items, total } = await webhookFailureStore.of(ctx).page({
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
    ...(query.endpoint_id ? { endpointId: query.endpoint_id } : {}),
  });
  return { items: items.map(toFailure), page: pageOf(total, query) };
}

/**
 * Sends the failed message again, now, with its original webhook-id and body, signed with the
 * endpoint's current secret. The row records the attempt: SUCCEEDED_AFTER_RETRY when it got
 * through; otherwise its state stays and attempts and the last answer move on.
 */
export async function redeliver(ctx: Actor, deliveryId: string): Promise<DeliveryFailure> {
  const row = await webhookFailureStore.of(ctx).get(deliveryId);
  if (!row) throw new WebhookError('not-found', { detail: 'No delivery failure with this id exists.' });
  const endpoint = await webhookEndpointStore.of(ctx).getConsistent(row.endpoint_id);
  if (!endpoint) {
    throw new WebhookError('conflict', {
      detail: 'The endpoint of this delivery was deleted; there is nowhere to redeliver it.',
    });
  }
  if (row.retry_state === 'PENDING') {
    throw new WebhookError('conflict', {
      detail: `This delivery is still being retried (next attempt at ${row.next_attempt_at}); redeliver it after it has settled.`,
    });
  }
  const outcome: AttemptOutcome = await attemptDelivery(endpoint, {
    id: row.id,
    body: row.body,
    requestId: ctx.correlationId,
  });
  const { last_error: _error, last_response: _response, last_status_code: _status, ...rest } = row;
  const next: DeliveryFailureRecord = {
    ...rest,
    ...outcomeFields(outcome),
    attempts: row.attempts + 1,
    retry_state: outcome.ok ? 'SUCCEEDED_AFTER_RETRY' : row.retry_state,
  };
  await webhookFailureStore.of(ctx).save(next);
  return toFailure(next);
}
