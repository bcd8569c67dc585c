/**
 * Webhook endpoint: where a workspace wants its events POSTed, which events (subscriptions),
 * and the secret they are signed with. Published schema names: WebhookEndpoint,
 * CreatedWebhookEndpoint (with the secret), CreateWebhookEndpoint, UpdateWebhookEndpoint,
 * WebhookEndpointList, WebhookEventType, WebhookEventTypeList, CreateWebhookTest, WebhookTestResult.
 */
import * as z from 'zod';
import { storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery } from '../../schema/query-params.ts';
import { attemptFailureReasonNames, attemptFailureReasons } from '../../webhooks/failure-reason.ts';

export const maxSubscriptions = 100;
export const maxSubscriptionLength = 512;
export const maxEndpointUrlLength = 2048;
/** Endpoints per workspace: every event reads the workspace's endpoints (dispatch.ts). */
export const maxEndpointsPerWorkspace = 100;

const endpointUrl = () =>
  text({ max: maxEndpointUrlLength })
    .check((ctx) => {
      if (ctx.value.trim() && !/^https?:\/\/.+$/.test(ctx.value)) {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must match ^https?://.+$' });
      }
    })
    .meta({
      format: 'uri',
      pattern: '^https?://.+$',
      description:
        'Absolute https URL without credentials or fragment that resolves only to public addresses ' +
        '(checked on save and again before every attempt). Plain http and loopback only where the ' +
        'service runs with FSM_WEBHOOK_ALLOW_LOCAL=true.',
    });

const subscription = z
  .string()
  .max(maxSubscriptionLength)
  .meta({ description: 'An event name (area.created) or a pattern (area.*, *.created, *).' });

const subscriptions = () =>
  z
    .array(subscription)
    .max(maxSubscriptions)
    .meta({
      description:
        'Replaced whole when sent. A pattern that can never match an event of the workspace catalog is ' +
        '422 at its index (#/subscriptions/3). Several matching patterns still give one delivery per event.',
    });

export const signatureSchemes = ['HMAC_SHA256'] as const;

export const WebhookEndpointSchema = z
  .object({
    id: z.uuid(),
    display_name: z.string(),
    endpoint_url: z.string(),
    signature_scheme: z.enum(signatureSchemes),
    enabled: z.boolean(),
    retry: z.boolean(),
    subscriptions: z.array(z.string()),
    invalid_subscriptions: z.array(z.string()).meta({
      description: 'Stored subscriptions that no longer match any event of the workspace catalog.',
    }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    lock_version: storedVersion().meta({
      description: 'Starts at 0; advances with every change, secret rotation and test send.',
    }),
  })
  .meta({ id: 'WebhookEndpoint' });

export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const secretPattern = '^whsec_[A-Za-z0-9+/]{43}=$';

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().meta({
    pattern: secretPattern,
    description:
      '`whsec_` + base64 of 32 random bytes: the Standard Webhooks signing key. Returned only here and by ' +
      'rotate-secret; never on read or list.',
  }),
}).meta({ id: 'CreatedWebhookEndpoint' });

/** As stored: the secret and the last test's outcome stay with the endpoint, never in its representation. */
export interface StoredWebhookEndpoint extends WebhookEndpoint {
  /**
   * Per subscription, the id of the custom-object definition it names (null: none), so it keeps
   * matching across renames (shared/webhooks/definition-scopes.ts). Absent on endpoints saved
   * before custom objects existed: none of their subscriptions named a definition.
   */
  subscription_scopes?: Array<string | null>;
  secret: string;
  last_test_tried_at?: string;
  test_was_successful?: boolean;
}

export const CreateWebhookEndpointSchema = z
  .object({
    display_name: text({ max: 255 }),
    endpoint_url: endpointUrl(),
    signature_scheme: z.enum(signatureSchemes).optional().meta({ description: 'Default HMAC_SHA256.' }),
    enabled: z.boolean().optional().meta({ description: 'Default true.' }),
    retry: z.boolean().optional().meta({ description: 'Default true: 1 attempt + 6 retries.' }),
    subscriptions: subscriptions().optional().meta({ description: 'Default []: no events until set.' }),
  })
  .meta({ id: 'CreateWebhookEndpoint' });

export const UpdateWebhookEndpointSchema = z
  .object({
    display_name: text({ max: 255 }).optional().meta({ description: 'null or blank is 422.' }),
    endpoint_url: endpointUrl().optional().meta({ description: 'null or blank is 422.' }),
    signature_scheme: z.enum(signatureSchemes).optional(),
    enabled: z.boolean().optional(),
    retry: z.boolean().optional().meta({ description: 'null is 422.' }),
    subscriptions: subscriptions().optional().meta({ description: 'Replaces the whole set; null is 422.' }),
    lock_version: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Optimistic concurrency token; null is 422, omitted means last write wins.' }),
  })
  .meta({ id: 'UpdateWebhookEndpoint', description: 'JSON Merge Patch of a webhook endpoint.' });

export const WebhookEndpointListQuery = z.object({
  ...paginationQuery,
  definition_id: z
    .uuid()
    .optional()
    .meta({
      description:
        'Only endpoints holding a subscription explicitly scoped to this custom-object definition ' +
        '(custom_object.<slug>.… patterns); an empty page while the workspace has no such subscription.',
    }),
});

export const WebhookEndpointIdParams = z.object({ endpoint_id: z.uuid() });

export const WebhookEndpointListSchema = pagedListSchema(WebhookEndpointSchema, 'WebhookEndpointList');

export const WebhookEventTypeSchema = z
  .object({
    type: z.string(),
    resource_path: z.string(),
    verb: z.string(),
    definition_slug: z.string().optional().meta({ description: 'Custom-object events only.' }),
    description: z.string().optional(),
  })
  .meta({ id: 'WebhookEventType' });

export const WebhookEventTypeListSchema = z
  .object({ items: z.array(WebhookEventTypeSchema) })
  .meta({ id: 'WebhookEventTypeList' });

export const SendTestSchema = z
  .object({ endpoint_id: z.uuid() })
  .meta({ id: 'CreateWebhookTest', description: 'The endpoint to send a test event to.' });

export const WebhookTestResultSchema = z
  .object({
    last_test_tried_at: z.iso.datetime(),
    test_was_successful: z.boolean(),
    failure_reason: z
      .enum(attemptFailureReasonNames)
      .optional()
      .meta({
        description: `Only when the test failed: why. ${Object.entries(attemptFailureReasons)
          .map(([name, meaning]) => `${name}: ${meaning}`)
          .join(' ')}`,
      }),
    response_status: z
      .int()
      .min(100)
      .max(999)
      .optional()
      .meta({
        description:
          'Only when the test failed and the receiver answered: its HTTP status (a 3xx or other non-2xx; a 2xx ' +
          'whose body did not end in time).',
      }),
  })
  .meta({
    id: 'WebhookTestResult',
    description: 'The outcome of a test send; failure_reason and response_status are omitted on success.',
  });
