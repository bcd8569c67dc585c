/**
 * The solver as deployed: its queue hides a message while a run is solved and dead-letters
 * repeated crashes; the function is sized for the longest run (memory, a timeout that covers the
 * preparation, the longest search and the grace, reserved concurrency per environment), takes the
 * queue and its dead-letter queue one run at a time with partial batch responses, its two event
 * sources together within its reserved concurrency in every environment, may call Amazon
 * Location's route matrices; the live stream processor may queue runs; alarms watch the dead
 * letters and the oldest waiting run.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { environments } from '../../lib/environments.ts';
import {
  assertSolverSettingsOrThrow,
  solverFunctionTimeoutSeconds,
  solverMappingConcurrencyOrThrow,
  solverMaxReceiveCount,
  solverOldestMessageAlarmSeconds,
} from '../../lib/solver-settings.ts';
import {
  preparationBudgetSeconds,
  queueTimeoutSeconds,
  stallGraceSeconds,
  timeLimits,
} from '../../shared/domain/optimization-runs/optimization-run-statuses.ts';
import { createTestApp } from '../support/cdk-app.ts';
import { roleGrants } from '../support/role-grants.ts';

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

const inService = (value: string) => Stack.of(stacks.service).resolve(value);
const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as never);
const worker = () => service[logicalId(stacks.service, stacks.service.solver.worker.function)]!;
const queue = () => data[logicalId(stacks.data, stacks.data.solverQueue)]!;

/** The event-source mappings of the solver function in a synthesized service stack. */
function solverMappings(of: EnvironmentStacks, resources: Record<string, Resource>) {
  const fnId = logicalId(of.service, of.service.solver.worker.function);
  return Object.values(resources)
    .filter(
      (r) =>
        r.Type === 'AWS::Lambda::EventSourceMapping' &&
        JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ Ref: fnId }),
    )
    .map((r) => r.Properties);
}

/** Every (action, resource) a role of the service stack is granted. */
const grants = (role: { node: { defaultChild?: unknown } }) => roleGrants(stacks.service, service, role);

describe('Stack: data > solver queue', () => {
  it('hides a received message for six function timeouts and dead-letters it after three receives', () => {
    const dlq = logicalId(stacks.data, stacks.data.solverDeadLetterQueue);
    expect(queue().Properties.VisibilityTimeout).toBe(6 * solverFunctionTimeoutSeconds);
    expect(queue().Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: solverMaxReceiveCount,
    });
    expect(queue().Properties.SqsManagedSseEnabled).toBe(true);
    expect(() => assertSolverSettingsOrThrow()).not.toThrow();
  });
});

