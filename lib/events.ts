/**
 * The event side: two stream processors on the table's stream (the outbox), one per consumer
 * group (`records`: the audit log; `live`: webhook dispatch to the delivery queue and the event
 * stream's fan-out to the SNS topic of stream-fanout.ts), and the webhook delivery function on
 * that queue. Queue and function settings come from webhook-retries.ts; the designs are in
 * docs/webhook-delivery.md and docs/event-stream.md.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { outboxEntity } from '../shared/data/outbox.ts';
import { tallyEntity } from '../shared/data/tally.ts';
import { appliesTallies, type ConsumerGroup } from '../shared/events/consumer-groups.ts';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { ServiceFunction } from './service-function.ts';
import {
  liveStreamProcessorTableActions,
  streamProcessorTableActions,
  webhookDeliveryTableActions,
} from './table-access.ts';
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
  /** The event stream's fan-out topic (stream-fanout.ts); only the live processor publishes to it. */
  streamTopic: ITopic;
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

/**
 * And for the `records` group, INSERTs of tallies (shared/data/tally.ts): the shared counter
 * changes a writer did not apply itself. Two filters of one mapping: either admits a record.
 */
export const tallyFilter = {
  eventName: FilterRule.isEqual('INSERT'),
  dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(tallyEntity) } } },
};

export class Events extends Construct {
  /** The `records` group: the audit log. */
  readonly streamProcessor: ServiceFunction;
  /** The `live` group: webhook dispatch and the event stream's fan-out. */
  readonly liveStreamProcessor: ServiceFunction;
  readonly webhookDelivery: ServiceFunction;

  constructor(scope: Construct, id: string, props: EventsProps) {
    super(scope, id);

    // One function and event source mapping per consumer group
    // (functions/stream-processor/consumers.ts), so the live group (webhook dispatch) never
    // waits for the audit log's writes. Two readers per shard is what DynamoDB Streams serves
    // without throttling.
    this.streamProcessor = this.streamConsumer(
      props,
      'StreamProcessor',
      'records',
      streamProcessorTableActions,
    );
    this.liveStreamProcessor = this.streamConsumer(
      props,
      'LiveStreamProcessor',
      'live',
      liveStreamProcessorTableActions,
    );

    this.webhookDelivery = this.addWebhookDelivery(props);

    // The stream publisher (shared/realtime/fanout.ts) sends PublishBatch, authorised by
    // sns:Publish. The topic's key is AWS managed: its key policy admits this account's
    // principals through SNS, so the role needs no KMS statement.
    this.liveStreamProcessor.role.addToPolicy(
      new PolicyStatement({ actions: ['sns:Publish'], resources: [props.streamTopic.topicArn] }),
    );
    this.liveStreamProcessor.function.addEnvironment('FSM_STREAM_TOPIC_ARN', props.streamTopic.topicArn);
  }

  private streamConsumer(
    props: EventsProps,
    id: string,
    group: ConsumerGroup,
    tableActions: readonly string[],
  ): ServiceFunction {
    const { settings, table } = props;
    const consumer = new ServiceFunction(this, id, {
      entry: functionEntry('stream-processor'),
      description: `Outbox stream processor: hands domain events to the ${group} consumers`,
      environment: { ...props.environment, FSM_TABLE_NAME: table.tableName, FSM_STREAM_CONSUMERS: group },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.lambdaMemoryMb,
      timeout: Duration.seconds(60),
    });
    // On the table alone, never an index (allowTable would add the list indexes to any role
    // that may Query): the live group's Query reads the endpoints' base partition.
    consumer.role.addToPolicy(
      new PolicyStatement({ actions: [...tableActions], resources: [table.tableArn] }),
    );
    consumer.function.addEventSource(
      new DynamoEventSource(table, {
        // The outbox must not lose events written before the mapping existed.
        startingPosition: StartingPosition.TRIM_HORIZON,
        filters: [
          FilterCriteria.filter(outboxFilter),
          ...(appliesTallies(group) ? [FilterCriteria.filter(tallyFilter)] : []),
        ],
        batchSize: 100,
        // Ordered per shard: one batch at a time (consumers see events in commit order).
        parallelizationFactor: 1,
        // The handler reports the batch's first record; Lambda retries the batch from there.
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 10,
        maxRecordAge: Duration.hours(6),
        onFailure: new SqsDlq(props.streamFailureQueue),
      }),
    );
    return consumer;
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
    this.liveStreamProcessor.role.addToPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
    this.liveStreamProcessor.function.addEnvironment('FSM_WEBHOOK_QUEUE_URL', queue.queueUrl);
    return delivery;
  }
}
