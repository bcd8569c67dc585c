/**
 * The stateless part of an environment: API (HTTP API + one Lambda per operation group), the
 * event Lambdas, the Fargate container behind its load balancer, the CloudFront distribution
 * in front of both, and the alarms.
 *
 * Why API, realtime and edge share one stack: the functions and the container must know the
 * public base URL (FSM_BASE_URL, FSM_AUTH_URL: the issuer), which is the distribution's domain,
 * while the distribution needs the API's and the load balancer's addresses. Across stacks
 * that is a reference cycle; inside one stack CloudFormation orders it itself (API and load
 * balancer → distribution → functions and task definition). The base URL is a lazy value
 * that resolves to the custom domain when one is configured, else to the distribution's
 * `*.cloudfront.net` name. Stateful resources live in DataStack, so this stack can be
 * replaced freely.
 */
import { CfnOutput, Duration, Lazy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { metricsNamespace, serviceNameOf } from '../shared/observability/metric-names.ts';
import { Api } from './api.ts';
import { ApplyWorker } from './apply-worker.ts';
import type { DataStack } from './data-stack.ts';
import { Edge } from './edge.ts';
import type { EnvironmentName, EnvironmentSettings } from './environments.ts';
import { Events } from './events.ts';
import { MaintenanceGeneration } from './maintenance-generation.ts';
import { Observability } from './observability.ts';
import { Realtime } from './realtime.ts';
import { ServiceFunction } from './service-function.ts';
import { SlaDetector } from './sla-detector.ts';
import { Solver } from './solver.ts';
import { solverOldestMessageAlarmSeconds } from './solver-settings.ts';
import { StreamFanout } from './stream-fanout.ts';
import { UploadChecks } from './upload-checks.ts';
import { oldestMessageAlarmSeconds } from './webhook-retries.ts';

const powertoolsVariables = [
  'POWERTOOLS_SERVICE_NAME',
  'POWERTOOLS_METRICS_NAMESPACE',
  'POWERTOOLS_LOGGER_SAMPLE_RATE',
] as const;

export interface ServiceStackProps extends StackProps {
  envName: EnvironmentName;
  settings: EnvironmentSettings;
  data: DataStack;
  /** Entry of the webhook delivery Lambda; default functions/webhook-delivery/handler.ts. */
  webhookDeliveryEntry?: string;
}

export class ServiceStack extends Stack {
  readonly api: Api;
  readonly events: Events;
  readonly realtime: Realtime;
  /** The solver of optimization runs on its queue (lib/solver.ts). */
  readonly solver: Solver;
  /** The apply worker of optimization runs on its queue (lib/apply-worker.ts). */
  readonly applyWorker: ApplyWorker;
  readonly slaDetector: SlaDetector;
  readonly streamFanout: StreamFanout;
  readonly edge: Edge;
  readonly observability: Observability;
  /** The eager check of logo and favicon uploads (S3 "Object Created" → EventBridge → Lambda). */
  readonly uploadChecks: UploadChecks;
  readonly maintenanceGeneration: MaintenanceGeneration;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { settings, data } = props;

    // Resolved at synth, after the distribution below exists.
    let edge: Edge | undefined;
    const baseUrl = Lazy.string({
      produce: () => {
        if (!edge) throw new Error('The base URL was read before the distribution was created.');
        return edge.baseUrl;
      },
    });
    const environment = serviceEnvironment(props, baseUrl);

    const logBucket = edgeLogBucket(this, settings);

    this.api = new Api(this, 'Api', {
      table: data.table,
      settings,
      environment,
      uploadBucket: data.uploadBucket,
    });
    this.uploadChecks = new UploadChecks(this, 'UploadChecks', {
      bucket: data.uploadBucket,
      table: data.table,
      settings,
      environment,
    });
    this.maintenanceGeneration = new MaintenanceGeneration(this, 'MaintenanceGeneration', {
      table: data.table,
      settings,
      environment,
    });
    // The event stream's topic: the live stream processor publishes, every container task subscribes.
    this.streamFanout = new StreamFanout(this, 'StreamFanout', { envName: props.envName });
    this.events = new Events(this, 'Events', {
      table: data.table,
      settings,
      environment,
      streamFailureQueue: data.streamFailureQueue,
      webhookDeliveryQueue: data.webhookDeliveryQueue,
      webhookDeliveryEntry: props.webhookDeliveryEntry,
      streamTopic: this.streamFanout.topic,
    });

    this.solver = new Solver(this, 'Solver', {
      table: data.table,
      settings,
      queue: data.solverQueue,
      deadLetterQueue: data.solverDeadLetterQueue,
      dispatcher: this.events.liveStreamProcessor,
    });

    this.applyWorker = new ApplyWorker(this, 'ApplyWorker', {
      table: data.table,
      settings,
      queue: data.applyQueue,
      deadLetterQueue: data.applyDeadLetterQueue,
      dispatcher: this.events.liveStreamProcessor,
    });

    this.slaDetector = new SlaDetector(this, 'SlaDetector', { table: data.table, settings });

    this.realtime = new Realtime(this, 'Realtime', {
      settings,
      table: data.table,
      signingKeySecret: data.signingKeySecret,
      environment,
      logBucket,
      streamFanout: this.streamFanout,
      readinessQueues: [data.webhookDeliveryQueue, data.solverQueue],
    });

    edge = new Edge(this, 'Edge', {
      settings,
      httpApi: this.api.httpApi,
      loadBalancer: this.realtime.loadBalancer,
      logBucket,
    });
    this.edge = edge;

    this.observability = this.watch(props);
    this.slaDetector.alarmWhenSilent(this.observability.topic);

    // Functions built without the shared environment (the solver's worker) log and measure
    // under the same service name and sampling too.
    for (const construct of this.node.findAll()) {
      if (!(construct instanceof ServiceFunction)) continue;
      for (const name of powertoolsVariables) construct.function.addEnvironment(name, environment[name]);
    }

    new CfnOutput(this, 'BaseUrl', { value: baseUrl, description: 'Public base URL (CloudFront)' });
    new CfnOutput(this, 'DistributionId', { value: edge.distribution.distributionId });
    new CfnOutput(this, 'ApiEndpoint', { value: this.api.httpApi.apiEndpoint });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.observability.topic.topicArn });
  }

  /** The alarms and dashboards over every function, queue, stream processor and the container. */
  private watch(props: ServiceStackProps): Observability {
    const { settings, data } = props;
    return new Observability(this, 'Observability', {
      settings,
      functions: {
        ...Object.fromEntries(
          Object.entries(this.api.groupFunctions).map(([group, fn]) => [group, fn.function]),
        ),
        fallback: this.api.fallbackFunction.function,
        'stream-processor': this.events.streamProcessor.function,
        'live-stream-processor': this.events.liveStreamProcessor.function,
        'webhook-delivery': this.events.webhookDelivery.function,
        'upload-check': this.uploadChecks.checker.function,
        'optimizer-worker': this.solver.worker.function,
        'apply-worker': this.applyWorker.worker.function,
        'sla-detector': this.slaDetector.worker.function,
        'maintenance-generator': this.maintenanceGeneration.generator.function,
      },
      deadLetterQueues: data.deadLetterQueues,
      queueAgeLimits: {
        'webhook-delivery': {
          queue: data.webhookDeliveryQueue,
          maxAge: Duration.seconds(oldestMessageAlarmSeconds),
          meaning:
            'Webhook deliveries are at least 15 minutes past due: the delivery function is stuck, ' +
            'disabled or far behind (waiting retries are delayed messages of at most 15 minutes).',
        },
        apply: {
          queue: data.applyQueue,
          maxAge: Duration.minutes(10),
          meaning:
            'An apply of an optimization run has waited 10 minutes for the apply worker: its event source is ' +
            'stopped or disabled, or the worker keeps failing (its dead letters undo and fail applies).',
        },
        solver: {
          queue: data.solverQueue,
          maxAge: Duration.seconds(solverOldestMessageAlarmSeconds),
          meaning:
            'An optimization run has waited 30 minutes for the solver: more runs than its reserved ' +
            'concurrency can take, or its event source is stopped or disabled.',
        },
      },
      httpApi: this.api.httpApi,
      streamProcessors: {
        records: this.events.streamProcessor.function,
        live: this.events.liveStreamProcessor.function,
      },
      targetGroup: this.realtime.targetGroup,
      serviceName: serviceNameOf(props.envName),
      operationGroups: Object.fromEntries(
        Object.entries(this.api.groupFunctions).map(([group, fn]) => [group, fn.function]),
      ),
    });
  }
}

