/**
 * The event side: the stream processor on the table's stream (the outbox), which among its
 * consumers dispatches webhook deliveries to the delivery queue, and the webhook delivery
 * function on that queue. Queue and function settings come from webhook-retries.ts; the design
 * is in docs/webhook-delivery.md.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { outboxEntity } from '../shared/data/outbox.ts';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { ServiceFunction } from './service-function.ts';
import { streamProcessorTableActions, webhookDeliveryTableActions } from './table-access.ts';
import {
  deliveryBatchingWindowSeconds,
  deliveryBatchSize,
  deliveryFunctionTimeoutSeconds,
  deliveryMaxConcurrency,
} from './webhook-retries.ts';

/**
 * What Lambda's event source mapping needs of the queue (AWS's documented minimum). CDK's
 * SqsEventSource would also grant ChangeMessageVisibility and GetQueueUrl, which nothing here
 * calls: retries are re-sent messages, never a changed visibility.
 */
export const deliveryQueueConsumeActions = [
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
] as const;

export interface EventsProps {
  table: ITableV2;
  settings: EnvironmentSettings;
  environment: Record<string, string>;
  /** Where the stream processor reports batches it gave up on. */
  streamFailureQueue: IQueue;
  /** One message per (event, endpoint) attempt or hop; the dispatcher and the worker send to it. */
  webhookDeliveryQueue: IQueue;
  /** Entry of the delivery function; default functions/webhook-delivery/handler.ts. */
  webhookDeliveryEntry?: string;
}

/**
 * Lambda's event filter: only INSERTs of outbox items (`entity` = 'event') wake the processor.
 * Every other write of the table (resources, OIDC sessions, audit projections) is dropped by
 * the event source mapping, free of charge.
 */
export const outboxFilter = {
  eventName: FilterRule.isEqual('INSERT'),
  dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(outboxEntity) } } },
};

export class Events extends Construct {
  readonly streamProcessor: ServiceFunction;
  readonly webhookDelivery: ServiceFunction;

  constructor(scope: Construct, id: string, props: EventsProps) {
    super(scope, id);
    const { settings, table } = props;

    this.streamProcessor = new ServiceFunction(this, 'StreamProcessor', {
      entry: functionEntry('stream-processor'),
      description: 'Outbox stream processor: hands domain events to their consumers',
      environment: { ...props.environment, FSM_TABLE_NAME: table.tableName },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.lambdaMemoryMb,
      timeout: Duration.seconds(60),
    });
    // On the table alone: the endpoints' Query reads their base partition, never an index
    // (allowTable would add the list indexes to any role that may Query).
    this.streamProcessor.role.addToPolicy(
      new PolicyStatement({ actions: [...streamProcessorTableActions], resources: [table.tableArn] }),
    );
    this.streamProcessor.function.addEventSource(
      new DynamoEventSource(table, {
        // The outbox must not lose events written before the mapping existed.
        startingPosition: StartingPosition.TRIM_HORIZON,
        filters: [FilterCriteria.filter(outboxFilter)],
        batchSize: 100,
        // Ordered per shard: one batch at a time (consumers see events in commit order).
        parallelizationFactor: 1,
        // The handler reports the first failed record; Lambda retries from there.
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 10,
        maxRecordAge: Duration.hours(6),
        onFailure: new SqsDlq(props.streamFailureQueue),
      }),
    );

    this.webhookDelivery = this.addWebhookDelivery(props);
  }

  /**
   * The delivery function on the delivery queue, and the dispatcher's right to enqueue. The
   * handler answers with partial batch responses: a record is reported failed only when the
   * worker could not settle it (table or queue unreachable); a failed HTTP attempt is settled,
   * because the worker has already re-sent the next attempt as a new delayed message.
   */
  private addWebhookDelivery(props: EventsProps): ServiceFunction {
    const { settings, table, webhookDeliveryQueue: queue } = props;
    const delivery = new ServiceFunction(this, 'WebhookDelivery', {
      entry: props.webhookDeliveryEntry ?? functionEntry('webhook-delivery'),
      description: 'Webhook delivery: one HTTP attempt per message, retries re-sent as delayed messages',
      environment: {
        ...props.environment,
        FSM_TABLE_NAME: table.tableName,
        // The worker re-sends retries and hops to the queue it receives from.
        FSM_WEBHOOK_QUEUE_URL: queue.queueUrl,
      },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.lambdaMemoryMb,
      timeout: Duration.seconds(deliveryFunctionTimeoutSeconds),
    });
    delivery.allowTable(table, webhookDeliveryTableActions);
    delivery.role.addToPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
    // Added to the role's default policy, which the function (and so the mapping) depends on:
    // Lambda checks these rights when the mapping is created.
    delivery.role.addToPolicy(
      new PolicyStatement({ actions: [...deliveryQueueConsumeActions], resources: [queue.queueArn] }),
    );
    delivery.function.addEventSourceMapping('DeliveryQueue', {
      eventSourceArn: queue.queueArn,
      batchSize: deliveryBatchSize,
      maxBatchingWindow: Duration.seconds(deliveryBatchingWindowSeconds),
      reportBatchItemFailures: true,
      maxConcurrency: deliveryMaxConcurrency,
    });

    // The dispatcher's SendMessageBatch is authorised by sqs:SendMessage.
    this.streamProcessor.role.addToPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
    this.streamProcessor.function.addEnvironment('FSM_WEBHOOK_QUEUE_URL', queue.queueUrl);
    return delivery;
  }
}
