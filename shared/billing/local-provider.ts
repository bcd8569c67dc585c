/**
 * The local payment provider: what `npm start` (and the tests) bill with. It plays an outside
 * provider such as Stripe, keeping that provider's state in the table under keys of its own
 * (keys.ts `localBillingCustomer`, `localBillingSession`), and serves its portal pages on the
 * service's own origin (local-portal.ts). The state a portal page changes is what
 * `checkStanding` answers, so the whole billing-lock cycle runs without a network:
 *
 *   - a customer has at most one payment method (a test card) and at most one open invoice;
 *   - "fail a payment" leaves an overdue invoice: PAST_DUE;
 *   - "pay open invoices" (needs a payment method) settles it: GOOD_STANDING.
 *
 * One rule stands in for a real provider's history: a customer created for a workspace that is
 * billing-locked at that moment starts PAST_DUE with an open invoice, since the lock says a
 * payment is owed; any other new customer starts in good standing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { config } from '../config.ts';
import { DataError } from '../data/data-error.ts';
import { keys } from '../data/keys.ts';
import { getRecord, writeItem } from '../data/table.ts';
import { stateOf } from '../domain/workspaces/workspace-admin.status.ts';
import { getAdminWorkspace } from '../domain/workspaces/workspace-admin.store.ts';
import {
  type AccountStanding,
  type CustomerDetails,
  type PaymentProvider,
  PaymentProviderError,
  type PortalSession,
  type SessionKind,
} from './payment-provider.ts';

/** How long a session URL opens the portal, and how long a portal visit lasts once opened. */
export const sessionLifetimeMs = 5 * 60_000;
export const visitLifetimeMs = 30 * 60_000;

export interface LocalInvoice {
  number: string;
  amount: string;
  due_at: string;
}

export interface LocalCustomer {
  id: string;
  workspace_id: string;
  details: CustomerDetails;
  payment_method?: { brand: string; last4: string; added_at: string };
  open_invoice?: LocalInvoice;
  standing: AccountStanding;
  created_at: string;
  updated_at: string;
  lock_version: number;
}

export interface LocalSession {
  customer_id: string;
  kind: SessionKind;
  return_url?: string;
  created_at: string;
  /** ISO 8601; the item also expires then (TTL). */
  expires: string;
  /** SHA-256 of the visit token, once the URL was opened (it opens once). */
  visit_hash?: string;
  lock_version: number;
}

const customerEntity = 'local_billing_customer';
const sessionEntity = 'local_billing_session';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const epochSeconds = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

function unavailable(error: unknown): never {
  if (error instanceof DataError && error.code === 'unavailable') {
    throw new PaymentProviderError('unavailable', 'the local provider could not reach the table', {
      cause: error,
    });
  }
  throw error;
}

export async function readCustomer(customerId: string): Promise<LocalCustomer | undefined> {
  return (await getRecord(keys.localBillingCustomer(customerId), { consistent: true }).catch(unavailable)) as
    | LocalCustomer
    | undefined;
}

/** Apply `change` to the customer as stored, retrying when another write came in between. */
export async function changeCustomer(
  customerId: string,
  change: (customer: LocalCustomer) => LocalCustomer,
): Promise<LocalCustomer> {
  for (let attempt = 1; ; attempt++) {
    const current = await readCustomer(customerId);
    if (!current) throw new PaymentProviderError('customer-missing', `no local customer ${customerId}`);
    const next = {
      ...change(current),
      updated_at: new Date().toISOString(),
      lock_version: current.lock_version + 1,
    };
    try {
      await writeItem({
        kind: 'replace',
        key: keys.localBillingCustomer(customerId),
        entity: customerEntity,
        record: { ...next },
        expectedVersion: current.lock_version,
      });
      return next;
    } catch (error) {
      if (error instanceof DataError && error.code === 'version-conflict' && attempt < 8) continue;
      unavailable(error);
    }
  }
}

/** A new overdue invoice, numbered by its time so numbers sort. */
function overdueInvoice(now = new Date()): LocalInvoice {
  return {
    number: `LOCAL-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(2).toString('hex').toUpperCase()}`,
    amount: '49.00 EUR',
    due_at: now.toISOString(),
  };
}

