/**
 * The apply worker on AWS: a function on the apply queue and its dead-letter queue, and the live
 * stream processor's right to queue requested applies. Settings and their reasons:
 * apply-settings.ts; the design: docs/scheduling.md ("Applying a plan").
 */
import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  applyBatchSize,
  applyFunctionTimeoutSeconds,
  applyMappingConcurrency,
  applyReservedConcurrency,
} from './apply-settings.ts';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { deliveryQueueConsumeActions } from './events.ts';
import { ServiceFunction } from './service-function.ts';
import { applyTableActions } from './table-access.ts';

export interface ApplyWorkerProps {
  table: ITableV2;
  settings: EnvironmentSettings;
  queue: IQueue;
  deadLetterQueue: IQueue;
  /** The `live` stream processor, which queues requested applies (apply-dispatch.consumer.ts). */
  dispatcher: ServiceFunction;
}

export class ApplyWorker extends Construct {
  readonly worker: ServiceFunction;

  constructor(scope: Construct, id: string, props: ApplyWorkerProps) {
    super(scope, id);
    const { settings, table, queue, deadLetterQueue } = props;
    this.worker = new ServiceFunction(this, 'Worker', {
      entry: functionEntry('apply-worker'),
      description: 'Applies optimization runs: writes (or undoes) the tours and cases of a plan',
      environment: { FSM_TABLE_NAME: table.tableName, FSM_APPLY_DLQ_ARN: deadLetterQueue.queueArn },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      timeout: Duration.seconds(applyFunctionTimeoutSeconds),
    });
    (this.worker.function.node.defaultChild as CfnFunction).reservedConcurrentExecutions =
      applyReservedConcurrency;
    this.worker.allowTable(table, applyTableActions);
    this.worker.role.addToPolicy(
      new PolicyStatement({
        actions: [...deliveryQueueConsumeActions],
        resources: [queue.queueArn, deadLetterQueue.queueArn],
      }),
    );
    for (const [name, source] of [
      ['ApplyQueue', queue],
      ['ApplyDeadLetters', deadLetterQueue],
    ] as const) {
      this.worker.function.addEventSourceMapping(name, {
        eventSourceArn: source.queueArn,
        batchSize: applyBatchSize,
        reportBatchItemFailures: true,
        maxConcurrency: applyMappingConcurrency,
      });
    }
    props.dispatcher.role.addToPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
    props.dispatcher.function.addEnvironment('FSM_APPLY_QUEUE_URL', queue.queueUrl);
  }
}
