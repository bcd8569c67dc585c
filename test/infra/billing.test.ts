/**
 * The billing function's payment provider on AWS: Stripe when the environment names the
 * secret of its key, and then read access to exactly that secret; no provider otherwise, and
 * never the local provider.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { configureBillingProvider } from '../../lib/billing-provider.ts';
import { functionEntry } from '../../lib/bundling.ts';
import { environments } from '../../lib/environments.ts';
import { ServiceFunction } from '../../lib/service-function.ts';
import { createTestApp } from '../support/cdk-app.ts';

type Resource = { Type: string; Properties: Record<string, any> };

const secretArn = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:fsm/stripe-AbCdEf';

function billingFunction(settings: typeof environments.dev) {
  const stack = new Stack(createTestApp(), 'Billing', { env: { region: 'eu-central-1' } });
  const fn = new ServiceFunction(stack, 'Billing', {
    entry: functionEntry('billing'),
    description: 'Operation group billing',
    environment: {},
    logRetention: settings.logRetention,
    logLevel: settings.logLevel,
    removalPolicy: settings.removalPolicy,
  });
  configureBillingProvider(fn, settings);
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  const lambda = Object.values(resources).find(
    (resource) =>
      resource.Type === 'AWS::Lambda::Function' &&
      resource.Properties.Description === 'Operation group billing',
  );
  const statements = Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy')
    .flatMap((resource) => resource.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>);
  return { variables: lambda?.Properties.Environment.Variables as Record<string, unknown>, statements };
}

describe('Billing function: payment provider', () => {
  it('bills with Stripe and reads only the named secret when the environment names it', () => {
    // Act
    const { variables, statements } = billingFunction({ ...environments.dev, stripeSecretArn: secretArn });

    // Assess
    expect(variables).toMatchObject({ FSM_BILLING_PROVIDER: 'stripe', FSM_STRIPE_SECRET_ARN: secretArn });
    expect(statements.filter((s) => JSON.stringify(s.Action).includes('secretsmanager'))).toEqual([
      expect.objectContaining({
        Action: 'secretsmanager:GetSecretValue',
        Effect: 'Allow',
        Resource: secretArn,
      }),
    ]);
  }, 120_000);

  it('has no provider, and no secret access, without a Stripe secret', () => {
    const { variables, statements } = billingFunction(environments.dev);

    expect(variables.FSM_BILLING_PROVIDER).toBe('none');
    expect(variables).not.toHaveProperty('FSM_STRIPE_SECRET_ARN');
    expect(JSON.stringify(statements)).not.toContain('secretsmanager');
  }, 120_000);
});

describe('Billing function: in the deployed stacks', () => {
  let stacks: EnvironmentStacks;

  beforeAll(() => {
    stacks = addEnvironmentStacks(createTestApp(), 'dev', { nag: false });
  }, 180_000);

  it('never runs the local provider on AWS', () => {
    const fn = stacks.service.api.groupFunctions.billing.function;
    const template = Template.fromStack(Stack.of(fn)).toJSON().Resources as Record<string, Resource>;
    const id = Stack.of(fn).getLogicalId(fn.node.defaultChild as never);

    expect(template[id]?.Properties.Environment.Variables.FSM_BILLING_PROVIDER).toBe('none');
  });
});
