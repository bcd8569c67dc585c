/**
 * Billing: the workspace's billing profile, its customer at the payment provider, the provider's
 * portal sessions, and the billing lock the provider's word sets or lifts.
 *
 * Profile (SPEC.md "Billing profile"; rules in billing-profile.rules.ts):
 * - GET before any PATCH answers the empty profile at lock_version 0 (200, not 404): the
 *   profile of a workspace always exists for its readers, it is just not filled in yet.
 * - The first PATCH creates it at lock_version 1 whatever lock_version it carries (ignored);
 *   two first PATCHes at once: the second finds the profile and is an update (its lock_version,
 *   when sent, is then checked). Later PATCHes follow SPEC.md rule 8.
 * - Every successful PATCH is a write, as on every versioned resource (SPEC.md rule 8): one that
 *   changes no value still moves lock_version and updated_at and emits billing_profile.updated
 *   with empty previous_attributes, like an area's. It sends nothing to the provider, though,
 *   unless a sync is owed.
 * - Each write emits billing_profile.created / billing_profile.updated (audit only).
 * - After a write, the profile goes to the provider's customer when the workspace has one. A
 *   provider failure never loses or refuses the change: the PATCH still answers 200, the
 *   account is marked `sync_pending`, and the next PATCH, session or recheck sends the profile
 *   again before doing anything else.
 *
 * Provider operations (sessions, recheck) stay available while the workspace is deactivated or
 * billing-locked (their routes set allowInactiveTenant):
 * - A session needs a customer: the first one creates it from the profile (or from nothing but
 *   the workspace id), and links it in the billing account. A customer the provider has lost is
 *   replaced by a new one, once.
 * - Recheck asks the provider for the customer's standing: GOOD_STANDING lifts the billing lock,
 *   PAST_DUE sets it, through the admin plane's own transition (changeWorkspaceState), so the
 *   lock is the same flag either way and a deactivated workspace stays deactivated. Without a
 *   customer there is nothing to ask (NO_ACCOUNT): the lock is left as it is, since creating a
 *   customer just to hear "nothing overdue" would let a locked workspace unlock itself.
 */

import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import {
  type CustomerDetails,
  type PaymentProvider,
  PaymentProviderError,
  paymentProvider,
  type SessionKind,
} from '../../billing/payment-provider.ts';
import { DataError } from '../../data/data-error.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { logger } from '../../observability/logger.ts';
import { updateVersioned } from '../versioned-write.ts';
import { changeWorkspaceState, getWorkspace } from '../workspaces/workspace-admin.service.ts';
import { type BillingAccountRecord, billingStore } from './billing.store.ts';
import { BillingError } from './billing-error.ts';
import {
  applyProfilePatch,
  type StoredProfile,
  toBillingProfile,
  unchanged,
  valuesOf,
} from './billing-profile.rules.ts';
import type {
  BillingProfile,
  BillingStatus,
  CreateBillingSessionSchema,
  UpdateBillingProfileSchema,
} from './billing-profile.schema.ts';

const resource = (workspaceId: string) => ({ type: 'billing_profile', id: workspaceId });

/** The event object: the representation without what is derived from it. */
function eventObject(profile: BillingProfile): Record<string, unknown> {
  const { missing_for_invoicing: _derived, ...object } = profile;
  return object;
}

export async function getBillingProfile(ctx: Actor): Promise<BillingProfile> {
  return toBillingProfile(await billingStore.of(ctx).profile());
}

export async function updateBillingProfile(
  ctx: Actor,
  input: z.output<typeof UpdateBillingProfileSchema>,
): Promise<BillingProfile> {
  const { lock_version: expected, ...patch } = input;
  const workspaceId = ctx.workspaceId;
  const stored = await billingStore.of(workspaceId).profile();
  let result: StoredProfile | undefined;
  let changed = true;
  if (!stored) result = await createFirstProfile(ctx, patch);
  if (!result) {
    const current = stored ?? (await billingStore.of(workspaceId).profile());
    if (current && expected !== undefined && expected !== null && expected !== current.lock_version)
      throw new BillingError('version-conflict', { data: { current_lock_version: current.lock_version } });
    const { errors } = applyProfilePatch(current, patch);
    if (errors.length > 0) throw new BillingError('invalid', { fields: errors });
    const { before, after } = await updateVersioned<StoredProfile>({
      key: `billing-profile:${workspaceId}`,
      load: () => billingStore.of(workspaceId).profile(),
      expectedVersion: expected,
      apply: (latest) => {
        const next = applyProfilePatch(latest, patch);
        if (next.errors.length > 0) throw new BillingError('invalid', { fields: next.errors });
        return {
          ...next.values,
          id: latest.id,
          created_at: latest.created_at,
          updated_at: latest.updated_at,
          lock_version: latest.lock_version,
        };
      },
      save: (next, latest) =>
        billingStore
          .of(workspaceId)
          .replaceProfile(
            next,
            latest,
            domainEvent(
              ctx,
              'billing_profile.updated',
              resource(workspaceId),
              eventObject(toBillingProfile(next)),
              previousAttributes(eventObject(toBillingProfile(latest)), eventObject(toBillingProfile(next))),
            ),
          ),
    });
    result = after;
    changed = !unchanged(before, valuesOf(after));
  }
  await syncProfile(workspaceId, result, { unlessSynced: !changed });
  return toBillingProfile(result);
}

