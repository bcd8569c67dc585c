/**
 * A message of the delivery queue (delivery-queue.ts): one attempt of one event to one
 * endpoint. The worker parses what it receives with this schema; apart from the queue so that
 * the dispatcher, which only sends, does not load zod.
 */
import * as z from 'zod';

export const DeliveryMessageSchema = z.object({
  /** Message format version. */
  v: z.literal(1),
  delivery_id: z.string(),
  workspace_id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  /** The `request-id` header: the correlation id of the request that caused the event. */
  request_id: z.string(),
  /** 1 for the first attempt. */
  attempt: z.int().min(1),
  /** When the attempt is due (ISO); absent means at once. */
  due_at: z.string().optional(),
  /** The exact body to POST (the envelope with this delivery's id). */
  body: z.string(),
  /** The X-Ray trace header of the write that caused the event (sent as SQS's AWSTraceHeader). */
  trace: z.string().optional(),
});

export type DeliveryMessage = z.infer<typeof DeliveryMessageSchema>;
