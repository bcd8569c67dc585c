/**
 * The billing function's payment provider on AWS (functions/billing/payment-provider.ts). With
 * `stripeSecretArn` in the environment's settings it bills with Stripe: FSM_BILLING_PROVIDER
 * =stripe, FSM_STRIPE_SECRET_ARN, and secretsmanager:GetSecretValue on exactly that secret, for
 * this function alone. Without it the deployment has no provider (FSM_BILLING_PROVIDER=none):
 * the billing profile works, the portal sessions and the recheck answer 503. The local
 * provider, whose portal lets an owner mark invoices paid, is never deployed.
 *
 * The secret is created outside this app (its value is Stripe's key, which no template should
 * hold) and is named by its full ARN, suffix included. A secret encrypted with a customer
 * managed KMS key also needs kms:Decrypt, which this does not grant (docs/deploy.md).
 */
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { EnvironmentSettings } from './environments.ts';
import type { ServiceFunction } from './service-function.ts';

export const stripeSecretActions = ['secretsmanager:GetSecretValue'] as const;

export function configureBillingProvider(fn: ServiceFunction, settings: EnvironmentSettings): void {
  const secretArn = settings.stripeSecretArn;
  if (!secretArn) {
    fn.function.addEnvironment('FSM_BILLING_PROVIDER', 'none');
    return;
  }
  fn.function.addEnvironment('FSM_BILLING_PROVIDER', 'stripe');
  fn.function.addEnvironment('FSM_STRIPE_SECRET_ARN', secretArn);
  fn.role.addToPolicy(new PolicyStatement({ actions: [...stripeSecretActions], resources: [secretArn] }));
}
