/**
 * The stateful part of an environment: the single table (with the outbox stream), the upload
 * bucket, the webhook delivery queue with its dead-letter queue, the stream processor's failure
 * queue and the identity provider's signing key. It changes rarely and is retained outside dev;
 * the service stack can be destroyed and rebuilt around it.
 */
import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  CustomResource,
  Duration,
  SecretValue,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  AttributeType,
  Billing,
  ProjectionType,
  StreamViewType,
  TableEncryptionV2,
  type TablePropsV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { tableDefinition } from '../shared/data/table-definition.ts';
import {
  applyDeadLetterRetentionSeconds,
  applyMaxReceiveCount,
  applyQueueVisibilitySeconds,
  applyRetentionSeconds,
  assertApplySettingsOrThrow,
} from './apply-settings.ts';
import type { EnvironmentName, EnvironmentSettings } from './environments.ts';
import { ServiceFunction } from './service-function.ts';
import {
  assertSolverSettingsOrThrow,
  solverDeadLetterRetentionSeconds,
  solverMaxReceiveCount,
  solverQueueVisibilitySeconds,
  solverRetentionSeconds,
} from './solver-settings.ts';
import {
  assertDeliverySettingsOrThrow,
  deadLetterRetentionSeconds,
  deliveryMaxReceiveCount,
  deliveryQueueVisibilitySeconds,
  deliveryRetentionSeconds,
} from './webhook-retries.ts';

/** Browser uploads land under this prefix and stay there until the service applies them. */
export const pendingUploadPrefix = 'pending/';
/** Uploads nobody applied within this many days are deleted by the bucket lifecycle. */
export const pendingUploadExpiryDays = 1;

export interface DataStackProps extends StackProps {
  envName: EnvironmentName;
  settings: EnvironmentSettings;
}

export class DataStack extends Stack {
  readonly table: TableV2;
  readonly uploadBucket: Bucket;
  readonly webhookDeliveryQueue: Queue;
  readonly webhookDeadLetterQueue: Queue;
  /** One message per optimization run to solve (lib/solver.ts), and its dead-letter queue. */
  readonly solverQueue: Queue;
  readonly solverDeadLetterQueue: Queue;
  /** One message per requested apply of a run's plan (lib/apply-worker.ts), and its dead-letter queue. */
  readonly applyQueue: Queue;
  readonly applyDeadLetterQueue: Queue;
  /** On-failure destination of the stream processor (metadata of batches it gave up on). */
  readonly streamFailureQueue: Queue;
  readonly signingKeySecret: Secret;
  /** The admin control plane client's secret (realm fsm-admin), created at deploy time. */
  readonly adminClientSecret: Secret;
  /** Every queue that only collects failures; the observability alarms watch their depth. */
  readonly deadLetterQueues: Record<string, Queue>;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const removalPolicy = settings.removalPolicy;

