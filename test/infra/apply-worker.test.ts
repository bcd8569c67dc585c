/**
 * The apply worker as deployed (lib/apply-worker.ts): its queue hides a message longer than the
 * function can live (so a redelivery of one message means its receive died) and dead-letters
 * repeated failures; the function takes the queue and its dead-letter queue one apply at a time
 * with partial batch responses, both event sources together within its reserved concurrency; it
 * may read and write what an apply touches, and nothing else; the live stream processor may queue
 * applies and knows the queue.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import {
  applyFunctionTimeoutSeconds,
  applyMaxReceiveCount,
  applyQueueVisibilitySeconds,
  applyReservedConcurrency,
  assertApplySettingsOrThrow,
} from '../../lib/apply-settings.ts';
import { applyTableActions } from '../../lib/table-access.ts';
import { createTestApp } from '../support/cdk-app.ts';
import { roleGrants } from '../support/role-grants.ts';

type Resource = { Type: string; Properties: Record<string, any> };

let stacks: EnvironmentStacks;
let data: Record<string, Resource>;
let service: Record<string, Resource>;

beforeAll(() => {
  stacks = addEnvironmentStacks(createTestApp(), 'dev', { nag: false });
  data = Template.fromStack(stacks.data).toJSON().Resources;
  service = Template.fromStack(stacks.service).toJSON().Resources;
}, 120_000);

const inService = (value: string) => JSON.stringify(Stack.of(stacks.service).resolve(value));
const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as never);
const workerId = () => logicalId(stacks.service, stacks.service.applyWorker.worker.function);

/** Every (action, resource) a role of the service stack is granted. */
const grants = (role: { node: { defaultChild?: unknown } }) => roleGrants(stacks.service, service, role);

describe('Stack: data > apply queue', () => {
  it('hides a received message longer than the worker lives, and dead-letters it after five receives', () => {
    const queue = data[logicalId(stacks.data, stacks.data.applyQueue)]!;
    const dlq = logicalId(stacks.data, stacks.data.applyDeadLetterQueue);

    expect(queue.Properties.VisibilityTimeout).toBe(applyQueueVisibilitySeconds);
    expect(applyQueueVisibilitySeconds).toBeGreaterThan(applyFunctionTimeoutSeconds);
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: applyMaxReceiveCount,
    });
    expect(() => assertApplySettingsOrThrow()).not.toThrow();
  });
});

describe('Stack: service > apply worker', () => {
  it('takes the queue and its dead letters one apply at a time, both within its reserved concurrency', () => {
    const worker = service[workerId()]!;
    const mappings = Object.values(service)
      .filter(
        (r) =>
          r.Type === 'AWS::Lambda::EventSourceMapping' &&
          JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ Ref: workerId() }),
      )
      .map((r) => r.Properties);

    expect(worker.Properties.Timeout).toBe(applyFunctionTimeoutSeconds);
    expect(worker.Properties.ReservedConcurrentExecutions).toBe(applyReservedConcurrency);
    expect(mappings.map((m) => JSON.stringify(m.EventSourceArn)).sort()).toEqual(
      [
        inService(stacks.data.applyQueue.queueArn),
        inService(stacks.data.applyDeadLetterQueue.queueArn),
      ].sort(),
    );
    for (const mapping of mappings) {
      expect(mapping).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    }
    const total = mappings.reduce((sum, m) => sum + (m.ScalingConfig?.MaximumConcurrency as number), 0);
    expect(total).toBeLessThanOrEqual(applyReservedConcurrency);
    expect(worker.Properties.Environment.Variables.FSM_APPLY_DLQ_ARN).toEqual(
      Stack.of(stacks.service).resolve(stacks.data.applyDeadLetterQueue.queueArn),
    );
  });

  it('may read and write the table as an apply does, and nothing more of it', () => {
    const table = grants(stacks.service.applyWorker.worker.role)
      .filter(([action]) => action.startsWith('dynamodb:'))
      .map(([action]) => action);

    expect([...new Set(table)].sort()).toEqual([...applyTableActions].sort());
  });

  it('lets the live stream processor queue applies, and names the queue to it', () => {
    const live = stacks.service.events.liveStreamProcessor;
    expect(grants(live.role)).toContainEqual(['sqs:SendMessage', inService(stacks.data.applyQueue.queueArn)]);
    const fn = service[logicalId(stacks.service, live.function)]!;
    expect(JSON.stringify(fn.Properties.Environment.Variables.FSM_APPLY_QUEUE_URL)).toBe(
      inService(stacks.data.applyQueue.queueUrl),
    );
  });
});
