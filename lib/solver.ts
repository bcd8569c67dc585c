/**
 * The solver on AWS: a function sized for the optimizer (memory, a timeout above the longest
 * run, reserved concurrency per environment) on the solver queue and on its dead-letter queue,
 * and the live stream processor's right to queue new runs. Settings and their reasons:
 * solver-settings.ts; the design: docs/scheduling.md.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { deliveryQueueConsumeActions } from './events.ts';
import { ServiceFunction } from './service-function.ts';
import {
  solverBatchSize,
  solverFunctionTimeoutSeconds,
  solverMappingConcurrencyOrThrow,
} from './solver-settings.ts';
import { solverTableActions } from './table-access.ts';

export interface SolverProps {
  table: ITableV2;
  settings: EnvironmentSettings;
  queue: IQueue;
  deadLetterQueue: IQueue;
  /** The `live` stream processor, which queues new runs (solver-dispatch.consumer.ts). */
  dispatcher: ServiceFunction;
}

/** Amazon Location's routes (v2) have no resource of their own: the provider's ARN. */
export function routesProviderArn(stack: Stack): string {
  return `arn:${stack.partition}:geo-routes:${stack.region}::provider/default`;
}

export class Solver extends Construct {
  readonly worker: ServiceFunction;

  constructor(scope: Construct, id: string, props: SolverProps) {
    super(scope, id);
    const { settings, table, queue, deadLetterQueue } = props;
    this.worker = new ServiceFunction(this, 'Worker', {
      entry: functionEntry('optimizer-worker'),
      description: 'Optimization runs: takes a run up, reads cases and shifts, solves, writes the plan',
      environment: { FSM_TABLE_NAME: table.tableName, FSM_SOLVER_DLQ_ARN: deadLetterQueue.queueArn },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.solver.memoryMb,
      timeout: Duration.seconds(solverFunctionTimeoutSeconds),
    });
    (this.worker.function.node.defaultChild as CfnFunction).reservedConcurrentExecutions =
      settings.solver.reservedConcurrency;
    this.worker.allowTable(table, solverTableActions);
    this.worker.role.addToPolicy(
      new PolicyStatement({
        actions: [...deliveryQueueConsumeActions],
        resources: [queue.queueArn, deadLetterQueue.queueArn],
      }),
    );
    // Travel from Amazon Location for workspaces routing with AMAZON_LOCATION.
    this.worker.role.addToPolicy(
      new PolicyStatement({
        actions: ['geo-routes:CalculateRouteMatrix'],
        resources: [routesProviderArn(Stack.of(this))],
      }),
    );
    // Together the mappings ask for at most the reserved concurrency: at it they stop receiving
    // instead of being throttled (a throttled invocation would spend a receive of its message).
    // Fails the synth for a reserved concurrency below 4.
    const concurrency = solverMappingConcurrencyOrThrow(settings.solver.reservedConcurrency);
    for (const [name, source, maxConcurrency] of [
      ['SolverQueue', queue, concurrency.queue],
      ['SolverDeadLetters', deadLetterQueue, concurrency.deadLetters],
    ] as const) {
      this.worker.function.addEventSourceMapping(name, {
        eventSourceArn: source.queueArn,
        batchSize: solverBatchSize,
        reportBatchItemFailures: true,
        maxConcurrency,
      });
    }
    props.dispatcher.role.addToPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
    props.dispatcher.function.addEnvironment('FSM_SOLVER_QUEUE_URL', queue.queueUrl);
  }
}
