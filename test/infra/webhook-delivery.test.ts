/**
 * Webhook delivery as deployed: the delivery queue parks waiting retries as delayed messages
 * (no queue delay, a visibility timeout that only covers a run), the delivery function consumes
 * it with partial batch responses and may only re-send to it (never change a visibility), the
 * stream processor may enqueue, and alarms watch the oldest message and the dead-letter queue.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { deliveryQueueConsumeActions } from '../../lib/events.ts';
import type { ServiceFunction } from '../../lib/service-function.ts';
import { liveStreamProcessorTableActions, webhookDeliveryTableActions } from '../../lib/table-access.ts';
import {
  deliveryBatchingWindowSeconds,
  deliveryBatchSize,
  deliveryFunctionTimeoutSeconds,
  deliveryMaxConcurrency,
  deliveryMaxReceiveCount,
  deliveryRetentionSeconds,
  oldestMessageAlarmSeconds,
} from '../../lib/webhook-retries.ts';
import { createTestApp } from '../support/cdk-app.ts';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
type Resource = { Type: string; Properties: Record<string, any> };

let stacks: EnvironmentStacks;
let data: Record<string, Resource>;
let service: Record<string, Resource>;

beforeAll(() => {
  const app = createTestApp();
  stacks = addEnvironmentStacks(app, 'dev', { nag: false });
  data = Template.fromStack(stacks.data).toJSON().Resources;
  service = Template.fromStack(stacks.service).toJSON().Resources;
}, 120_000);

/** A value of the data stack as the service stack sees it (an import). */
function inService(value: string): unknown {
  return Stack.of(stacks.service).resolve(value);
}

function logicalId(stack: Stack, construct: { node: { defaultChild?: unknown } }): string {
  return stack.getLogicalId(construct.node.defaultChild as never);
}

function deliveryQueue(): Resource {
  return data[logicalId(stacks.data, stacks.data.webhookDeliveryQueue)]!;
}

function functionResource(fn: ServiceFunction): Resource {
  return service[logicalId(stacks.service, fn.function)]!;
}

/** Every statement of the role's policies, as (actions, resource) pairs. */
function grantsOf(fn: ServiceFunction): Array<{ actions: string[]; resource: string }> {
  const roleId = logicalId(stacks.service, fn.role);
  const statements = Object.values(service)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === roleId),
    )
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
  return statements.flatMap((statement) => {
    const actions = Array.isArray(statement.Action) ? statement.Action : [statement.Action];
    const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
    return resources.map((resource) => ({
      actions: [...actions].sort(),
      resource: JSON.stringify(resource),
    }));
  });
}

function actionsOn(fn: ServiceFunction, resource: unknown, prefix: string): string[] {
  const wanted = JSON.stringify(resource);
  return grantsOf(fn)
    .filter((grant) => grant.resource === wanted)
    .flatMap((grant) => grant.actions)
    .filter((action) => action.startsWith(prefix))
    .sort();
}

describe('Stack: data > webhook delivery queue', () => {
  it('has no queue delay: first attempts leave at once, waits are per-message delays', () => {
    expect(deliveryQueue().Properties.DelaySeconds ?? 0).toBe(0);
  });

  it('hides a received message for six function timeouts', () => {
    const fn = functionResource(stacks.service.events.webhookDelivery);
    expect(fn.Properties.Timeout).toBe(deliveryFunctionTimeoutSeconds);
    expect(deliveryQueue().Properties.VisibilityTimeout).toBe(6 * fn.Properties.Timeout);
  });

  it('moves a message to the dead-letter queue after repeated crashed receives, not after the attempts', () => {
    const dlq = logicalId(stacks.data, stacks.data.webhookDeadLetterQueue);
    expect(deliveryQueue().Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: deliveryMaxReceiveCount,
    });
  });

  it('keeps a message for days, and its dead letters longer', () => {
    expect(deliveryQueue().Properties.MessageRetentionPeriod).toBe(deliveryRetentionSeconds);
    const dlq = data[logicalId(stacks.data, stacks.data.webhookDeadLetterQueue)]!;
    expect(dlq.Properties.MessageRetentionPeriod).toBeGreaterThan(deliveryRetentionSeconds);
  });
});

