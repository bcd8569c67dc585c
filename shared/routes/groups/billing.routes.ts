/**
 * Routes of the `billing` operation group (one Lambda): the billing profile, the payment
 * provider's portal and payment-method sessions, the billing recheck, and the local provider's
 * portal pages; part of the route table. Owners and admins hold billing:read and
 * billing:update; nobody else touches billing. The sessions and the recheck stay available
 * while the workspace is deactivated or billing-locked (SPEC.md, Workspace states): they are
 * how a locked workspace pays and gets unlocked.
 */
import * as z from 'zod';
import {
  BillingProfileSchema,
  BillingSessionSchema,
  BillingStatusSchema,
  CreateBillingSessionSchema,
  UpdateBillingProfileSchema,
} from '../../domain/billing/billing-profile.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const about =
  'The billing profile says who the workspace is billed to. It is a singleton with lock_version, ' +
  'created by its first PATCH.';

const profile = {
  billing_business_name: 'Acme Field Service GmbH',
  billing_vat_number: 'DE123456789',
  billing_country_code: 'DE',
  billing_email: 'invoices@acme.example',
  billing_address_line1: 'Friedrichstraße 12',
  billing_city: 'Berlin',
  billing_postal_code: '10117',
  missing_for_invoicing: [],
  created_at: '2026-03-02T08:15:00Z',
  updated_at: '2026-05-20T13:10:05Z',
  lock_version: 3,
} as const;

const providers =
  "The payment provider is the deployment's (FSM_BILLING_PROVIDER): Stripe on AWS (its customer portal), or " +
  'on `npm start` the local provider, whose pages the service serves itself at /billing-portal/{session_id} ' +
  '(add or remove a test card, pay open invoices, simulate a failed payment; nothing is charged). A deployment ' +
  'without a provider answers 503 service-unavailable here.';

const sessionRules =
  'The first session of a workspace creates its customer at the provider from the billing profile (an empty ' +
  'or missing profile is fine). The answer is 201 with the URL (also in Location) and when it expires: open ' +
  "it at once, in the user's browser; it opens once (a used or expired link shows an error page: ask for a " +
  'new one). The URL is a secret: whoever holds it acts in the portal. A profile change the provider has ' +
  'not received yet is sent first. The provider not answering is 503 (retry). Available while the ' +
  'workspace is deactivated or billing-locked, so a locked workspace can pay.';

const session = {
  url: 'https://billing.stripe.com/p/session/test_YWNjdF8xTjJ4',
  expires_at: '2026-06-11T07:47:10Z',
} as const;

const SessionParams = z.object({
  session_id: z.string().min(1).max(128).meta({ description: 'The secret token of the session URL.' }),
});

