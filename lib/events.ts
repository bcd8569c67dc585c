/**
 * The event side: the stream processor on the table's stream (the outbox) and, once it
 * exists, the webhook delivery Lambda on the delivery queue.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { outboxEntity } from '../shared/data/outbox.ts';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { ServiceFunction } from './service-function.ts';
import { streamProcessorTableActions, tableActions } from './table-access.ts';
import { deliveryFunctionTimeoutSeconds, retryDelaysEnvValue } from './webhook-retries.ts';

export interface EventsProps {
  table: ITableV2;
  settings: EnvironmentSettings;
  environment: Record<string, string>;
  /** Where the stream processor reports batches it gave up on. */
  streamFailureQueue: IQueue;
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
  private readonly props: EventsProps;

  constructor(scope: Construct, id: string, props: EventsProps) {
    super(scope, id);
    this.props = props;
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
    this.streamProcessor.allowTable(table, streamProcessorTableActions);
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
  }

  /**
   * ── PLACE FOR THE WEBHOOK DELIVERY FUNCTION ──────────────────────────────────────────────
   * `functions/webhook-delivery/handler.ts` does not exist yet, so nothing calls this today.
   * When it does, pass its entry as `webhookDeliveryEntry` to ServiceStack (bin/app.ts).
   * The handler must return an SQSBatchResponse and implement the retry contract of
   * webhook-retries.ts (ChangeMessageVisibility per failed attempt, schedule from
   * FSM_WEBHOOK_RETRY_DELAYS). The stream processor gets the right to enqueue deliveries here
   * too, for the consumer that will dispatch events to webhook endpoints.
   */
  addWebhookDelivery(entry: string, deliveryQueue: IQueue): ServiceFunction {
    const { settings, table } = this.props;
    const delivery = new ServiceFunction(this, 'WebhookDelivery', {
      entry,
      description: 'Webhook delivery: one HTTP attempt per message, retries by visibility timeout',
      environment: {
        ...this.props.environment,
        FSM_TABLE_NAME: table.tableName,
        FSM_WEBHOOK_QUEUE_URL: deliveryQueue.queueUrl,
        FSM_WEBHOOK_RETRY_DELAYS: retryDelaysEnvValue(),
      },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.lambdaMemoryMb,
      timeout: Duration.seconds(deliveryFunctionTimeoutSeconds),
    });
    delivery.allowTable(table, tableActions.read);
    delivery.function.addEventSource(
      new SqsEventSource(deliveryQueue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        // Bounded concurrency keeps Lambda from throttling, which would burn receive counts (= attempts).
        maxConcurrency: 20,
      }),
    );
    // ChangeMessageVisibility is how a failed attempt schedules its retry.
    deliveryQueue.grant(delivery.role, 'sqs:ChangeMessageVisibility');
    deliveryQueue.grantSendMessages(this.streamProcessor.role);
    this.streamProcessor.function.addEnvironment('FSM_WEBHOOK_QUEUE_URL', deliveryQueue.queueUrl);
    return delivery;
  }
}
