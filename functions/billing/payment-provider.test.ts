/** The billing function's choice of payment provider from FSM_BILLING_PROVIDER. */
import { describe, expect, it } from 'vitest';
import { providerChoice } from './payment-provider.ts';

describe('Payment provider: choice', () => {
  it.each([
    { value: undefined, choice: 'local' },
    { value: '', choice: 'local' },
    { value: 'Stripe', choice: 'stripe' },
    { value: 'none', choice: 'none' },
  ])('FSM_BILLING_PROVIDER=$value is $choice', ({ value, choice }) => {
    expect(providerChoice(value === undefined ? {} : { FSM_BILLING_PROVIDER: value })).toBe(choice);
  });

  it('refuses an unknown provider', () => {
    expect(() => providerChoice({ FSM_BILLING_PROVIDER: 'paypal' })).toThrow(/local, stripe or none/);
  });
});
