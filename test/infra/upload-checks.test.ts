/**
 * Tenant logo and favicon uploads on AWS: the bucket tells EventBridge about new objects, a rule
 * hands those under pending/tenants/ to the checker, and the functions that touch uploads get
 * object rights under the two upload prefixes only.
 */
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import type { ServiceFunction } from '../../lib/service-function.ts';
import { uploadObjectActions } from '../../lib/upload-checks.ts';
import { createTestApp } from '../support/cdk-app.ts';

let stacks: EnvironmentStacks;
let data: Template;
let service: Template;

beforeAll(() => {
  stacks = addEnvironmentStacks(createTestApp(), 'dev', { nag: false });
  data = Template.fromStack(stacks.data);
  service = Template.fromStack(stacks.service);
}, 120_000);

type Statement = { Action: string | string[]; Resource: unknown };

function s3StatementsOf(fn: ServiceFunction): Statement[] {
  const roleId = Stack.of(fn).getLogicalId(fn.role.node.defaultChild as never);
  const policies = Object.values(service.findResources('AWS::IAM::Policy')) as Array<{
    Properties: { Roles: Array<{ Ref: string }>; PolicyDocument: { Statement: Statement[] } };
  }>;
  return policies
    .filter((policy) => policy.Properties.Roles.some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
    .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')));
}

describe('Stack: uploads', () => {
  it('sends the upload bucket’s object events to EventBridge', () => {
    data.hasResourceProperties('Custom::S3BucketNotifications', {
      NotificationConfiguration: { EventBridgeConfiguration: {} },
    });
  });

  it('routes Object Created under pending/tenants/ of that bucket to the checker', () => {
    service.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.s3'],
        'detail-type': ['Object Created'],
        detail: { object: { key: [{ prefix: 'pending/tenants/' }] } },
      },
      Targets: Match.arrayWith([Match.objectLike({ RetryPolicy: { MaximumRetryAttempts: 4 } })]),
    });
  });

  it.each([
    { name: 'the tenant group', fn: () => stacks.service.api.groupFunctions.tenant },
    { name: 'the checker', fn: () => stacks.service.uploadChecks.checker },
  ])('gives $name Get, Put and Delete of objects under the two upload prefixes only', ({ fn }) => {
    const statements = s3StatementsOf(fn());
    expect(statements).toHaveLength(1);
    expect([statements[0]?.Action].flat().sort()).toEqual([...uploadObjectActions].sort());
    const resources = JSON.stringify(statements[0]?.Resource);
    expect(resources).toContain('/pending/tenants/*');
    expect(resources).toContain('/tenants/*');
    expect(statements[0]?.Resource).toHaveLength(2);
  });

  it('tells those functions the bucket’s name', () => {
    for (const fn of [stacks.service.api.groupFunctions.tenant, stacks.service.uploadChecks.checker]) {
      const id = Stack.of(fn).getLogicalId(fn.function.node.defaultChild as never);
      const variables = service.toJSON().Resources[id].Properties.Environment.Variables;
      expect(variables.FSM_UPLOAD_BUCKET).toBeDefined();
    }
  });
});
