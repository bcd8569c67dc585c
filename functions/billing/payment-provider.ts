/**
 * Which payment provider the billing function bills with, chosen once per container by
 * FSM_BILLING_PROVIDER (lib/billing-provider.ts sets it on AWS; the local stack runs this
 * function too and leaves it unset):
 *
 * - `local` (the default, so `npm start` and the tests): shared/billing/local-provider.ts, whose
 *   portal pages the function serves on the service's own origin (GET/POST
 *   /billing-portal/{session_id});
 * - `stripe`: shared/billing/stripe-provider.ts, its secret key read from Secrets Manager
 *   (FSM_STRIPE_SECRET_ARN);
 * - `none`: no provider (what a deployment without a Stripe secret gets): the profile still
 *   works, the provider operations answer 503.
 *
 * The adapters are imported on demand, so a container never loads the one it does not use.
 */
import type { PaymentProvider } from '../../shared/billing/payment-provider.ts';
import { config } from '../../shared/config.ts';

export type ProviderChoice = 'local' | 'stripe' | 'none';

/** FSM_BILLING_PROVIDER: `local` when unset; anything unknown is a configuration error. */
export function providerChoice(env: NodeJS.ProcessEnv = process.env): ProviderChoice {
  const value = (env.FSM_BILLING_PROVIDER ?? 'local').trim().toLowerCase() || 'local';
  if (value === 'local' || value === 'stripe' || value === 'none') return value;
  throw new Error(`FSM_BILLING_PROVIDER must be local, stripe or none, not ${value}`);
}

/** The provider FSM_BILLING_PROVIDER names, built (undefined for `none`). */
export async function chosenPaymentProvider(): Promise<PaymentProvider | undefined> {
  const choice = providerChoice();
  switch (choice) {
    case 'none':
      return undefined;
    case 'local': {
      const { localProvider } = await import('../../shared/billing/local-provider.ts');
      return localProvider();
    }
    case 'stripe': {
      const { stripeProviderFromSecret } = await import('../../shared/billing/stripe-provider.ts');
      const secretArn = process.env.FSM_STRIPE_SECRET_ARN;
      if (!secretArn) throw new Error('FSM_BILLING_PROVIDER=stripe needs FSM_STRIPE_SECRET_ARN');
      return stripeProviderFromSecret(secretArn, config().region);
    }
    default: {
      const exhaustive: never = choice;
      return exhaustive;
    }
  }
}