export const billingRoutes = [
  {
    operationId: 'billing.profile.get',
    method: 'GET',
    path: '/api/v2/billing/profile',
    group: 'billing',
    summary: 'Get the billing profile',
    description:
      `${about}\n\n` +
      'Before the first PATCH the profile is empty: 200 with only `missing_for_invoicing` and ' +
      '`lock_version` 0 (not 404), so a client can always read, then PATCH. Fields without a value are ' +
      'absent, never null. `missing_for_invoicing` lists what invoicing still needs.',
    examples: { response: profile },
    tags: ['Billing'],
    auth: 'bearer',
    grants: ['billing:read'],
    success: { status: 200, description: 'The billing profile.', schema: BillingProfileSchema },
  },
  {
    operationId: 'billing.profile.update',
    method: 'PATCH',
    path: '/api/v2/billing/profile',
    group: 'billing',
    summary: 'Create or update the billing profile (JSON Merge Patch)',
    description:
      `${about}\n\n` +
      'The first PATCH creates the profile at lock_version 1 (a billing_profile.created event) and ignores ' +
      'any lock_version it carries; later PATCHes check lock_version when sent (409 resource-conflict on a ' +
      'mismatch) and add 1 (billing_profile.updated, with the previous values). Both events go to the audit ' +
      'log only, never to webhooks: they carry personal data that only billing:read may see. A PATCH that ' +
      'changes nothing writes nothing.\n\n' +
      'Field rules (each reported at its pointer, all at once): null on billing_country_code, billing_email, ' +
      'billing_address_line1, billing_city or billing_postal_code (required for invoicing) is 422 ' +
      'field-required; null clears billing_vat_number, billing_address_line2 and billing_state_province; null ' +
      'clears billing_full_name only while billing_business_name is present after the patch (stored or sent), ' +
      'and vice versa, else 422 field-required; a blank string is 422 field-required. billing_vat_number and ' +
      'billing_country_code are read-only after signup: "signup" is the first PATCH, and either may be set ' +
      'while still unset (then or later); once set, another value is 422 field-invalid, the stored value ' +
      'passes. billing_country_code is an ISO 3166-1 alpha-2 code; billing_email an e-mail address. A cleared ' +
      'field is absent from the answer.\n\n' +
      "When the workspace has a customer at the payment provider, the profile is sent to it. The provider's " +
      'failure never fails the PATCH: the change is kept (200), and sent again before the next billing call ' +
      'that talks to the provider (PATCH, session, recheck).\n\n' +
      'Only the fields sent are validated and changed; send application/merge-patch+json (application/json is ' +
      'accepted as an alias).',
    examples: {
      request: { billing_email: 'invoices@acme.example', billing_city: 'Berlin', lock_version: 2 },
      response: profile,
    },
    tags: ['Billing'],
    auth: 'bearer',
    grants: ['billing:update'],
    body: UpdateBillingProfileSchema,
    mergePatch: true,
    success: {
      status: 200,
      description: 'The billing profile after the change.',
      schema: BillingProfileSchema,
    },
  },
  {
    operationId: 'billing.portal-sessions.create',
    method: 'POST',
    path: '/api/v2/billing/portal-sessions',
    group: 'billing',
    summary: "Open a session of the payment provider's billing portal",
    description:
      "A short-lived link into the payment provider's billing portal for this workspace: payment methods, " +
      `invoices, payments.\n\n${providers}\n\n${sessionRules}`,
    examples: { request: { return_url: 'https://app.acme.example/settings/billing' }, response: session },
    tags: ['Billing'],
    auth: 'bearer',
    grants: ['billing:update'],
    allowInactiveTenant: true,
    body: CreateBillingSessionSchema,
    success: {
      status: 201,
      description: 'The portal URL (Location names it too) and its expiry.',
      schema: BillingSessionSchema,
    },
  },
  {
    operationId: 'billing.payment-method-sessions.create',
    method: 'POST',
    path: '/api/v2/billing/payment-method-sessions',
    group: 'billing',
    summary: 'Open a session to add a payment method',
    description:
      "A short-lived link straight to adding a payment method at the payment provider (Stripe: the portal's " +
      `payment-method flow).\n\n${providers}\n\n${sessionRules}`,
    examples: { request: { return_url: 'https://app.acme.example/settings/billing' }, response: session },
    tags: ['Billing'],
    auth: 'bearer',
    grants: ['billing:update'],
    allowInactiveTenant: true,
    body: CreateBillingSessionSchema,
    success: {
      status: 201,
      description: 'The payment-method URL (Location names it too) and its expiry.',
      schema: BillingSessionSchema,
    },
  },
  {
    operationId: 'billing.recheck',
    method: 'POST',
    path: '/api/v2/billing/recheck',
    group: 'billing',
    summary: 'Ask the payment provider again and set or lift the billing lock',
    description:
      "Asks the payment provider for the standing of the workspace's customer and acts on it at once: " +
      'GOOD_STANDING lifts the billing lock, PAST_DUE sets it (402 tenant-billing-locked on every other ' +
      "operation), the same lock the platform operator sets and lifts. The provider's answer is the " +
      'authority: a lock the operator set is lifted when the provider reports nothing overdue. A deactivated ' +
      'workspace stays deactivated (workspace_status INACTIVE); its billing lock is still set or lifted ' +
      'underneath. Without a customer (no session was ever opened) the answer is NO_ACCOUNT and the lock is ' +
      'left as it is. A change of the lock emits tenant.updated (actor SYSTEM). Other containers may serve ' +
      'the previous state for up to the authentication cache lifetime (5 s).\n\n' +
      `${providers} Call it after the user comes back from the portal. Available while the workspace is ` +
      'deactivated or billing-locked. No body.',
    examples: {
      response: {
        status: 'GOOD_STANDING',
        is_billing_locked: false,
        workspace_status: 'ACTIVE',
        has_payment_method: true,
        checked_at: '2026-06-11T07:43:02Z',
      },
    },
    tags: ['Billing'],
    auth: 'bearer',
    grants: ['billing:update'],
    allowInactiveTenant: true,
    success: {
      status: 200,
      description: "The provider's answer and the workspace's billing state after it.",
      schema: BillingStatusSchema,
    },
  },
  {
    operationId: 'billing.portal-page.get',
    method: 'GET',
    path: '/billing-portal/{session_id}',
    group: 'billing',
    summary: "The local payment provider's portal page",
    description:
      'The page a session URL of the local provider opens (once): the customer, its standing, payment method ' +
      'and open invoice, and forms that change them. 404 when the deployment bills with another provider. A ' +
      'page, not an operation: not in the document.',
    examples: {},
    tags: ['Billing'],
    auth: 'none',
    published: false,
    params: SessionParams,
    success: { status: 200, description: 'The page (HTML).', contentType: 'text/html' },
  },
  {
    operationId: 'billing.portal-page.act',
    method: 'POST',
    path: '/billing-portal/{session_id}',
    group: 'billing',
    summary: "An action on the local payment provider's portal page",
    description:
      'The forms of the portal page post here (application/x-www-form-urlencoded: `visit`, the token of the ' +
      'page that opened the session, and `action`: add_payment_method, remove_payment_method, pay_invoices or ' +
      'fail_payment); the answer is the page again with what happened.',
    examples: {},
    tags: ['Billing'],
    auth: 'none',
    published: false,
    params: SessionParams,
    success: { status: 200, description: 'The page (HTML).', contentType: 'text/html' },
  },
] as const satisfies readonly RouteSpec[];
