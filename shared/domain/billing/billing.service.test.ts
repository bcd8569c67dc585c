/**
 * The billing service's dealings with the payment provider, with the store in memory and a
 * scripted provider: a provider failure never loses a profile change (200, sync owed and sent
 * first on the next call), sessions create and link the customer once, a lost customer is
 * replaced, and recheck turns the provider's standing into the admin plane's lock transition.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { problemOfAsync } from '../../../test/support/problem-of.ts';
import type { Actor } from '../../auth/actor.ts';
import type { PaymentProvider } from '../../billing/payment-provider.ts';
import { PaymentProviderError } from '../../billing/payment-provider.ts';
import type { BillingAccountRecord } from './billing.store.ts';
import type { StoredProfile } from './billing-profile.rules.ts';

const memory = vi.hoisted(() => ({
  profile: undefined as StoredProfile | undefined,
  account: undefined as BillingAccountRecord | undefined,
  provider: undefined as PaymentProvider | undefined,
  transitions: [] as string[],
}));

vi.mock('./billing.store.ts', () => ({
  billingStore: {
    of: () => ({
      profile: async () => memory.profile,
      createProfile: async (profile: StoredProfile) => {
        memory.profile = profile;
      },
      replaceProfile: async (profile: StoredProfile) => {
        memory.profile = profile;
      },
      account: async () => memory.account,
      createAccount: async (account: BillingAccountRecord) => {
        memory.account = account;
      },
      putAccount: async (account: BillingAccountRecord) => {
        memory.account = account;
      },
    }),
  },
}));

vi.mock('../../billing/payment-provider.ts', async (original) => ({
  ...(await original<typeof import('../../billing/payment-provider.ts')>()),
  paymentProvider: async () => memory.provider,
}));

vi.mock('../workspaces/workspace-admin.service.ts', () => ({
  changeWorkspaceState: async (_ctx: unknown, _ws: string, action: string) => {
    memory.transitions.push(action);
    const locked = action === 'billing-lock';
    return { status: locked ? 'BILLING_LOCKED' : 'ACTIVE', is_billing_locked: locked };
  },
  getWorkspace: async () => ({ status: 'ACTIVE', is_billing_locked: false }),
}));

const { createBillingSession, recheckBilling, updateBillingProfile } = await import('./billing.service.ts');

const ctx = {
  requestId: 'req-1',
  correlationId: 'corr-1',
  baseUrl: 'http://127.0.0.1:3000',
  workspaceId: 'ws-1',
  principal: { id: 'user-1', kind: 'user', workspaceId: 'ws-1', roles: ['admin'], grants: new Set() },
} as unknown as Actor;

function scriptedProvider(overrides: Partial<PaymentProvider> = {}) {
  const calls: string[] = [];
  const provider: PaymentProvider = {
    name: 'local',
    createCustomer: vi.fn(async () => {
      calls.push('createCustomer');
      return `cus_${calls.filter((call) => call === 'createCustomer').length}`;
    }),
    updateCustomer: vi.fn(async (id: string) => {
      calls.push(`updateCustomer ${id}`);
    }),
    createSession: vi.fn(async (id: string) => {
      calls.push(`createSession ${id}`);
      return { url: `http://portal/${id}`, expiresAt: '2026-01-01T00:05:00.000Z' };
    }),
    checkStanding: vi.fn(async (id: string) => {
      calls.push(`checkStanding ${id}`);
      return { standing: 'GOOD_STANDING' as const, hasPaymentMethod: true };
    }),
    ...overrides,
  };
  return { provider, calls };
}

const linked: BillingAccountRecord = {
  provider: 'local',
  customer_id: 'cus_9',
  created_at: '2026-01-01T00:00:00Z',
};

beforeEach(() => {
  memory.profile = undefined;
  memory.account = undefined;
  memory.provider = undefined;
  memory.transitions = [];
});

describe('Billing service: profile sync', () => {
  it('keeps the change and owes the sync when the provider fails', async () => {
    // Prepare
    const { provider } = scriptedProvider({
      updateCustomer: async () => {
        throw new PaymentProviderError('unavailable', 'down');
      },
    });
    memory.provider = provider;
    memory.account = { ...linked };

    // Act
    const profile = await updateBillingProfile(ctx, { billing_city: 'Berlin' });

    // Assess
    expect(profile).toMatchObject({ billing_city: 'Berlin', lock_version: 1 });
    expect(memory.profile?.billing_city).toBe('Berlin');
    expect(memory.account).toMatchObject({ customer_id: 'cus_9', sync_pending: true });
  });

  it('sends an owed sync before the next session, and forgets the debt', async () => {
    // Prepare
    const { provider, calls } = scriptedProvider();
    memory.provider = provider;
    memory.account = { ...linked, sync_pending: true };

    // Act
    await createBillingSession(ctx, 'portal', {});

    // Assess
    expect(calls).toEqual(['updateCustomer cus_9', 'createSession cus_9']);
    expect(memory.account).not.toHaveProperty('sync_pending');
  });

  it('writes a PATCH that changes no value (lock_version moves) but sends it to the provider only when a sync is owed', async () => {
    // Prepare
    const { provider, calls } = scriptedProvider();
    memory.provider = provider;
    memory.account = { ...linked };
    await updateBillingProfile(ctx, { billing_city: 'Berlin' });
    calls.length = 0;

    // Act
    const same = await updateBillingProfile(ctx, { billing_city: 'Berlin' });
    memory.account = { ...linked, sync_pending: true };
    const owed = await updateBillingProfile(ctx, { billing_city: 'Berlin' });

    // Assess
    expect([same.lock_version, owed.lock_version]).toEqual([2, 3]);
    expect(calls).toEqual(['updateCustomer cus_9']);
    expect(memory.account).not.toHaveProperty('sync_pending');
  });

  it('does not sync without a customer, or with another provider’s customer', async () => {
    const { provider, calls } = scriptedProvider();
    memory.provider = provider;
    memory.account = { ...linked, provider: 'stripe' };

    await updateBillingProfile(ctx, { billing_city: 'Berlin' });

    expect(calls).toEqual([]);
  });
});

describe('Billing service: sessions', () => {
  it('creates and links the customer on the first session, then reuses it', async () => {
    const { provider, calls } = scriptedProvider();
    memory.provider = provider;

    const first = await createBillingSession(ctx, 'portal', {});
    const second = await createBillingSession(ctx, 'payment_method', {});

    expect(first.url).toBe('http://portal/cus_1');
    expect(second.url).toBe('http://portal/cus_1');
    expect(calls.filter((call) => call === 'createCustomer')).toHaveLength(1);
    expect(memory.account).toMatchObject({ provider: 'local', customer_id: 'cus_1' });
  });

  it('replaces a customer the provider lost, once', async () => {
    const { provider, calls } = scriptedProvider({
      createSession: async (id: string) => {
        if (id === 'cus_9') throw new PaymentProviderError('customer-missing', 'gone');
        return { url: `http://portal/${id}`, expiresAt: '2026-01-01T00:05:00.000Z' };
      },
    });
    memory.provider = provider;
    memory.account = { ...linked };

    const session = await createBillingSession(ctx, 'portal', {});

    expect(session.url).toBe('http://portal/cus_1');
    expect(calls).toContain('createCustomer');
    expect(memory.account?.customer_id).toBe('cus_1');
  });

  it('answers 503 when the provider does not answer, and when there is none', async () => {
    memory.provider = scriptedProvider({
      createCustomer: async () => {
        throw new PaymentProviderError('unavailable', 'timeout');
      },
    }).provider;
    expect(await problemOfAsync(() => createBillingSession(ctx, 'portal', {}))).toMatchObject({
      type: 'service-unavailable',
      init: { headers: { 'retry-after': '5' } },
    });

    memory.provider = undefined;
    expect(await problemOfAsync(() => createBillingSession(ctx, 'portal', {}))).toMatchObject({
      type: 'service-unavailable',
      message: expect.stringContaining('No payment provider'),
      init: { headers: { 'retry-after': '3600' } },
    });
  });
});

describe('Billing service: provider refusals', () => {
  it('answers 500 when the provider refuses the request, and names no provider detail', async () => {
    memory.provider = scriptedProvider({
      createCustomer: async () => {
        throw new PaymentProviderError('rejected', 'card_declined: secret details');
      },
    }).provider;

    const problem = await problemOfAsync(() => createBillingSession(ctx, 'portal', {}));

    expect(problem).toMatchObject({
      type: 'internal-error',
      message: 'The payment provider refused the request; the operator finds why in the logs.',
    });
  });
});

describe('Billing service: recheck', () => {
  it.each([
    { standing: 'GOOD_STANDING' as const, action: 'billing-unlock', locked: false },
    { standing: 'PAST_DUE' as const, action: 'billing-lock', locked: true },
  ])('turns $standing into $action', async ({ standing, action, locked }) => {
    memory.provider = scriptedProvider({
      checkStanding: async () => ({ standing, hasPaymentMethod: false }),
    }).provider;
    memory.account = { ...linked };

    const status = await recheckBilling(ctx);

    expect(memory.transitions).toEqual([action]);
    expect(status).toMatchObject({ status: standing, is_billing_locked: locked, has_payment_method: false });
  });

  it.each([
    { title: 'without a customer', account: undefined },
    { title: 'with a customer the provider lost', account: linked },
  ])('answers NO_ACCOUNT and changes no lock $title', async ({ account }) => {
    memory.provider = scriptedProvider({
      checkStanding: async () => {
        throw new PaymentProviderError('customer-missing', 'gone');
      },
    }).provider;
    memory.account = account ? { ...account } : undefined;

    const status = await recheckBilling(ctx);

    expect(memory.transitions).toEqual([]);
    expect(status).toMatchObject({ status: 'NO_ACCOUNT', is_billing_locked: false });
    expect(status).not.toHaveProperty('has_payment_method');
  });
});
