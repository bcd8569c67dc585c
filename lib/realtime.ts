/**
 * The long-lived-connection side: one container image built from this repository
 * (Dockerfile, `node bin/serve-container.ts`), on Fargate behind an internal Application Load
 * Balancer that only CloudFront reaches (VPC origin). The container serves the identity
 * provider under /realms/* and the event stream (GET /api/v2/events/stream); each task
 * receives every stream event through a queue of its own on the fan-out topic
 * (stream-fanout.ts, docs/event-stream.md).
 *
 * Timeouts, from the inside out: the SSE server sends a heartbeat every 30 s and ends a
 * connection after 90 s (clients reconnect with Last-Event-ID). The ALB's idle timeout (120 s)
 * is longer than both, so the ALB never cuts a healthy stream; CloudFront's origin read
 * timeout (edge.ts, 60 s) is longer than the heartbeat gap.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import {
  FlowLogDestination,
  FlowLogTrafficType,
  IpAddresses,
  Peer,
  Port,
  SubnetType,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  Cluster,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  Secret as EcsSecret,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import {
  ApplicationLoadBalancer,
  ApplicationProtocol,
  type ApplicationTargetGroup,
} from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { metricsNamespace, streamMetrics } from '../shared/observability/metric-names.ts';
import { readinessPath } from '../shared/routes/groups/readiness.routes.ts';
import { repoRoot } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { connectionCapacity, scalingTarget } from './realtime-capacity.ts';
import { tableResources } from './service-function.ts';
import type { StreamFanout } from './stream-fanout.ts';
import { containerTableActions } from './table-access.ts';

/** The port `bin/serve-container.ts` listens on (it reads PORT). */
export const containerPort = 8080;
/** The VPC's range, literal so the ALB's ingress rule is readable (and checkable) at synth. */
export const vpcCidr = '10.40.0.0/16';
/** Outlasts the SSE heartbeat (30 s) and the server's 90 s connection lifetime. */
export const albIdleTimeout = Duration.seconds(120);
/** SSE connections end after 90 s anyway: draining a task waits for them, not longer. */
export const deregistrationDelay = Duration.seconds(100);

export interface RealtimeProps {
  settings: EnvironmentSettings;
  table: ITableV2;
  signingKeySecret: ISecret;
  /** FSM_* variables shared with the Lambdas. */
  environment: Record<string, string>;
  /** Where the ALB writes its access logs. */
  logBucket: IBucket;
  /** The event stream's topic and queue prefix; every task subscribes a queue of its own. */
  streamFanout: StreamFanout;
  /** Work queues the readiness check (/health/ready) asks for their attributes. */
  readinessQueues: readonly IQueue[];
}

export class Realtime extends Construct {
  readonly vpc: Vpc;
  readonly loadBalancer: ApplicationLoadBalancer;
  readonly service: FargateService;
  readonly targetGroup: ApplicationTargetGroup;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    const { settings } = props;