    this.table = new TableV2(this, 'Table', tableProps(settings));

    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the server access log bucket; logging it into itself would loop.',
    });

    this.uploadBucket = new Bucket(this, 'Uploads', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      // "Object Created" events go to EventBridge, where the service stack's rule picks the
      // uploads to check (lib/upload-checks.ts) without this stack depending on it.
      eventBridgeEnabled: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'uploads/',
      cors: [
        {
          // Browsers POST the form of a presigned POST straight to the bucket.
          allowedMethods: [HttpMethods.POST],
          allowedOrigins: [...settings.uploadCorsOrigins],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag', 'Location'],
          maxAge: 3600,
        },
      ],
      lifecycleRules: [
        {
          id: 'expire-unapplied-uploads',
          prefix: pendingUploadPrefix,
          expiration: Duration.days(pendingUploadExpiryDays),
        },
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy,
    });

    // eventBridgeEnabled is set by CDK's own notifications handler (a Lambda with the basic
    // execution managed policy), created once per stack.
    const notifications = Stack.of(this).node.tryFindChild(
      'BucketNotificationsHandler050a0587b7544547bf325f094a3db834',
    );
    if (notifications) {
      Validations.of(notifications).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          'CDK’s BucketNotificationsHandler (it turns on the upload bucket’s EventBridge notifications at deploy ' +
          'time) is created by aws-cdk-lib with this managed policy; it only writes its own logs.',
      });
    }

    // Settings and their reasons: webhook-retries.ts; the design: docs/webhook-delivery.md.
    assertDeliverySettingsOrThrow();
    this.webhookDeadLetterQueue = new Queue(this, 'WebhookDeliveryDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.seconds(deadLetterRetentionSeconds),
      removalPolicy,
    });
    this.webhookDeliveryQueue = new Queue(this, 'WebhookDelivery', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // First attempts leave at once; every wait is a per-message DelaySeconds.
      deliveryDelay: Duration.seconds(0),
      visibilityTimeout: Duration.seconds(deliveryQueueVisibilitySeconds),
      retentionPeriod: Duration.seconds(deliveryRetentionSeconds),
      // Only messages whose runs crashed repeatedly; failed attempts are re-sent, not redriven.
      deadLetterQueue: { queue: this.webhookDeadLetterQueue, maxReceiveCount: deliveryMaxReceiveCount },
      removalPolicy,
    });

    this.streamFailureQueue = new Queue(this, 'StreamProcessorFailures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    Validations.of(this.streamFailureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'Terminal queue: the on-failure destination of the stream processor. Its messages name the stream ' +
        'batches that failed; an operator replays them (docs/deploy.md). A DLQ of a DLQ adds nothing.',
    });
    // Settings and their reasons: solver-settings.ts.
    assertSolverSettingsOrThrow();
    this.solverDeadLetterQueue = new Queue(this, 'SolverDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.seconds(solverDeadLetterRetentionSeconds),
      // The solver function takes these too: it fails their runs (lib/solver.ts).
      visibilityTimeout: Duration.seconds(solverQueueVisibilitySeconds),
      removalPolicy,
    });
    this.solverQueue = new Queue(this, 'Solver', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(solverQueueVisibilitySeconds),
      retentionPeriod: Duration.seconds(solverRetentionSeconds),
      deadLetterQueue: { queue: this.solverDeadLetterQueue, maxReceiveCount: solverMaxReceiveCount },
      removalPolicy,
    });

    // Settings and their reasons: apply-settings.ts.
    assertApplySettingsOrThrow();
    this.applyDeadLetterQueue = new Queue(this, 'ApplyDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.seconds(applyDeadLetterRetentionSeconds),
      // The apply worker takes these too: it undoes their applies (lib/apply-worker.ts).
      visibilityTimeout: Duration.seconds(applyQueueVisibilitySeconds),
      removalPolicy,
    });
    this.applyQueue = new Queue(this, 'Apply', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(applyQueueVisibilitySeconds),
      retentionPeriod: Duration.seconds(applyRetentionSeconds),
      deadLetterQueue: { queue: this.applyDeadLetterQueue, maxReceiveCount: applyMaxReceiveCount },
      removalPolicy,
    });

    this.deadLetterQueues = {
      'webhook-delivery-dlq': this.webhookDeadLetterQueue,
      'stream-processor-failures': this.streamFailureQueue,
      'solver-dlq': this.solverDeadLetterQueue,
      'apply-dlq': this.applyDeadLetterQueue,
    };

    this.signingKeySecret = this.signingKey(settings);
    this.adminClientSecret = this.adminClient(settings);
  }

  /**
   * The admin control plane's client, written into the table at deploy time with a fresh
   * secret that only Secrets Manager keeps (admin-client-resource.handler.ts).
   */
  private adminClient(settings: EnvironmentSettings): Secret {
    const writer = new ServiceFunction(this, 'AdminClientWriter', {
      entry: fileURLToPath(new URL('./admin-client-resource.handler.ts', import.meta.url)),
      description: 'Creates the admin control plane client (CloudFormation custom resource)',
      environment: { FSM_TABLE_NAME: this.table.tableName },
      logRetention: settings.logRetention,
      logLevel: 'info',
      removalPolicy: settings.removalPolicy,
      memorySize: 256,
      timeout: Duration.seconds(60),
    });
    writer.allowTable(this.table, ['dynamodb:PutItem']);
    const client = new CustomResource(this, 'AdminClient', {
      serviceToken: writer.function.functionArn,
      resourceType: 'Custom::AdminClient',
      properties: { ClientId: settings.adminClient.clientId, Generation: settings.adminClient.generation },
    });
    const secret = new Secret(this, 'AdminClientSecret', {
      description: `Secret of the admin control plane client ${settings.adminClient.clientId} (realm fsm-admin).`,
      secretStringValue: SecretValue.resourceAttribute(client.getAttString('ClientSecret')),
      removalPolicy: settings.removalPolicy,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The secret is also stored in the table as the client record; rotation is a deploy step ' +
        '(bump adminClient.generation), which rewrites both at once. See docs/deploy.md.',
    });
    new CfnOutput(this, 'AdminClientSecretArn', {
      description: 'aws secretsmanager get-secret-value --secret-id <this> gives the admin client secret',
      value: secret.secretArn,
    });
    return secret;
  }

  /** The identity provider's signing JWKS, generated at deploy time (signing-key-resource.handler.ts). */
  private signingKey(settings: EnvironmentSettings): Secret {
    const generator = new ServiceFunction(this, 'SigningKeyGenerator', {
      entry: fileURLToPath(new URL('./signing-key-resource.handler.ts', import.meta.url)),
      description: 'Generates the identity provider signing key (CloudFormation custom resource)',
      environment: {},
      logRetention: settings.logRetention,
      logLevel: 'info',
      removalPolicy: settings.removalPolicy,
      memorySize: 512,
      timeout: Duration.seconds(60),
    });
    const key = new CustomResource(this, 'SigningKey', {
      serviceToken: generator.function.functionArn,
      resourceType: 'Custom::SigningKey',
      properties: { Generation: settings.signingKeyGeneration },
    });
    const secret = new Secret(this, 'SigningKeySecret', {
      description: 'Private JWKS of the identity provider (RS256); first key signs.',
      secretStringValue: SecretValue.resourceAttribute(key.getAttString('Jwks')),
      removalPolicy: settings.removalPolicy,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A signing key cannot rotate on a timer without publishing the next key first; rotation is a ' +
        'deliberate step (bump signingKeyGeneration, then restart the container), see docs/deploy.md.',
    });
    return secret;
  }
}

function tableProps(settings: EnvironmentSettings): TablePropsV2 {
  return {
    partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
    sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
    billing: Billing.onDemand(),
    encryption: TableEncryptionV2.awsManagedKey(),
    dynamoStream: StreamViewType[tableDefinition.streamViewType],
    timeToLiveAttribute: tableDefinition.ttlAttribute,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: settings.tableDeletionProtection,
    removalPolicy: settings.removalPolicy,
    globalSecondaryIndexes: tableDefinition.indexes
      .slice(0, settings.tableIndexCount ?? tableDefinition.indexes.length)
      .map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: {
          name: index.sortKey,
          type: index.sortKeyType === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
        },
        projectionType: ProjectionType.INCLUDE,
        nonKeyAttributes: [...tableDefinition.indexProjection],
      })),
  };
}
