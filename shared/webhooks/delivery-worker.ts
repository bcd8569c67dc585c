/**
 * The delivery worker: one received message, one decision. Named steps as in Svix's worker:
 * wait (hop if not due), prepare (the endpoint as it is now), send (attempt.ts), then handle
 * success or failure. Runs unchanged in the SQS-triggered Lambda (functions/webhook-delivery)
 * and in the local stack's queue poller.
 *
 * It returns normally when the message is settled (delivered, rescheduled as a new delayed
 * message, recorded as failed for good, or dropped); it throws only when it could not decide
 * (the table or the queue unreachable), and then the message comes back after its visibility
 * timeout and the same attempt is made again: at-least-once, never lost.
 */

import { config } from '../config.ts';
import { webhookEndpointStore } from '../domain/webhooks/webhook-endpoint.store.ts';
import {
  type DeliveryFailureRecord,
  rowExpiry,
  webhookFailureStore,
} from '../domain/webhooks/webhook-failure.store.ts';
import { recordWebhookAttempt } from '../observability/metrics.ts';
import { type AttemptOutcome, attemptDelivery, outcomeFields } from './attempt.ts';
import { type DeliveryMessage, DeliveryMessageSchema } from './delivery-message.ts';
import { enqueueDelayed } from './delivery-queue.ts';
import { nextDelaySeconds } from './retry-schedule.ts';

type Log = (message: string, details: Record<string, unknown>) => void;

/** Waits this short are slept through rather than sent on as another message. */
const maxInlineWaitMs = 1_000;

export async function processDeliveryMessage(raw: string, log: Log = () => {}): Promise<void> {
  const parsed = DeliveryMessageSchema.safeParse(safeJson(raw));
  if (!parsed.success) {
    // Nothing can ever deliver it; keeping it would only make it come back.
    log('webhook message unreadable; dropped', { issues: parsed.error.issues.length });
    return;
  }
  const message = parsed.data;

  // Wait: not due yet → send it on for the rest of the wait (at most 900 s per hop).
  const waitMs = message.due_at ? Date.parse(message.due_at) - Date.now() : 0;
  if (waitMs > maxInlineWaitMs) {
    await enqueueDelayed(message);
    return;
  }
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));

  // Prepare: the endpoint as it is now (a rotated secret, a new URL, disabled, deleted).
  const endpoint = await webhookEndpointStore.of(message.workspace_id).getConsistent(message.endpoint_id);
  if (!endpoint?.enabled) {
    await cancelPending(message, endpoint ? 'endpoint disabled' : 'endpoint deleted');
    recordWebhookAttempt({ outcome: 'cancelled', attempt: message.attempt });
    return;
  }

  // Send.
  const lagMs = Date.now() - dueSince(message);
  const outcome = await attemptDelivery(endpoint, {
    id: message.delivery_id,
    body: message.body,
    requestId: message.request_id,
  });

  if (outcome.ok) {
    if (message.attempt > 1) await recordSuccessAfterRetry(message, outcome);
    recordWebhookAttempt({ outcome: 'delivered', attempt: message.attempt, lagMs });
    return;
  }
  const state = await handleFailure(message, outcome, endpoint.retry, log);
  recordWebhookAttempt({ outcome: attemptOutcomes[state], attempt: message.attempt, lagMs });
}

const attemptOutcomes = { PENDING: 'retrying', EXHAUSTED: 'exhausted', FAILED: 'failed' } as const;

/**
 * Since when the attempt was due, for the delivery lag: a retry's due time, or the event's time
 * (the envelope's `timestamp`) for a first attempt; the message's arrival when neither is known.
 */
function dueSince(message: DeliveryMessage): number {
  if (message.due_at) return Date.parse(message.due_at);
  const occurred = Date.parse(/"timestamp":"([^"]+)"/.exec(message.body)?.[1] ?? '');
  return Number.isNaN(occurred) ? Date.now() : occurred;
}

async function handleFailure(
  message: DeliveryMessage,
  outcome: AttemptOutcome,
  retry: boolean,
  log: Log,
): Promise<keyof typeof attemptOutcomes> {
  const delaySeconds = retry
    ? nextDelaySeconds(message.attempt, {
        ...(outcome.status !== undefined ? { status: outcome.status } : {}),
        ...(outcome.retryAfterSeconds !== undefined ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
        timeScale: config().webhooks.timeScale,
      })
    : undefined;
  const nextAt =
    delaySeconds === undefined
      ? undefined
      : new Date(Date.parse(outcome.at) + delaySeconds * 1000).toISOString();
  const existing = await webhookFailureStore.of(message.workspace_id).get(message.delivery_id);
  const row: DeliveryFailureRecord = {
    ...failureBase(message, existing, outcome.at),
    retry_state: nextAt ? 'PENDING' : retry ? 'EXHAUSTED' : 'FAILED',
    attempts: Math.max(message.attempt, existing?.attempts ?? 0),
    ...outcomeFields(outcome),
    ...(nextAt ? { next_attempt_at: nextAt } : {}),
  };
  await webhookFailureStore.of(message.workspace_id).save(row);
  if (nextAt) await enqueueDelayed({ ...message, attempt: message.attempt + 1, due_at: nextAt });
  log('webhook attempt failed', {
    deliveryId: message.delivery_id,
    endpointId: message.endpoint_id,
    attempt: message.attempt,
    status: outcome.status,
    error: outcome.error,
    retryState: row.retry_state,
  });
  return row.retry_state as keyof typeof attemptOutcomes;
}

async function recordSuccessAfterRetry(message: DeliveryMessage, outcome: AttemptOutcome): Promise<void> {
  const existing = await webhookFailureStore.of(message.workspace_id).get(message.delivery_id);
  if (!existing) return;
  const { next_attempt_at: _done, last_error: _error, ...rest } = existing;
  await webhookFailureStore.of(message.workspace_id).save({
    ...rest,
    retry_state: 'SUCCEEDED_AFTER_RETRY',
    attempts: Math.max(message.attempt, existing.attempts),
    last_attempt_at: outcome.at,
    ...(outcome.status !== undefined ? { last_status_code: outcome.status } : {}),
  });
}

/** A retry that will never be made: its row says so instead of promising a next attempt. */
async function cancelPending(message: DeliveryMessage, reason: string): Promise<void> {
  if (message.attempt === 1) return;
  const existing = await webhookFailureStore.of(message.workspace_id).get(message.delivery_id);
  if (existing?.retry_state !== 'PENDING') return;
  const { next_attempt_at: _never, ...rest } = existing;
  await webhookFailureStore
    .of(message.workspace_id)
    .save({ ...rest, retry_state: 'CANCELLED', last_error: reason });
}

function failureBase(
  message: DeliveryMessage,
  existing: DeliveryFailureRecord | undefined,
  at: string,
): Omit<DeliveryFailureRecord, 'retry_state' | 'attempts'> {
  const firstFailedAt = existing?.first_failed_at ?? at;
  return {
    id: message.delivery_id,
    endpoint_id: message.endpoint_id,
    event_id: message.event_id,
    event_type: message.event_type,
    first_failed_at: firstFailedAt,
    last_attempt_at: at,
    expires_at: rowExpiry(firstFailedAt),
    body: message.body,
  };
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
