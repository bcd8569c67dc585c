/**
 * The service-level detector as deployed (lib/sla-detector.ts): an EventBridge rule runs its
 * function once a minute without retries (the next run makes up a missed one); the function lives
 * less than the period, at most two at once, and may read and write the table as a run does and
 * nothing more: no other service reaches it.
 */
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { slaDetectorTableActions } from '../../lib/table-access.ts';
import { createTestApp } from '../support/cdk-app.ts';
import { roleGrants } from '../support/role-grants.ts';

type Resource = { Type: string; Properties: Record<string, any> };

let stacks: EnvironmentStacks;
let service: Record<string, Resource>;

beforeAll(() => {
  stacks = addEnvironmentStacks(createTestApp(), 'dev', { nag: false });
  service = Template.fromStack(stacks.service).toJSON().Resources;
}, 120_000);

const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as never);
const workerId = () => logicalId(stacks.service, stacks.service.slaDetector.worker.function);

describe('Stack: service > service-level detector', () => {
  it('runs its function once a minute, without retries, from a rule that is enabled', () => {
    const rules = Object.values(service).filter(
      (r) =>
        r.Type === 'AWS::Events::Rule' &&
        JSON.stringify(r.Properties.Targets).includes(JSON.stringify({ 'Fn::GetAtt': [workerId(), 'Arn'] })),
    );

    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(rules[0]?.Properties.State).toBe('ENABLED');
    expect(rules[0]?.Properties.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
    const permissions = Object.values(service).filter(
      (r) =>
        r.Type === 'AWS::Lambda::Permission' &&
        r.Properties.Principal === 'events.amazonaws.com' &&
        JSON.stringify(r.Properties.FunctionName).includes(workerId()),
    );
    expect(permissions).toHaveLength(1);
  });

  it('alarms to the alarm topic when fewer than 3 runs started in 5 minutes, or none were reported', () => {
    const alarm = Object.values(service).find(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        r.Properties.MetricName === 'Invocations' &&
        JSON.stringify(r.Properties.Dimensions).includes(workerId()),
    );

    expect(alarm?.Properties).toMatchObject({
      Statistic: 'Sum',
      Period: 300,
      Threshold: 3,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
    expect(JSON.stringify(alarm?.Properties.AlarmActions)).toContain(
      logicalId(stacks.service, stacks.service.observability.topic),
    );
  });

  it('lives less than the period, at most two at once', () => {
    const worker = service[workerId()]!;
    expect(worker.Properties.Timeout).toBeLessThan(60);
    expect(worker.Properties.ReservedConcurrentExecutions).toBe(2);
  });

  it('may read and write the table as a run does, and nothing more of it', () => {
    const table = roleGrants(stacks.service, service, stacks.service.slaDetector.worker.role)
      .filter(([action]) => action.startsWith('dynamodb:'))
      .map(([action]) => action);

    expect([...new Set(table)].sort()).toEqual([...slaDetectorTableActions].sort());
  });
});