/** The first PATCH: the profile at lock_version 1; undefined when another first PATCH won. */
async function createFirstProfile(
  ctx: Actor,
  patch: Parameters<typeof applyProfilePatch>[1],
): Promise<StoredProfile | undefined> {
  const { values, errors } = applyProfilePatch(undefined, patch);
  if (errors.length > 0) throw new BillingError('invalid', { fields: errors });
  const now = new Date().toISOString();
  const profile: StoredProfile = {
    ...values,
    id: ctx.workspaceId,
    created_at: now,
    updated_at: now,
    lock_version: 1,
  };
  try {
    await billingStore
      .of(ctx)
      .createProfile(
        profile,
        domainEvent(
          ctx,
          'billing_profile.created',
          resource(ctx.workspaceId),
          eventObject(toBillingProfile(profile)),
        ),
      );
    return profile;
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists') return undefined;
    throw error;
  }
}

/** The profile as the provider keeps it. */
export function customerDetailsOf(workspaceId: string, profile: StoredProfile | undefined): CustomerDetails {
  const values = valuesOf(profile);
  return {
    workspaceId,
    ...(values.billing_full_name ? { fullName: values.billing_full_name } : {}),
    ...(values.billing_business_name ? { businessName: values.billing_business_name } : {}),
    ...(values.billing_vat_number ? { vatNumber: values.billing_vat_number } : {}),
    ...(values.billing_email ? { email: values.billing_email } : {}),
    address: {
      ...(values.billing_address_line1 ? { line1: values.billing_address_line1 } : {}),
      ...(values.billing_address_line2 ? { line2: values.billing_address_line2 } : {}),
      ...(values.billing_city ? { city: values.billing_city } : {}),
      ...(values.billing_postal_code ? { postalCode: values.billing_postal_code } : {}),
      ...(values.billing_state_province ? { stateProvince: values.billing_state_province } : {}),
      ...(values.billing_country_code ? { countryCode: values.billing_country_code } : {}),
    },
  };
}

/** The workspace's link to a customer of this provider (another provider's link does not count). */
function linkOf(account: BillingAccountRecord | undefined, provider: PaymentProvider | undefined) {
  return account && provider && account.provider === provider.name ? account : undefined;
}

/**
 * Sends the profile to the provider's customer, when there is one; never throws for the
 * provider. A failure is remembered (sync_pending) and logged; a success clears the mark.
 * `unlessSynced`: only when a sync is owed (a write that changed no value has nothing new to send).
 */
async function syncProfile(
  workspaceId: string,
  profile: StoredProfile | undefined,
  { unlessSynced = false } = {},
): Promise<void> {
  let provider: PaymentProvider | undefined;
  try {
    provider = await paymentProvider();
  } catch (error) {
    logger.error('payment provider unavailable', { workspaceId, error: String(error) });
    return;
  }
  const account = linkOf(await billingStore.of(workspaceId).account(), provider);
  if (!account || !provider || (unlessSynced && !account.sync_pending)) return;
  try {
    await provider.updateCustomer(account.customer_id, customerDetailsOf(workspaceId, profile));
    if (account.sync_pending) {
      const { sync_pending: _done, sync_failed_at: _at, ...rest } = account;
      await billingStore.of(workspaceId).putAccount(rest);
    }
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logger.warn('billing profile not synced to the payment provider; retried on the next billing call', {
      workspaceId,
      code: error.code,
      error: error.message,
    });
    await billingStore.of(workspaceId).putAccount({
      ...account,
      sync_pending: true,
      sync_failed_at: new Date().toISOString(),
    });
  }
}

/** A pending profile sync goes first, so the provider never works from stale details. */
async function settlePendingSync(workspaceId: string, account: BillingAccountRecord): Promise<void> {
  if (account.sync_pending) await syncProfile(workspaceId, await billingStore.of(workspaceId).profile());
}

