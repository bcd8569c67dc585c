/**
 * Delivery-failure rows as published (GET /api/v2/webhooks/delivery-failures). Published schema
 * names: WebhookDeliveryFailure, WebhookDeliveryFailureList.
 */
import * as z from 'zod';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery } from '../../schema/query-params.ts';
import { retryStates } from './retry-states.ts';

export const DeliveryFailureSchema = z
  .object({
    id: z.uuid().meta({ description: 'The delivery id: the webhook-id header and the envelope id.' }),
    endpoint_id: z.uuid(),
    event_id: z.string(),
    event_type: z.string(),
    retry_state: z.enum(retryStates).meta({
      description:
        'PENDING: a retry is scheduled (next_attempt_at). SUCCEEDED_AFTER_RETRY: a later attempt (or a ' +
        'redelivery by hand) got a 2xx. EXHAUSTED: all 7 attempts failed. FAILED: failed once with retry=false, ' +
        'or a failed test event; never retried. CANCELLED: the endpoint was disabled or deleted before the next attempt.',
    }),
    attempts: z.int().min(1).meta({ description: 'Attempts made, the first one included.' }),
    last_status_code: z
      .int()
      .optional()
      .meta({ description: "The receiver's last HTTP status, if it answered." }),
    last_error: z.string().optional().meta({
      description:
        'Why the last attempt got no usable answer: timeout, connection, DNS, refused destination.',
    }),
    last_response: z.string().optional().meta({ description: "Up to 4 KiB of the receiver's last answer." }),
    first_failed_at: z.iso.datetime(),
    last_attempt_at: z.iso.datetime(),
    next_attempt_at: z.iso.datetime().optional(),
    expires_at: z.iso.datetime().meta({ description: 'The row is gone after this (about 30 days).' }),
  })
  .meta({ id: 'WebhookDeliveryFailure' });

export type DeliveryFailure = z.infer<typeof DeliveryFailureSchema>;

export const DeliveryFailureListQuery = z.object({
  ...paginationQuery,
  endpoint_id: z.uuid().optional().meta({ description: 'Only failures of this endpoint.' }),
});

export const DeliveryFailureIdParams = z.object({ delivery_id: z.uuid() });

export const DeliveryFailureListSchema = pagedListSchema(DeliveryFailureSchema, 'WebhookDeliveryFailureList');