describe('Stack: service > solver function', () => {
  it('covers the longest run: the preparation budget, the longest time limit and the grace, within 900 s', () => {
    expect(worker().Properties.Timeout).toBe(preparationBudgetSeconds + timeLimits.max + stallGraceSeconds);
    expect(worker().Properties.Timeout).toBeLessThanOrEqual(900);
  });

  it.each(['dev', 'staging', 'prod'] as const)('has the memory and reserved concurrency of %s', (name) => {
    const settings = environments[name].solver;
    expect(settings.memoryMb).toBeGreaterThanOrEqual(2048);
    expect(settings.reservedConcurrency).toBeGreaterThanOrEqual(4);
    if (name === 'dev') {
      expect(worker().Properties).toMatchObject({
        MemorySize: settings.memoryMb,
        ReservedConcurrentExecutions: settings.reservedConcurrency,
      });
    }
  });

  it.each(['dev', 'staging', 'prod'] as const)(
    'asks of its two event sources together no more invocations than its reserved concurrency in %s',
    (name) => {
      // Prepare
      const of = name === 'dev' ? stacks : addEnvironmentStacks(createTestApp(), name, { nag: false });
      const resources = name === 'dev' ? service : Template.fromStack(of.service).toJSON().Resources;

      // Act
      const mappings = solverMappings(of, resources);
      const reserved = resources[logicalId(of.service, of.service.solver.worker.function)]!.Properties
        .ReservedConcurrentExecutions as number;

      // Assess
      expect(mappings).toHaveLength(2);
      const total = mappings.reduce((sum, m) => sum + (m.ScalingConfig?.MaximumConcurrency as number), 0);
      expect(total).toBeLessThanOrEqual(reserved);
      for (const mapping of mappings)
        expect(mapping.ScalingConfig.MaximumConcurrency).toBeGreaterThanOrEqual(2);
      expect(reserved).toBe(environments[name].solver.reservedConcurrency);
    },
  );

  it('refuses a reserved concurrency that cannot give each event source its minimum', () => {
    expect(solverMappingConcurrencyOrThrow(4)).toEqual({ queue: 2, deadLetters: 2 });
    expect(() => solverMappingConcurrencyOrThrow(3)).toThrow(/at least 4/);
  });

  it('takes the solver queue and its dead-letter queue one run at a time, with partial batch responses', () => {
    const sources = solverMappings(stacks, service);
    expect(sources.map((s) => JSON.stringify(s.EventSourceArn)).sort()).toEqual(
      [inService(stacks.data.solverQueue.queueArn), inService(stacks.data.solverDeadLetterQueue.queueArn)]
        .map((arn) => JSON.stringify(arn))
        .sort(),
    );
    const concurrency = solverMappingConcurrencyOrThrow(environments.dev.solver.reservedConcurrency);
    for (const source of sources) {
      const dead =
        JSON.stringify(source.EventSourceArn) ===
        JSON.stringify(inService(stacks.data.solverDeadLetterQueue.queueArn));
      expect(source).toMatchObject({
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: dead ? concurrency.deadLetters : concurrency.queue },
      });
    }
    expect(worker().Properties.Environment.Variables).toMatchObject({
      FSM_TABLE_NAME: inService(stacks.data.table.tableName),
      FSM_SOLVER_DLQ_ARN: inService(stacks.data.solverDeadLetterQueue.queueArn),
    });
  });

  it('may compute Amazon Location route matrices, on the routes provider only', () => {
    const geo = grants(stacks.service.solver.worker.role).filter(([action]) => action.startsWith('geo'));
    expect(geo).toHaveLength(1);
    expect(geo[0]?.[0]).toBe('geo-routes:CalculateRouteMatrix');
    expect(geo[0]?.[1]).toContain('geo-routes');
    expect(geo[0]?.[1]).toContain('provider/default');
  });

  it('lets the live stream processor queue runs, and names the queue to it', () => {
    const live = stacks.service.events.liveStreamProcessor;
    const queueArn = JSON.stringify(inService(stacks.data.solverQueue.queueArn));
    expect(grants(live.role)).toContainEqual(['sqs:SendMessage', queueArn]);
    const variables = service[logicalId(stacks.service, live.function)]!.Properties.Environment.Variables;
    expect(variables.FSM_SOLVER_QUEUE_URL).toEqual(inService(stacks.data.solverQueue.queueUrl));
  });
});

describe('Stack: service > solver alarms', () => {
  it('watches the dead-letter queue, the oldest waiting run and the function', () => {
    const alarms = Object.values(service)
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
      .map((r) => r.Properties);
    const dlqName = JSON.stringify(inService(stacks.data.solverDeadLetterQueue.queueName));
    const queueName = JSON.stringify(inService(stacks.data.solverQueue.queueName));
    const on = (metric: string, name: string) =>
      alarms.filter((a) => a.MetricName === metric && JSON.stringify(a.Dimensions?.[0]?.Value) === name);
    expect(on('ApproximateNumberOfMessagesVisible', dlqName)).toHaveLength(1);
    expect(on('ApproximateAgeOfOldestMessage', queueName)[0]?.Threshold).toBe(
      solverOldestMessageAlarmSeconds,
    );
    // The operator hears of a waiting run no later than reads fail it (NOT_STARTED).
    expect(solverOldestMessageAlarmSeconds).toBeLessThanOrEqual(queueTimeoutSeconds);
    const fnId = logicalId(stacks.service, stacks.service.solver.worker.function);
    const fnAlarms = alarms.filter(
      (a) => JSON.stringify(a.Dimensions?.[0]?.Value) === JSON.stringify({ Ref: fnId }),
    );
    expect(fnAlarms.map((a) => a.MetricName).sort()).toEqual(['Errors', 'Throttles']);
  });
});
