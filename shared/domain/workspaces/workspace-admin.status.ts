/**
 * Workspace state as two independent facts, activation and the billing lock, shown as one
 * status (SPEC.md leaves the transitions open; these are ours):
 *
 *   status = INACTIVE if deactivated, else BILLING_LOCKED if billing-locked, else ACTIVE.
 *
 * So deactivating a billing-locked workspace and activating it again leaves it
 * BILLING_LOCKED; billing-unlock of an INACTIVE workspace keeps it INACTIVE (and forgets the
 * lock); an action that changes nothing changes nothing (no write, same lock_version).
 *
 * The stored `status` stays the truth that authentication reads; `billing_locked` only adds
 * what the status cannot show: a lock underneath a deactivation. Other writers may set the
 * status alone (the seed does), so the lock is read from `billing_locked` only while INACTIVE.
 */
import type { WorkspaceStatus } from '../../data/directory.store.ts';

export type WorkspaceAction = 'activate' | 'deactivate' | 'billing-lock' | 'billing-unlock';

export interface WorkspaceState {
  status: WorkspaceStatus;
  billing_locked: boolean;
}

export function stateOf(record: {
  status: WorkspaceStatus;
  billing_locked?: boolean | undefined;
}): WorkspaceState {
  const locked =
    record.status === 'BILLING_LOCKED' || (record.status === 'INACTIVE' && record.billing_locked === true);
  return { status: record.status, billing_locked: locked };
}

export function nextState(current: WorkspaceState, action: WorkspaceAction): WorkspaceState {
  let active = current.status !== 'INACTIVE';
  let locked = current.billing_locked;
  switch (action) {
    case 'activate':
      active = true;
      break;
    case 'deactivate':
      active = false;
      break;
    case 'billing-lock':
      locked = true;
      break;
    case 'billing-unlock':
      locked = false;
      break;
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
  return { status: !active ? 'INACTIVE' : locked ? 'BILLING_LOCKED' : 'ACTIVE', billing_locked: locked };
}