export function localProvider(): PaymentProvider {
  return {
    name: 'local',

    async createCustomer(details) {
      const workspace = await getAdminWorkspace(details.workspaceId).catch(unavailable);
      const owes = workspace ? stateOf(workspace).billing_locked : false;
      const now = new Date().toISOString();
      const customer: LocalCustomer = {
        id: `cus_local_${uuidv7().replaceAll('-', '')}`,
        workspace_id: details.workspaceId,
        details,
        standing: owes ? 'PAST_DUE' : 'GOOD_STANDING',
        ...(owes ? { open_invoice: overdueInvoice() } : {}),
        created_at: now,
        updated_at: now,
        lock_version: 0,
      };
      await writeItem({
        kind: 'create',
        key: keys.localBillingCustomer(customer.id),
        entity: customerEntity,
        record: { ...customer },
      }).catch(unavailable);
      return customer.id;
    },

    async updateCustomer(customerId, details) {
      await changeCustomer(customerId, (customer) => ({ ...customer, details }));
    },

    async createSession(customerId, kind, returnUrl): Promise<PortalSession> {
      if (!(await readCustomer(customerId))) {
        throw new PaymentProviderError('customer-missing', `no local customer ${customerId}`);
      }
      // 256 random bits in the URL; the table keeps only their hash.
      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      const expires = new Date(now.getTime() + sessionLifetimeMs).toISOString();
      const session: LocalSession = {
        customer_id: customerId,
        kind,
        ...(returnUrl ? { return_url: returnUrl } : {}),
        created_at: now.toISOString(),
        expires,
        lock_version: 0,
      };
      await writeItem({
        kind: 'create',
        key: keys.localBillingSession(sha256(token)),
        entity: sessionEntity,
        record: { ...session },
        expiresAt: epochSeconds(expires),
      }).catch(unavailable);
      return { url: `${config().baseUrl}/billing-portal/${token}`, expiresAt: expires };
    },

    async checkStanding(customerId) {
      const customer = await readCustomer(customerId);
      if (!customer) throw new PaymentProviderError('customer-missing', `no local customer ${customerId}`);
      return { standing: customer.standing, hasPaymentMethod: customer.payment_method !== undefined };
    },
  };
}

/** The session of a URL token, unless unknown or expired. */
export async function readSession(token: string): Promise<LocalSession | undefined> {
  const session = (await getRecord(keys.localBillingSession(sha256(token)), { consistent: true })) as
    | LocalSession
    | undefined;
  if (!session || Date.parse(session.expires) <= Date.now()) return undefined;
  return session;
}

/**
 * Opens a session's URL, once: the session becomes a visit whose token only the page that
 * opened it holds (its forms send it back). False when someone opened it first.
 */
export async function openSession(
  token: string,
  session: LocalSession,
  visitToken: string,
): Promise<LocalSession | undefined> {
  const expires = new Date(Date.now() + visitLifetimeMs).toISOString();
  const visit: LocalSession = {
    ...session,
    visit_hash: sha256(visitToken),
    expires,
    lock_version: session.lock_version + 1,
  };
  try {
    await writeItem({
      kind: 'replace',
      key: keys.localBillingSession(sha256(token)),
      entity: sessionEntity,
      record: { ...visit },
      expectedVersion: session.lock_version,
    });
    return visit;
  } catch (error) {
    if (error instanceof DataError && (error.code === 'version-conflict' || error.code === 'not-found'))
      return undefined;
    throw error;
  }
}

export type PortalAction = 'add_payment_method' | 'remove_payment_method' | 'pay_invoices' | 'fail_payment';

export const portalActions: readonly PortalAction[] = [
  'add_payment_method',
  'remove_payment_method',
  'pay_invoices',
  'fail_payment',
];

/** What an action does to the customer, and what the page says about it. */
export function applyAction(
  customer: LocalCustomer,
  action: PortalAction,
  now = new Date(),
): { customer: LocalCustomer; notice: string; ok: boolean } {
  switch (action) {
    case 'add_payment_method':
      return {
        customer: {
          ...customer,
          payment_method: { brand: 'visa', last4: '4242', added_at: now.toISOString() },
        },
        notice: 'Test card Visa •••• 4242 added as the payment method.',
        ok: true,
      };
    case 'remove_payment_method': {
      const { payment_method: _removed, ...rest } = customer;
      return { customer: rest, notice: 'Payment method removed.', ok: true };
    }
    case 'pay_invoices': {
      if (!customer.payment_method) {
        return { customer, notice: 'Add a payment method before paying.', ok: false };
      }
      const { open_invoice: paid, ...rest } = customer;
      return {
        customer: { ...rest, standing: 'GOOD_STANDING' },
        notice: paid ? `Invoice ${paid.number} paid.` : 'Nothing was due; the account is in good standing.',
        ok: true,
      };
    }
    case 'fail_payment':
      return {
        customer: {
          ...customer,
          standing: 'PAST_DUE',
          open_invoice: customer.open_invoice ?? overdueInvoice(now),
        },
        notice: 'A payment failed: the account is past due.',
        ok: true,
      };
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}
