/**
 * Storage of users' credentials (keys.ts `credential`): the password hash, the pending
 * set-password link and the consecutive failed password checks, one item per user, apart from the
 * principal so that sign-in bookkeeping never moves the user's lock_version. Never returned,
 * never logged. Failure counts change by ADD only, so no other credential field is overwritten.
 */
import {
  type CredentialRecord,
  claimSetPasswordLink,
  credentialWrite,
  getCredential,
} from '../../data/directory.store.ts';
import { keys } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { incrementCounter, type TableWrite, transactWrite } from '../../data/table.ts';

export type { CredentialRecord };

/** One workspace's credentials: every call is scoped to it by construction. */
export interface WorkspaceCredentialStore {
  get(userId: string): Promise<CredentialRecord | undefined>;
  /** Write the whole credential, on its own. */
  put(credential: Omit<CredentialRecord, 'workspace_id'>): Promise<void>;
  /** The same write, for the transaction of a user change (a set-password link spent). */
  write(credential: Omit<CredentialRecord, 'workspace_id'>): TableWrite;
  /** Count a failed password check of a user; returns the consecutive failures so far. */
  countFailure(userId: string): Promise<number>;
  /**
   * The write that forgets a user's failures by subtracting what was read, atomically; undefined
   * when there is nothing to forget (no write).
   */
  failuresReset(userId: string, failedLogins: number | undefined): TableWrite | undefined;
  /** The same, committed on its own (nothing is written when there is nothing to forget). */
  resetFailures(userId: string, failedLogins: number | undefined): Promise<void>;
  /**
   * Spend a pending set-password link: true for exactly one of concurrent uses of one link (its
   * hash and expiry are removed while the stored hash is still `tokenHash`).
   */
  claimLink(userId: string, tokenHash: string): Promise<boolean>;
}

export const credentialStore = {
  of(scope: StoreScope): WorkspaceCredentialStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const write = (credential: Omit<CredentialRecord, 'workspace_id'>) =>
      credentialWrite({ ...credential, workspace_id: workspaceId });
    const failuresReset = (userId: string, failedLogins: number | undefined): TableWrite | undefined =>
      failedLogins
        ? {
            kind: 'add',
            key: keys.credential(workspaceId, userId),
            entity: 'credential',
            attribute: 'failed_logins',
            by: -failedLogins,
          }
        : undefined;
    return {
      get: (userId) => getCredential(workspaceId, userId),
      write,
      async put(credential) {
        await transactWrite([write(credential)]);
      },
      countFailure: (userId) =>
        incrementCounter(keys.credential(workspaceId, userId), 'credential', 'failed_logins', 1),
      failuresReset,
      async resetFailures(userId, failedLogins) {
        const reset = failuresReset(userId, failedLogins);
        if (reset) await transactWrite([reset]);
      },
      claimLink: (userId, tokenHash) => claimSetPasswordLink(workspaceId, userId, tokenHash),
    };
  },
};