async function providerOrThrow(): Promise<PaymentProvider> {
  let provider: PaymentProvider | undefined;
  try {
    provider = await paymentProvider();
  } catch (error) {
    logger.error('payment provider unavailable', { error: String(error) });
    throw providerProblem(new PaymentProviderError('unavailable', String(error)));
  }
  if (!provider) {
    throw new BillingError('unavailable', {
      detail: 'No payment provider is configured for this deployment; ask the operator.',
      retryAfterSeconds: 3600,
    });
  }
  return provider;
}

function providerProblem(error: PaymentProviderError): BillingError {
  const code: PaymentProviderError['code'] = error.code;
  switch (code) {
    case 'unavailable':
    case 'customer-missing':
      return new BillingError('unavailable', {
        detail: 'The payment provider did not answer; retry shortly.',
        retryAfterSeconds: 5,
        cause: error,
      });
    case 'rejected':
      return new BillingError('failed', {
        detail: 'The payment provider refused the request; the operator finds why in the logs.',
        cause: error,
      });
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}

async function withProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PaymentProviderError) {
      logger.error('payment provider failure', { code: error.code, error: error.message });
      throw providerProblem(error);
    }
    throw error;
  }
}

/** The workspace's customer at this provider, created (from the profile) and linked on first use. */
async function customerOf(
  workspaceId: string,
  provider: PaymentProvider,
  options: { lost?: string } = {},
): Promise<BillingAccountRecord> {
  const stored = await billingStore.of(workspaceId).account();
  const linked = linkOf(stored, provider);
  if (linked && linked.customer_id !== options.lost) return linked;
  const customerId = await provider.createCustomer(
    customerDetailsOf(workspaceId, await billingStore.of(workspaceId).profile()),
  );
  const account: BillingAccountRecord = {
    provider: provider.name,
    customer_id: customerId,
    created_at: new Date().toISOString(),
  };
  if (stored) {
    // Another provider's customer (the deployment switched providers), or one the provider lost.
    await billingStore.of(workspaceId).putAccount(account);
    return account;
  }
  try {
    await billingStore.of(workspaceId).createAccount(account);
    return account;
  } catch (error) {
    if (!(error instanceof DataError && error.code === 'already-exists')) throw error;
    // Another first session linked a customer in between: use that one.
    const winner = linkOf(await billingStore.of(workspaceId).account(), provider);
    if (!winner) throw error;
    return winner;
  }
}

export async function createBillingSession(
  ctx: Actor,
  kind: SessionKind,
  input: z.output<typeof CreateBillingSessionSchema> | undefined,
): Promise<{ url: string; expires_at: string }> {
  const provider = await providerOrThrow();
  return withProvider(async () => {
    let account = await customerOf(ctx.workspaceId, provider);
    await settlePendingSync(ctx.workspaceId, account);
    try {
      const session = await provider.createSession(account.customer_id, kind, input?.return_url);
      return { url: session.url, expires_at: session.expiresAt };
    } catch (error) {
      if (!(error instanceof PaymentProviderError && error.code === 'customer-missing')) throw error;
      logger.warn('payment provider lost the customer; linking a new one', {
        workspaceId: ctx.workspaceId,
        customerId: account.customer_id,
      });
      account = await customerOf(ctx.workspaceId, provider, { lost: account.customer_id });
      const session = await provider.createSession(account.customer_id, kind, input?.return_url);
      return { url: session.url, expires_at: session.expiresAt };
    }
  });
}

export async function recheckBilling(ctx: Actor): Promise<BillingStatus> {
  const provider = await providerOrThrow();
  const workspaceId = ctx.workspaceId;
  return withProvider(async () => {
    const account = linkOf(await billingStore.of(workspaceId).account(), provider);
    const checkedAt = new Date().toISOString();
    let standing: Awaited<ReturnType<PaymentProvider['checkStanding']>> | undefined;
    if (account?.customer_id) {
      await settlePendingSync(workspaceId, account);
      try {
        standing = await provider.checkStanding(account.customer_id);
      } catch (error) {
        if (!(error instanceof PaymentProviderError && error.code === 'customer-missing')) throw error;
      }
    }
    const workspace = standing
      ? await changeWorkspaceState(
          ctx,
          workspaceId,
          standing.standing === 'GOOD_STANDING' ? 'billing-unlock' : 'billing-lock',
        )
      : await getWorkspace(workspaceId);
    return {
      status: standing?.standing ?? 'NO_ACCOUNT',
      is_billing_locked: workspace.is_billing_locked,
      workspace_status: workspace.status,
      ...(standing ? { has_payment_method: standing.hasPaymentMethod } : {}),
      checked_at: checkedAt,
    };
  });
}
