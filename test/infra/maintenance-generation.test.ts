/**
 * Maintenance plan generation on AWS: an EventBridge schedule runs the generator function, which
 * may write the table (cases with their claims) and has room for its run before its timeout.
 */
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { maintenanceScheduleMinutes, maintenanceTimeoutMinutes } from '../../lib/maintenance-generation.ts';
import { createTestApp } from '../support/cdk-app.ts';

let stacks: EnvironmentStacks;
let service: Template;

beforeAll(() => {
  stacks = addEnvironmentStacks(createTestApp(), 'dev', { nag: false });
  service = Template.fromStack(stacks.service);
}, 120_000);

describe('Stack: maintenance generation', () => {
  it(`runs the generator every ${maintenanceScheduleMinutes} minutes`, () => {
    const fn = stacks.service.maintenanceGeneration.generator.function;
    const fnId = Stack.of(fn).getLogicalId(fn.node.defaultChild as never);
    service.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${maintenanceScheduleMinutes} minutes)`,
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })]),
    });
  });

  it('gives the generator a timeout longer than the minute its run keeps back', () => {
    const fn = stacks.service.maintenanceGeneration.generator.function;
    const fnId = Stack.of(fn).getLogicalId(fn.node.defaultChild as never);
    const resource = service.toJSON().Resources[fnId] as { Properties: { Timeout: number } };
    expect(resource.Properties.Timeout).toBe(maintenanceTimeoutMinutes * 60);
  });

  it('lets the generator write the table through transactions', () => {
    const role = stacks.service.maintenanceGeneration.generator.role;
    const roleId = Stack.of(role).getLogicalId(role.node.defaultChild as never);
    const policies = Object.values(service.findResources('AWS::IAM::Policy')) as Array<{
      Properties: {
        Roles: Array<{ Ref: string }>;
        PolicyDocument: { Statement: Array<{ Action: string | string[] }> };
      };
    }>;
    const actions = policies
      .filter((policy) => policy.Properties.Roles.some((ref) => ref.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .flatMap((statement) => [statement.Action].flat());
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']),
    );
  });
});
