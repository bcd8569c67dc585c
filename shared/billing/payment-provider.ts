/**
 * The payment-provider port: what the billing module needs of whoever collects the money, and
 * the contract every adapter keeps. Adapters: local-provider.ts (a stand-in that keeps the
 * provider's state in the table and serves its portal pages on the service's own origin, for
 * `npm start` and the tests) and stripe-provider.ts (Stripe customers and customer-portal
 * sessions). Which one a container bills with is wired where billing runs
 * (functions/billing/payment-provider.ts, from FSM_BILLING_PROVIDER), through
 * `usePaymentProvider`; the billing service asks `paymentProvider()`.
 *
 * A new adapter implements `PaymentProvider` as documented below, method by method, and
 * reports every failure as a `PaymentProviderError` with one of its closed codes: nothing
 * above the port sees an SDK error.
 */

/** A workspace's billing details as the provider keeps them (from the billing profile). */
export interface CustomerDetails {
  /** The workspace the customer record belongs to; one customer per workspace. */
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
    /** ISO 3166-1 alpha-2. */
    countryCode?: string;
  };
}

/** `portal`: everything the provider's portal offers; `payment_method`: straight to adding one. */
export type SessionKind = 'portal' | 'payment_method';

/** GOOD_STANDING: nothing is overdue. PAST_DUE: a payment failed or an invoice is overdue. */
export type AccountStanding = 'GOOD_STANDING' | 'PAST_DUE';

export interface PortalSession {
  /** Where to send the customer's browser; opens the provider's portal for this customer. */
  url: string;
  /** ISO 8601: when the URL stops opening the portal. */
  expiresAt: string;
}

export interface Standing {
  standing: AccountStanding;
  hasPaymentMethod: boolean;
}

export interface PaymentProvider {
  /** Which adapter this is; stored with the customer link, so a change of provider is noticed. */
  readonly name: 'local' | 'stripe';

  /**
   * Makes the provider's customer record of a workspace from its billing details and answers
   * its id. The caller stores the link (the billing store) and may call this again for the
   * same workspace after a crash between the two, so an adapter makes it idempotent where the
   * provider lets it (Stripe: an idempotency key of the workspace and the details).
   *
   * @param details the workspace's billing details; absent fields are not sent.
   * @returns the provider's customer id, stored and passed to every other method.
   * @throws PaymentProviderError `unavailable` (retry later) or `rejected`.
   */
  createCustomer(details: CustomerDetails): Promise<string>;

  /**
   * Replaces the customer's billing details with these: a field absent here is cleared at the
   * provider too. Called after every change of the billing profile, and again for a change
   * that could not be sent before (the billing store keeps the sync owed).
   *
   * @throws PaymentProviderError `unavailable`, `customer-missing` (deleted at the provider) or
   *   `rejected`.
   */
  updateCustomer(customerId: string, details: CustomerDetails): Promise<void>;

  /**
   * A short-lived URL of the provider's portal for this customer.
   *
   * @param kind `portal` or `payment_method` (see SessionKind).
   * @param returnUrl where the portal sends the customer back; undefined: the adapter's default.
   * @returns the URL and when it stops working.
   * @throws PaymentProviderError `unavailable`, `customer-missing` or `rejected`.
   */
  createSession(customerId: string, kind: SessionKind, returnUrl: string | undefined): Promise<PortalSession>;

  /**
   * Whether the customer's account is in good standing or past due, and whether it has a
   * payment method: what unlocks a billing-locked workspace. Asks the provider every time (no
   * cache): a recheck comes right after the customer says they paid.
   *
   * @throws PaymentProviderError `unavailable`, `customer-missing` or `rejected`.
   */
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

/** What the wiring hands over: builds this container's provider, or undefined for none. */
export type PaymentProviderSource = () => Promise<PaymentProvider | undefined>;

let source: PaymentProviderSource | undefined;
let built: Promise<PaymentProvider | undefined> | undefined;

/**
 * Where this container's provider comes from, said once by the wiring of whatever runs billing
 * (functions/billing/payment-provider.ts). Saying it again replaces the provider.
 */
export function usePaymentProvider(next: PaymentProviderSource): void {
  source = next;
  built = undefined;
}

/**
 * The provider of this container, built once on first use (the Stripe adapter reads its
 * secret then); undefined where the deployment has none. A failed build (Secrets Manager
 * unreachable) is not kept: the next call tries again.
 */
export function paymentProvider(): Promise<PaymentProvider | undefined> {
  if (!source) {
    return Promise.reject(
      new Error('no payment provider is wired: functions/billing/payment-provider.ts says which one'),
    );
  }
  if (!built) {
    const attempt = source();
    built = attempt;
    attempt.catch(() => {
      if (built === attempt) built = undefined;
    });
  }
  return built;
}
