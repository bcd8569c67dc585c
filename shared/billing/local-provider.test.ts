/**
 * The local provider's portal actions (what each button does to the customer). The table-backed
 * parts run in test/integration/billing.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { applyAction, type LocalCustomer } from './local-provider.ts';

const customer: LocalCustomer = {
  id: 'cus_local_1',
  workspace_id: 'ws-1',
  details: { workspaceId: 'ws-1', address: {} },
  standing: 'GOOD_STANDING',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  lock_version: 0,
};
const card = { brand: 'visa', last4: '4242', added_at: '2026-01-01T00:00:00.000Z' };
const invoice = { number: 'LOCAL-1', amount: '49.00 EUR', due_at: '2026-01-01T00:00:00.000Z' };

describe('Local provider: portal actions', () => {
  it('adds a test card as the payment method', () => {
    const { customer: after, ok } = applyAction(customer, 'add_payment_method');

    expect(ok).toBe(true);
    expect(after.payment_method).toMatchObject({ brand: 'visa', last4: '4242' });
  });

  it('removes the payment method', () => {
    const { customer: after } = applyAction({ ...customer, payment_method: card }, 'remove_payment_method');

    expect(after).not.toHaveProperty('payment_method');
  });

  it('leaves an overdue invoice when a payment fails: PAST_DUE', () => {
    const { customer: after } = applyAction(customer, 'fail_payment');

    expect(after.standing).toBe('PAST_DUE');
    expect(after.open_invoice).toMatchObject({ amount: '49.00 EUR' });
  });

  it('pays the open invoice with a payment method: GOOD_STANDING', () => {
    const {
      customer: after,
      ok,
      notice,
    } = applyAction(
      { ...customer, payment_method: card, open_invoice: invoice, standing: 'PAST_DUE' },
      'pay_invoices',
    );

    expect(ok).toBe(true);
    expect(notice).toContain('LOCAL-1');
    expect(after.standing).toBe('GOOD_STANDING');
    expect(after).not.toHaveProperty('open_invoice');
  });

  it('refuses to pay without a payment method and changes nothing', () => {
    const owing = { ...customer, open_invoice: invoice, standing: 'PAST_DUE' as const };

    const { customer: after, ok } = applyAction(owing, 'pay_invoices');

    expect(ok).toBe(false);
    expect(after).toEqual(owing);
  });
});