describe('Stack: service > delivery function', () => {
  it('consumes the queue in batches of 10 with partial batch responses and bounded concurrency', () => {
    const fnId = logicalId(stacks.service, stacks.service.events.webhookDelivery.function);
    const mappings = Object.values(service).filter(
      (r) =>
        r.Type === 'AWS::Lambda::EventSourceMapping' &&
        JSON.stringify(r.Properties.EventSourceArn) ===
          JSON.stringify(inService(stacks.data.webhookDeliveryQueue.queueArn)),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toMatchObject({
      FunctionName: { Ref: fnId },
      BatchSize: deliveryBatchSize,
      MaximumBatchingWindowInSeconds: deliveryBatchingWindowSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: deliveryMaxConcurrency },
    });
    expect(deliveryBatchSize).toBe(10);
  });

  it('knows the table and the queue it re-sends to, and no retry schedule (compiled in)', () => {
    const variables = functionResource(stacks.service.events.webhookDelivery).Properties.Environment
      .Variables;
    expect(variables.FSM_TABLE_NAME).toEqual(inService(stacks.data.table.tableName));
    expect(variables.FSM_WEBHOOK_QUEUE_URL).toEqual(inService(stacks.data.webhookDeliveryQueue.queueUrl));
    expect(variables).not.toHaveProperty('FSM_WEBHOOK_RETRY_DELAYS');
  });

  it('may read endpoints and write failure rows on the table, and nothing else there', () => {
    const fn = stacks.service.events.webhookDelivery;
    expect(actionsOn(fn, inService(stacks.data.table.tableArn), 'dynamodb:')).toEqual(
      [...webhookDeliveryTableActions].sort(),
    );
    const dynamo = grantsOf(fn).filter((grant) => grant.actions.some((a) => a.startsWith('dynamodb:')));
    expect(dynamo.map((grant) => grant.resource)).toEqual([
      JSON.stringify(inService(stacks.data.table.tableArn)),
    ]);
  });

  it('has a role of its own without managed policies', () => {
    const role = service[logicalId(stacks.service, stacks.service.events.webhookDelivery.role)]!;
    expect(role.Properties.ManagedPolicyArns ?? []).toEqual([]);
  });

  it('may send to the delivery queue and consume it, but never change a message visibility', () => {
    const fn = stacks.service.events.webhookDelivery;
    const queueArn = inService(stacks.data.webhookDeliveryQueue.queueArn);
    expect(actionsOn(fn, queueArn, 'sqs:')).toEqual(
      ['sqs:SendMessage', ...deliveryQueueConsumeActions].sort(),
    );
    const everything = grantsOf(fn).flatMap((grant) => grant.actions);
    expect(everything).not.toContain('sqs:ChangeMessageVisibility');
    // Logs, the table and X-Ray's own trace upload are every function's; the queue is this one's.
    const own = (action: string) => !/^(logs|dynamodb|xray):/.test(action);
    expect(everything.filter(own).sort()).toEqual(['sqs:SendMessage', ...deliveryQueueConsumeActions].sort());
  });
});

describe('Stack: service > live stream processor (the dispatcher)', () => {
  it('may send to the delivery queue, and knows its URL', () => {
    const processor = stacks.service.events.liveStreamProcessor;
    expect(actionsOn(processor, inService(stacks.data.webhookDeliveryQueue.queueArn), 'sqs:')).toEqual([
      'sqs:SendMessage',
    ]);
    const variables = functionResource(processor).Properties.Environment.Variables;
    expect(variables.FSM_WEBHOOK_QUEUE_URL).toEqual(inService(stacks.data.webhookDeliveryQueue.queueUrl));
  });

  it("may query the endpoints' base partition on the table, through no index", () => {
    const processor = stacks.service.events.liveStreamProcessor;
    const table = inService(stacks.data.table.tableArn);
    expect(liveStreamProcessorTableActions).toEqual(['dynamodb:Query']);
    expect(actionsOn(processor, table, 'dynamodb:')).toEqual([...liveStreamProcessorTableActions].sort());
    expect(functionResource(processor).Properties.Environment.Variables.FSM_STREAM_CONSUMERS).toBe('live');
    const indexGrants = grantsOf(processor).filter((grant) => grant.resource.includes('/index/'));
    expect(indexGrants).toEqual([]);
  });
});

describe('Stack: service > webhook alarms', () => {
  function alarmsOn(metricName: string, queue: { queueName: string }): Resource[] {
    const name = JSON.stringify(inService(queue.queueName));
    return Object.values(service).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        r.Properties.Namespace === 'AWS/SQS' &&
        r.Properties.MetricName === metricName &&
        JSON.stringify(r.Properties.Dimensions).includes(name),
    );
  }

  it('fires when the oldest delivery message is well past the longest hop', () => {
    const [alarm, ...others] = alarmsOn('ApproximateAgeOfOldestMessage', stacks.data.webhookDeliveryQueue);
    expect(others).toEqual([]);
    expect(alarm?.Properties).toMatchObject({
      Statistic: 'Maximum',
      Threshold: oldestMessageAlarmSeconds,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarm?.Properties.AlarmActions).toHaveLength(1);
  });

  it('fires when the dead-letter queue holds a message', () => {
    const [alarm] = alarmsOn('ApproximateNumberOfMessagesVisible', stacks.data.webhookDeadLetterQueue);
    expect(alarm?.Properties).toMatchObject({ Statistic: 'Maximum', Threshold: 1 });
  });

  it('watches the delivery function for errors and throttles', () => {
    const fnName = JSON.stringify({
      Ref: logicalId(stacks.service, stacks.service.events.webhookDelivery.function),
    });
    const metrics = Object.values(service)
      .filter(
        (r) =>
          r.Type === 'AWS::CloudWatch::Alarm' &&
          JSON.stringify(r.Properties.Dimensions ?? []).includes(fnName),
      )
      .map((r) => r.Properties.MetricName)
      .sort();
    expect(metrics).toEqual(['Errors', 'Throttles']);
  });
});

describe('Stack: service > stream processors', () => {
  const filtersOf = (fn: ServiceFunction) => {
    const fnId = logicalId(stacks.service, fn.function);
    const mapping = Object.values(service).find(
      (r) =>
        r.Type === 'AWS::Lambda::EventSourceMapping' &&
        JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ Ref: fnId }),
    );
    return (mapping?.Properties.FilterCriteria?.Filters ?? []).map((f: { Pattern: string }) =>
      JSON.parse(f.Pattern),
    );
  };

  it('wakes the records group for outbox events and for tallies its writers left, the live group for events only', () => {
    const entity = (pattern: { dynamodb: { NewImage: { entity: { S: string[] } } } }) =>
      pattern.dynamodb.NewImage.entity.S[0];
    expect(filtersOf(stacks.service.events.streamProcessor).map(entity)).toEqual(['event', 'tally']);
    expect(filtersOf(stacks.service.events.liveStreamProcessor).map(entity)).toEqual(['event']);
  });
});