    const flowLogs = new LogGroup(this, 'FlowLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    this.vpc = new Vpc(this, 'Vpc', {
      ipAddresses: IpAddresses.cidr(vpcCidr),
      availabilityZones: [...settings.availabilityZones],
      natGateways: settings.natGateways,
      subnetConfiguration: [
        { name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'private', subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 20 },
      ],
      flowLogs: {
        all: {
          destination: FlowLogDestination.toCloudWatchLogs(flowLogs),
          trafficType: FlowLogTrafficType.REJECT,
        },
      },
    });

    const cluster = new Cluster(this, 'Cluster', {
      vpc: this.vpc,
      containerInsightsV2: ContainerInsights.ENABLED,
    });

    const taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: settings.container.cpu,
      memoryLimitMiB: settings.container.memoryMiB,
      runtimePlatform: {
        cpuArchitecture: CpuArchitecture.ARM64,
        operatingSystemFamily: OperatingSystemFamily.LINUX,
      },
    });
    const containerLogs = new LogGroup(this, 'ContainerLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    // The root filesystem is read-only; /tmp is a task-local scratch volume.
    taskDefinition.addVolume({ name: 'tmp' });
    const container = taskDefinition.addContainer('app', {
      // Built from the repository's Dockerfile; at synth the context is only copied into cdk.out.
      image: ContainerImage.fromAsset(repoRoot, { file: 'Dockerfile', platform: Platform.LINUX_ARM64 }),
      logging: LogDrivers.awsLogs({ streamPrefix: 'app', logGroup: containerLogs }),
      environment: {
        ...props.environment,
        FSM_TABLE_NAME: props.table.tableName,
        LOG_LEVEL: settings.logLevel,
        PORT: String(containerPort),
        // CloudFront appends the viewer's address to X-Forwarded-For, the ALB appends CloudFront's:
        // the second entry from the right is the client whose failed sign-ins are counted.
        FSM_TRUSTED_PROXY_HOPS: '2',
        // The event stream's fan-out: the topic to subscribe, and the name prefix of the task's queue.
        FSM_STREAM_TOPIC_ARN: props.streamFanout.topic.topicArn,
        FSM_STREAM_QUEUE_PREFIX: props.streamFanout.queuePrefix,
        // The work queues the readiness check asks for their attributes.
        FSM_READINESS_QUEUE_URLS: props.readinessQueues.map((queue) => queue.queueUrl).join(','),
        // What the task's memory holds (lib/realtime-capacity.ts): one more connection is a 503.
        FSM_STREAM_MAX_CONNECTIONS: String(connectionCapacity(settings.container.memoryMiB)),
      },
      secrets: {
        // The private JWKS; the provider signs with its first key.
        FSM_SIGNING_JWKS: EcsSecret.fromSecretsManager(props.signingKeySecret),
      },
      portMappings: [{ containerPort }],
      readonlyRootFilesystem: true,
      stopTimeout: Duration.seconds(30),
    });
    container.addMountPoints({ containerPath: '/tmp', sourceVolume: 'tmp', readOnly: false });
    taskDefinition.addToTaskRolePolicy(
      new PolicyStatement({
        actions: [...containerTableActions],
        resources: tableResources(props.table, containerTableActions),
      }),
    );
    props.streamFanout.allowNodes(taskDefinition.taskRole);
    taskDefinition.addToTaskRolePolicy(
      new PolicyStatement({
        actions: ['sqs:GetQueueAttributes'],
        resources: props.readinessQueues.map((queue) => queue.queueArn),
      }),
    );

    this.loadBalancer = new ApplicationLoadBalancer(this, 'LoadBalancer', {
      vpc: this.vpc,
      internetFacing: false,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      idleTimeout: albIdleTimeout,
      dropInvalidHeaderFields: true,
    });
    this.loadBalancer.logAccessLogs(props.logBucket, 'alb');
    // CloudFront's VPC origin reaches the internal ALB through network interfaces it places in
    // this VPC's subnets; nothing outside the VPC can route to an internal ALB at all.
    this.loadBalancer.connections.allowFrom(Peer.ipv4(vpcCidr), Port.tcp(80), 'CloudFront VPC origin');

    this.service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition,
      desiredCount: settings.container.minTasks,
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      assignPublicIp: false,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      circuitBreaker: { enable: true, rollback: true },
      healthCheckGracePeriod: Duration.seconds(60),
    });

    const listener = this.loadBalancer.addListener('Http', {
      port: 80,
      protocol: ApplicationProtocol.HTTP,
      // Only CloudFront's VPC origin may connect (rule above), not 0.0.0.0/0.
      open: false,
    });
    this.targetGroup = listener.addTargets('App', {
      port: containerPort,
      protocol: ApplicationProtocol.HTTP,
      targets: [this.service],
      deregistrationDelay,
      healthCheck: {
        // Readiness (bin/serve-container.ts): the table, the work queues and the signing keys.
        path: readinessPath,
        healthyHttpCodes: '200',
        interval: Duration.seconds(15),
        timeout: Duration.seconds(5),
        healthyThresholdCount: 2,
        unhealthyThresholdCount: 3,
      },
    });

    this.scale(settings, props.environment.POWERTOOLS_SERVICE_NAME ?? '');

    this.acknowledgeNagFindings(taskDefinition);
  }

  /**
   * On CPU, and on the tasks' average of open event-stream connections (each task reports its
   * count once a minute, stream-metrics.ts), kept at a share of what one task holds
   * (realtime-capacity.ts), so tasks start before one is full.
   */
  private scale(settings: EnvironmentSettings, serviceName: string): void {
    const scaling = this.service.autoScaleTaskCount({
      minCapacity: settings.container.minTasks,
      maxCapacity: settings.container.maxTasks,
    });
    scaling.scaleOnCpuUtilization('Cpu', { targetUtilizationPercent: settings.container.targetCpuPercent });
    scaling.scaleToTrackCustomMetric('Connections', {
      metric: new Metric({
        namespace: metricsNamespace,
        metricName: streamMetrics.connections,
        dimensionsMap: { service: serviceName },
        statistic: Stats.AVERAGE,
        period: Duration.minutes(1),
      }),
      targetValue: scalingTarget(settings.container.memoryMiB),
    });
  }

  private acknowledgeNagFindings(taskDefinition: FargateTaskDefinition): void {
    const executionRole = taskDefinition.obtainExecutionRole();
    Validations.of(executionRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'ecr:GetAuthorizationToken has no resource-level permissions (AWS requires Resource "*"); every ' +
        'other statement of the execution role names its repository, log group and secret.',
    });
    Validations.of(taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason:
        'The environment holds public configuration only (URLs, table name, log level, port); the ' +
        'signing key comes from Secrets Manager through `secrets`.',
    });
  }
}
