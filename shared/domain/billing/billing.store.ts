/**
 * Storage of the billing module, every key from keys.ts:
 *
 * - the profile (`T#<ws>` / `BILLING_PROFILE`): created by its first PATCH (conditional create),
 *   then replaced on the version read; each write carries its event (outbox);
 * - the billing account (`T#<ws>` / `BILLING_ACCOUNT`): which provider customer the workspace is,
 *   and whether a profile change still has to reach the provider. Apart from the profile so
 *   bookkeeping never moves the profile's lock_version. Created conditionally (two first
 *   sessions at once link one customer), then rewritten as a whole.
 */
import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { getRecord, putRecord, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { StoredProfile } from './billing-profile.rules.ts';

const profileEntity = 'billing_profile';
const accountEntity = 'billing_account';

export interface BillingAccountRecord {
  provider: 'local' | 'stripe';
  customer_id: string;
  created_at: string;
  /** A profile change the provider has not received yet (it failed); sent again on the next call. */
  sync_pending?: boolean;
  sync_failed_at?: string;
}

export async function readProfile(workspaceId: string): Promise<StoredProfile | undefined> {
  return (await getRecord(keys.billingProfile(workspaceId), { consistent: true })) as
    | StoredProfile
    | undefined;
}

/** The first profile; `already-exists` when another first PATCH won. */
export async function createProfile(workspaceId: string, profile: StoredProfile, event: DomainEvent) {
  await transactWrite([
    { kind: 'create', key: keys.billingProfile(workspaceId), entity: profileEntity, record: { ...profile } },
    outboxWrite(event),
  ]);
}

/** Replace the profile if it still has the version of `current`. */
export async function replaceProfile(
  workspaceId: string,
  profile: StoredProfile,
  current: StoredProfile,
  event: DomainEvent,
) {
  await transactWrite([
    {
      kind: 'replace',
      key: keys.billingProfile(workspaceId),
      entity: profileEntity,
      record: { ...profile },
      expectedVersion: current.lock_version,
    },
    outboxWrite(event),
  ]);
}

export async function readAccount(workspaceId: string): Promise<BillingAccountRecord | undefined> {
  return (await getRecord(keys.billingAccount(workspaceId), { consistent: true })) as
    | BillingAccountRecord
    | undefined;
}

/** The first link of the workspace to a customer; `already-exists` when another call linked one. */
export async function createAccount(workspaceId: string, account: BillingAccountRecord): Promise<void> {
  await transactWrite([
    { kind: 'create', key: keys.billingAccount(workspaceId), entity: accountEntity, record: { ...account } },
  ]);
}

/** Rewrite the account (a new provider's customer, the sync flag). */
export async function putAccount(workspaceId: string, account: BillingAccountRecord): Promise<void> {
  await putRecord(keys.billingAccount(workspaceId), accountEntity, { ...account });
}
