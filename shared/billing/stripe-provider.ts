/**
 * The Stripe adapter of the payment-provider port (payment-provider.ts), for deployments with
 * FSM_BILLING_PROVIDER=stripe. Its secret API key is read once per container from Secrets
 * Manager (FSM_STRIPE_SECRET_ARN; the secret holds the key itself, `sk_…`, or JSON
 * `{"secret_key": "sk_…"}`).
 *
 * - Customers: the workspace's billing details become `name` (business name, else full name),
 *   `business_name`, `individual_name`, `email`, `address` and metadata `fsm_workspace_id` and
 *   `vat_number`. A field without a value is sent empty on update, which clears it at Stripe.
 *   The VAT number stays metadata: a Stripe tax ID needs its type (eu_vat, gb_vat, …), which is
 *   for whoever runs the Stripe account to decide.
 * - Creating a customer carries an idempotency key made of the workspace and the details, so a
 *   retried call within Stripe's 24 hours finds the customer the first call made.
 * - Sessions are customer-portal sessions; `payment_method` opens the portal's
 *   payment_method_update flow. Stripe does not publish when a portal URL expires (it is
 *   "short-lived"): expires_at says five minutes after creation.
 * - Standing: `delinquent` on the customer (an invoice past due or uncollectible) is PAST_DUE;
 *   a payment method is `invoice_settings.default_payment_method` or `default_source`.
 * - Errors: connection problems, Stripe's 5xx and rate limits are `unavailable`; a customer
 *   Stripe no longer has (deleted, or `resource_missing`) is `customer-missing`; anything else
 *   Stripe refuses is `rejected`. Network retries: one, with a 4 s timeout per attempt, inside
 *   the function's 10 s.
 */
import { createHash } from 'node:crypto';
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { secretsManagerClient } from '../aws/clients.ts';
import { config } from '../config.ts';
import {
  type CustomerDetails,
  type PaymentProvider,
  PaymentProviderError,
  type PortalSession,
} from './payment-provider.ts';

/** A transport for the Stripe client (its own, or a fake in tests). */
export type StripeHttpClient = NonNullable<
  NonNullable<ConstructorParameters<typeof Stripe>[1]>['httpClient']
>;

/** What expires_at of a Stripe portal session says: Stripe publishes no expiry of its own. */
export const stripeSessionLifetimeMs = 5 * 60_000;

export interface StripeProviderOptions {
  /** Where Stripe's portal sends the customer back when the caller names no return URL. */
  defaultReturnUrl: string;
}

function translate(error: unknown, what: string): never {
  if (error instanceof Stripe.errors.StripeError) {
    const status = error.statusCode ?? 0;
    const transient =
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError ||
      status >= 500;
    if (transient)
      throw new PaymentProviderError('unavailable', `Stripe ${what}: ${error.message}`, { cause: error });
    if (error.code === 'resource_missing')
      throw new PaymentProviderError('customer-missing', `Stripe ${what}: ${error.message}`, {
        cause: error,
      });
    throw new PaymentProviderError('rejected', `Stripe ${what}: ${error.message}`, { cause: error });
  }
  throw error;
}

/** The details as Stripe's customer fields; `clear` sends empty strings for what is absent. */
export function customerFields(details: CustomerDetails, clear: boolean): Stripe.CustomerUpdateParams {
  const value = (text: string | undefined) => text ?? (clear ? '' : undefined);
  const { address } = details;
  const addressParam: Stripe.AddressParam = {
    line1: value(address.line1),
    line2: value(address.line2),
    city: value(address.city),
    postal_code: value(address.postalCode),
    state: value(address.stateProvince),
    country: value(address.countryCode),
  };
  const fields: Stripe.CustomerUpdateParams = {
    name: value(details.businessName ?? details.fullName),
    business_name: value(details.businessName),
    individual_name: value(details.fullName),
    email: value(details.email),
    address: addressParam,
    metadata: {
      fsm_workspace_id: details.workspaceId,
      ...(value(details.vatNumber) === undefined ? {} : { vat_number: value(details.vatNumber) }),
    },
  };
  return JSON.parse(JSON.stringify(fields)) as Stripe.CustomerUpdateParams;
}

export function stripeProvider(stripe: Stripe, options: StripeProviderOptions): PaymentProvider {
  return {
    name: 'stripe',

    async createCustomer(details) {
      const params = customerFields(details, false) as Stripe.CustomerCreateParams;
      const fingerprint = createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 16);
      try {
        const customer = await stripe.customers.create(params, {
          idempotencyKey: `fsm-customer-${details.workspaceId}-${fingerprint}`,
        });
        return customer.id;
      } catch (error) {
        return translate(error, 'customers.create');
      }
    },

    async updateCustomer(customerId, details) {
      try {
        await stripe.customers.update(customerId, customerFields(details, true));
      } catch (error) {
        translate(error, 'customers.update');
      }
    },

    async createSession(customerId, kind, returnUrl): Promise<PortalSession> {
      try {
        const session = await stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl ?? options.defaultReturnUrl,
          ...(kind === 'payment_method' ? { flow_data: { type: 'payment_method_update' as const } } : {}),
        });
        return {
          url: session.url,
          expiresAt: new Date(session.created * 1000 + stripeSessionLifetimeMs).toISOString(),
        };
      } catch (error) {
        return translate(error, 'billingPortal.sessions.create');
      }
    },

    async checkStanding(customerId) {
      let customer: Stripe.Customer | Stripe.DeletedCustomer;
      try {
        customer = await stripe.customers.retrieve(customerId);
      } catch (error) {
        return translate(error, 'customers.retrieve');
      }
      if (customer.deleted) {
        throw new PaymentProviderError('customer-missing', `Stripe customer ${customerId} was deleted`);
      }
      return {
        standing: customer.delinquent ? 'PAST_DUE' : 'GOOD_STANDING',
        hasPaymentMethod: Boolean(
          customer.invoice_settings?.default_payment_method || customer.default_source,
        ),
      };
    },
  };
}

/** The API key in a secret: the key itself, or JSON with `secret_key` (or `api_key`). */
export function secretKeyOf(secret: string | undefined): string {
  const text = secret?.trim() ?? '';
  if (text.startsWith('{')) {
    const parsed = JSON.parse(text) as { secret_key?: unknown; api_key?: unknown };
    const key = parsed.secret_key ?? parsed.api_key;
    if (typeof key === 'string' && key.trim()) return key.trim();
  } else if (text) {
    return text;
  }
  throw new Error('the Stripe secret holds no API key (sk_… or {"secret_key": "sk_…"})');
}

/** The adapter with its key from Secrets Manager. */
export async function stripeProviderFromSecret(
  secretArn: string,
  region: string,
  options: {
    secrets?: Pick<SecretsManagerClient, 'send'>;
    httpClient?: StripeHttpClient;
    defaultReturnUrl?: string;
  } = {},
): Promise<PaymentProvider> {
  // Read once per container, at its first billing call: retried by the next call, not in total.
  const secrets = options.secrets ?? secretsManagerClient({ region, deadlines: 'attempt' });
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }));
  const stripe = new Stripe(secretKeyOf(SecretString), {
    maxNetworkRetries: 1,
    timeout: 4_000,
    ...(options.httpClient ? { httpClient: options.httpClient } : {}),
  });
  return stripeProvider(stripe, { defaultReturnUrl: options.defaultReturnUrl ?? config().baseUrl });
}
