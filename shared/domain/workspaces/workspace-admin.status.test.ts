/**
 * Workspace activation and billing lock are independent; the status shows INACTIVE over
 * BILLING_LOCKED over ACTIVE.
 */
import { describe, expect, it } from 'vitest';
import { nextState, stateOf, type WorkspaceAction, type WorkspaceState } from './workspace-admin.status.ts';

const active: WorkspaceState = { status: 'ACTIVE', billing_locked: false };
const locked: WorkspaceState = { status: 'BILLING_LOCKED', billing_locked: true };
const inactive: WorkspaceState = { status: 'INACTIVE', billing_locked: false };
const inactiveLocked: WorkspaceState = { status: 'INACTIVE', billing_locked: true };

describe('Function: nextState', () => {
  it.each<{ title: string; from: WorkspaceState; action: WorkspaceAction; to: WorkspaceState }>([
    {
      title: 'deactivate makes an active workspace INACTIVE',
      from: active,
      action: 'deactivate',
      to: inactive,
    },
    { title: 'activate makes an inactive workspace ACTIVE', from: inactive, action: 'activate', to: active },
    {
      title: 'billing-lock makes an active workspace BILLING_LOCKED',
      from: active,
      action: 'billing-lock',
      to: locked,
    },
    {
      title: 'billing-unlock makes a locked workspace ACTIVE',
      from: locked,
      action: 'billing-unlock',
      to: active,
    },
    {
      title: 'deactivate keeps the lock underneath',
      from: locked,
      action: 'deactivate',
      to: inactiveLocked,
    },
    {
      title: 'activate of a deactivated locked workspace is BILLING_LOCKED',
      from: inactiveLocked,
      action: 'activate',
      to: locked,
    },
    {
      title: 'billing-unlock of an INACTIVE workspace stays INACTIVE',
      from: inactiveLocked,
      action: 'billing-unlock',
      to: inactive,
    },
    {
      title: 'billing-lock of an INACTIVE workspace stays INACTIVE',
      from: inactive,
      action: 'billing-lock',
      to: inactiveLocked,
    },
    {
      title: 'billing-unlock of an unlocked workspace changes nothing',
      from: active,
      action: 'billing-unlock',
      to: active,
    },
    {
      title: 'activate of an active workspace changes nothing',
      from: active,
      action: 'activate',
      to: active,
    },
  ])('$title', ({ from, action, to }) => {
    // Act
    const next = nextState(from, action);

    // Assess
    expect(next).toEqual(to);
  });
});

describe('Function: stateOf', () => {
  it('reads a seeded BILLING_LOCKED status without the flag as locked', () => {
    expect(stateOf({ status: 'BILLING_LOCKED' })).toEqual(locked);
  });

  it('ignores a stale lock flag once another writer made the workspace ACTIVE', () => {
    expect(stateOf({ status: 'ACTIVE', billing_locked: true })).toEqual(active);
  });

  it('keeps the lock flag of an INACTIVE workspace', () => {
    expect(stateOf({ status: 'INACTIVE', billing_locked: true })).toEqual(inactiveLocked);
  });
});
