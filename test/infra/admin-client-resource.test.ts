/**
 * The custom resource that creates the admin control plane's client at deploy time, and its
 * place in the data stack.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { respondTo } from '../../lib/admin-client-resource.handler.ts';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { createTestApp } from '../support/cdk-app.ts';

function event(requestType: 'Create' | 'Update' | 'Delete'): CloudFormationCustomResourceEvent {
  const common = {
    ServiceToken: 'arn:aws:lambda:eu-central-1:123456789012:function:writer',
    ResponseURL: 'https://example.invalid/response',
    StackId: 'arn:aws:cloudformation:eu-central-1:123456789012:stack/fsm-dev-data/1',
    RequestId: 'request-1',
    LogicalResourceId: 'AdminClient',
    ResourceType: 'Custom::AdminClient',
    ResourceProperties: { ServiceToken: 'x', ClientId: 'fsm-admin', Generation: '2' },
  };
  if (requestType === 'Create') return { ...common, RequestType: 'Create' };
  if (requestType === 'Update') {
    return {
      ...common,
      RequestType: 'Update',
      PhysicalResourceId: 'admin-client-1',
      OldResourceProperties: { ServiceToken: 'x', ClientId: 'fsm-admin', Generation: '1' },
    };
  }
  return { ...common, RequestType: 'Delete', PhysicalResourceId: 'admin-client-1' };
}

describe('Handler: admin client resource', () => {
  it.each(['Create', 'Update'] as const)(
    'writes the client with a fresh secret on %s and answers it masked',
    async (type) => {
      // Prepare
      const written: Array<{ clientId: string; secret: string }> = [];

      // Act
      const response = await respondTo(event(type), async (clientId, secret) => {
        written.push({ clientId, secret });
      });

      // Assess
      expect(response.Status).toBe('SUCCESS');
      expect(response.NoEcho).toBe(true);
      expect(written).toHaveLength(1);
      expect(written[0]?.clientId).toBe('fsm-admin');
      expect(written[0]?.secret.length).toBeGreaterThanOrEqual(32);
      expect(response.Data).toEqual({ ClientId: 'fsm-admin', ClientSecret: written[0]?.secret });
    },
  );

  it('leaves the table alone on Delete', async () => {
    const written: string[] = [];
    const response = await respondTo(event('Delete'), async (clientId) => {
      written.push(clientId);
    });
    expect(response).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'admin-client-1' });
    expect(written).toEqual([]);
  });

  it('fails without leaking a secret when the table write fails', async () => {
    const response = await respondTo(event('Create'), async () => {
      throw new Error('AccessDeniedException');
    });
    expect(response.Status).toBe('FAILED');
    expect(response.Reason).toContain('AccessDeniedException');
    expect(response.Data).toBeUndefined();
  });
});

describe('Data stack: admin client', () => {
  let stacks: EnvironmentStacks;
  let template: Template;

  beforeAll(() => {
    stacks = addEnvironmentStacks(createTestApp(), 'dev', { nag: false });
    template = Template.fromStack(stacks.data);
  }, 120_000);

  it('creates the client from the environment settings and keeps its secret in Secrets Manager', () => {
    template.hasResourceProperties('Custom::AdminClient', { ClientId: 'fsm-admin', Generation: 1 });
    const secret =
      template.toJSON().Resources[
        Stack.of(stacks.data).getLogicalId(stacks.data.adminClientSecret.node.defaultChild as never)
      ];
    expect(JSON.stringify(secret.Properties.SecretString)).toContain('ClientSecret');
  });
});