/** The environment of every function and of the container: the public URLs, auth and Powertools. */
function serviceEnvironment(props: ServiceStackProps, baseUrl: string) {
  const { settings } = props;
  return {
    FSM_BASE_URL: baseUrl,
    FSM_AUTH_URL: settings.authUrl ?? baseUrl,
    FSM_PROBLEMS_BASE_URL: settings.problemsBaseUrl ?? `${baseUrl}/problems/`,
    FSM_API_AUDIENCE: settings.apiAudience,
    FSM_AUTH_CACHE_SECONDS: String(settings.authCacheSeconds),
    // Powertools (shared/observability/): the logs' and metrics' `service`, the metrics'
    // namespace, and the share of invocations that log at debug.
    POWERTOOLS_SERVICE_NAME: serviceNameOf(props.envName),
    POWERTOOLS_METRICS_NAMESPACE: metricsNamespace,
    POWERTOOLS_LOGGER_SAMPLE_RATE: String(settings.debugSampleRate),
  };
}

/** The bucket of the load balancer's and the distribution's access logs. */
function edgeLogBucket(scope: Construct, settings: EnvironmentSettings): Bucket {
  const logBucket = new Bucket(scope, 'EdgeLogs', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    // ALB access logs require SSE-S3; CloudFront standard logs require ACLs (object writer).
    encryption: BucketEncryption.S3_MANAGED,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
    enforceSSL: true,
    lifecycleRules: [{ expiration: Duration.days(90) }],
    removalPolicy: settings.removalPolicy,
  });
  Validations.of(logBucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'This bucket receives the ALB and CloudFront access logs; logging it into itself would loop.',
  });
  return logBucket;
}
