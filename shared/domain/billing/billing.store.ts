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
import type { StoreScope } from '../../data/resource-store.ts';
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

/** One workspace's billing records: every call is scoped to it by construction. */
export interface WorkspaceBillingStore {
  /** The profile, strongly consistent; undefined before its first PATCH. */
  profile(): Promise<StoredProfile | undefined>;
  /** The first profile; `already-exists` when another first PATCH won. */
  createProfile(profile: StoredProfile, event: DomainEvent): Promise<void>;
  /** Replace the profile if it still has the version of `current`. */
  replaceProfile(profile: StoredProfile, current: StoredProfile, event: DomainEvent): Promise<void>;
  /** The link to a provider's customer, strongly consistent. */
  account(): Promise<BillingAccountRecord | undefined>;
  /** The first link of the workspace to a customer; `already-exists` when another call linked one. */
  createAccount(account: BillingAccountRecord): Promise<void>;
  /** Rewrite the account (a new provider's customer, the sync flag). */
  putAccount(account: BillingAccountRecord): Promise<void>;
}

export const billingStore = {
  of(scope: StoreScope): WorkspaceBillingStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const profileKey = keys.billingProfile(workspaceId);
    const accountKey = keys.billingAccount(workspaceId);
    return {
      async profile() {
        return (await getRecord(profileKey, { consistent: true })) as StoredProfile | undefined;
      },
      async createProfile(profile, event) {
        await transactWrite([
          { kind: 'create', key: profileKey, entity: profileEntity, record: { ...profile } },
          outboxWrite(event),
        ]);
      },
      async replaceProfile(profile, current, event) {
        await transactWrite([
          {
            kind: 'replace',
            key: profileKey,
            entity: profileEntity,
            record: { ...profile },
            expectedVersion: current.lock_version,
          },
          outboxWrite(event),
        ]);
      },
      async account() {
        return (await getRecord(accountKey, { consistent: true })) as BillingAccountRecord | undefined;
      },
      async createAccount(account) {
        await transactWrite([
          { kind: 'create', key: accountKey, entity: accountEntity, record: { ...account } },
        ]);
      },
      async putAccount(account) {
        await putRecord(accountKey, accountEntity, { ...account });
      },
    };
  },
};
