/**
 * The payment-provider port: what the billing module needs of whoever collects the money. Two
 * adapters, chosen once per container by FSM_BILLING_PROVIDER:
 *
 * - `local` (the default, so `npm start` and the tests): local-provider.ts, a stand-in that
 *   keeps the provider's state in the table and serves its portal pages on the service's own
 *   origin (GET/POST /billing-portal/{session_id});
 * - `stripe`: stripe-provider.ts, Stripe customers and customer-portal sessions, its secret key
 *   read from Secrets Manager (FSM_STRIPE_SECRET_ARN);
 * - `none`: no provider (what a deployment without a Stripe secret gets, lib/api.ts): the
 *   profile still works, the provider operations answer 503.
 *
 * The contract every adapter keeps:
 * - `createCustomer` makes the provider's customer record of a workspace from its billing
 *   details and answers its id; the caller stores the link (billing-account.store.ts) and may
 *   call it again for the same workspace after a crash, so an adapter makes it idempotent when
 *   the provider lets it (Stripe: an idempotency key per workspace).
 * - `updateCustomer` replaces the customer's billing details with these: a field absent here is
 *   cleared at the provider too.
 * - `createSession` answers a short-lived URL of the provider's portal (`portal`: everything,
 *   `payment_method`: straight to adding a payment method) and when it stops working.
 * - `checkStanding` asks whether the customer's account is in good standing or past due.
 * - Every failure reaches the caller as a PaymentProviderError with one of its closed codes;
 *   nothing above the port sees an SDK error.
 */
import { config } from '../config.ts';

/** A workspace's billing details as the provider keeps them (from the billing profile). */
export interface CustomerDetails {
  workspaceId: string;
  fullName?: string;
  businessName?: string;
  vatNumber?: string;
  email?: string;
  address: {
    line1?: string;
    line2?: string;
    city?: string;
    postalCode?: string;
    stateProvince?: string;
    countryCode?: string;
  };
}

export type SessionKind = 'portal' | 'payment_method';

/** GOOD_STANDING: nothing is overdue. PAST_DUE: a payment failed or an invoice is overdue. */
export type AccountStanding = 'GOOD_STANDING' | 'PAST_DUE';

export interface PortalSession {
  url: string;
  /** ISO 8601: when the URL stops opening the portal. */
  expiresAt: string;
}

export interface Standing {
  standing: AccountStanding;
  hasPaymentMethod: boolean;
}

export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
  createCustomer(details: CustomerDetails): Promise<string>;
  updateCustomer(customerId: string, details: CustomerDetails): Promise<void>;
  createSession(customerId: string, kind: SessionKind, returnUrl: string | undefined): Promise<PortalSession>;
  checkStanding(customerId: string): Promise<Standing>;
}

/**
 * The one error of the port. `unavailable`: the provider did not answer, or answered that it
 * is busy (retry later). `customer-missing`: the provider no longer knows the customer
 * (deleted there). `rejected`: the provider refused the request (its configuration, a value
 * it does not take).
 */
export class PaymentProviderError extends Error {
  readonly code: 'unavailable' | 'customer-missing' | 'rejected';

  constructor(code: PaymentProviderError['code'], message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderError';
    this.code = code;
  }
}

export type ProviderChoice = 'local' | 'stripe' | 'none';

/** FSM_BILLING_PROVIDER: `local` when unset; anything unknown is a configuration error. */
export function providerChoice(env: NodeJS.ProcessEnv = process.env): ProviderChoice {
  const value = (env.FSM_BILLING_PROVIDER ?? 'local').trim().toLowerCase() || 'local';
  if (value === 'local' || value === 'stripe' || value === 'none') return value;
  throw new Error(`FSM_BILLING_PROVIDER must be local, stripe or none, not ${value}`);
}

let chosen: Promise<PaymentProvider | undefined> | undefined;

/**
 * The provider of this container, built once (the Stripe adapter reads its secret then). The
 * adapters are imported on demand, so a container never loads the one it does not use. A
 * failed build (Secrets Manager unreachable) is not kept: the next request tries again.
 */
export function paymentProvider(): Promise<PaymentProvider | undefined> {
  if (!chosen) {
    chosen = buildProvider(providerChoice());
    chosen.catch(() => {
      chosen = undefined;
    });
  }
  return chosen;
}

/** Tests (and the local stack after changing the environment) start over. */
export function resetPaymentProvider(): void {
  chosen = undefined;
}

async function buildProvider(choice: ProviderChoice): Promise<PaymentProvider | undefined> {
  switch (choice) {
    case 'none':
      return undefined;
    case 'local': {
      const { localProvider } = await import('./local-provider.ts');
      return localProvider();
    }
    case 'stripe': {
      const { stripeProviderFromSecret } = await import('./stripe-provider.ts');
      const secretArn = process.env.FSM_STRIPE_SECRET_ARN;
      if (!secretArn) throw new Error('FSM_BILLING_PROVIDER=stripe needs FSM_STRIPE_SECRET_ARN');
      return stripeProviderFromSecret(secretArn, config().region);
    }
    default: {
      const exhaustive: never = choice;
      return exhaustive;
    }
  }
}
