/**
 * Alarms, the SNS topic they notify, and the environment's dashboard (dashboard.ts). Every
 * alarm and widget is built from a list (functions, queues, operation groups), so a new
 * operation group or a new dead-letter queue is watched without touching this file. The SLO
 * burn-rate alarms live in the monitoring stack (slo-alarms.ts), which notifies the same topic.
 *
 * Logs are structured at the source: the functions and the container write one JSON object
 * per line (shared/observability/logger.ts) carrying request-id and correlation-id, Lambda's
 * JSON log format adds its own request id and filters by level, and API Gateway writes one
 * JSON access-log object per request (api.ts).
 */
import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type Dashboard,
  type IMetric,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ApplicationTargetGroup } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { metricsNamespace, syncMetrics } from '../shared/observability/metric-names.ts';
import { buildDashboard } from './dashboard.ts';
import type { EnvironmentSettings } from './environments.ts';

export interface ObservabilityProps {
  settings: EnvironmentSettings;
  /** Every Lambda to watch for errors and throttles, by a readable name. */
  functions: Record<string, IFunction>;
  /** Queues that only fill up when something failed for good. */
  deadLetterQueues: Record<string, IQueue>;
  /** Work queues whose oldest message, past `maxAge`, means their consumer is stuck or behind. */
  queueAgeLimits: Record<string, { queue: IQueue; maxAge: Duration; meaning: string }>;
  httpApi: IHttpApi;
  /** The outbox consumers, one per consumer group (records, live), whose iterator age is watched. */
  streamProcessors: Record<string, IFunction>;
  targetGroup: ApplicationTargetGroup;
  /** The `service` dimension of the environment's own metrics (fsm-<env>). */
  serviceName: string;
  /** Every operation group with its function: a row of golden signals each on the dashboard. */
  operationGroups: Record<string, IFunction>;
}

export class Observability extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { settings } = props;
    const thresholds = settings.alarms;

    // CloudWatch can only publish to an encrypted topic whose key lets it: hence a customer key.
    const key = new Key(this, 'TopicKey', {
      description: 'Encrypts the alarm topic',
      enableKeyRotation: true,
      removalPolicy: settings.removalPolicy,
    });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Field service alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (thresholds.email) this.topic.addSubscription(new EmailSubscription(thresholds.email));
    const action = new SnsAction(this.topic);

    const alarm = (name: string, metric: IMetric, threshold: number, description: string): Alarm => {
      const created = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(
        `${name}-Errors`,
        fn.metricErrors({ period: thresholds.period, statistic: 'Sum' }),
        thresholds.lambdaErrors,
        `Lambda ${name} failed invocations (uncaught errors, timeouts).`,
      );
      alarm(
        `${name}-Throttles`,
        fn.metricThrottles({ period: thresholds.period, statistic: 'Sum' }),
        thresholds.lambdaThrottles,
        `Lambda ${name} was throttled (concurrency limit).`,
      );
    }

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      alarm(
        `${name}-Depth`,
        queue.metricApproximateNumberOfMessagesVisible({ period: thresholds.period, statistic: 'Maximum' }),
        thresholds.dlqDepth,
        `Dead-letter queue ${name} holds messages: something failed for good and waits for an operator.`,
      );
    }

    for (const [name, { queue, maxAge, meaning }] of Object.entries(props.queueAgeLimits)) {
      alarm(
        `${name}-OldestMessageAge`,
        queue.metricApproximateAgeOfOldestMessage({ period: thresholds.period, statistic: 'Maximum' }),
        maxAge.toSeconds(),
        meaning,
      );
    }

    alarm(
      'Api-5xx',
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName: '5xx',
        dimensionsMap: { ApiId: props.httpApi.apiId },
        period: thresholds.period,
        statistic: 'Sum',
      }),
      thresholds.api5xx,
      'The HTTP API answered 5xx (function errors, integration failures).',
    );

    for (const [group, processor] of Object.entries(props.streamProcessors)) {
      alarm(
        group === 'records' ? 'StreamProcessor-IteratorAge' : `StreamProcessor-${group}-IteratorAge`,
        processor.metric('IteratorAge', { period: thresholds.period, statistic: 'Maximum' }),
        Duration.minutes(5).toMilliseconds(),
        `Domain events wait more than 5 minutes in the outbox stream for the ${group} consumers: they lag or fail.`,
      );
    }

    alarm(
      'Sync-IndexLag',
      new Metric({
        namespace: metricsNamespace,
        metricName: syncMetrics.indexLag,
        dimensionsMap: { service: props.serviceName },
        period: thresholds.period,
        statistic: 'Maximum',
      }),
      Duration.minutes(2).toMilliseconds(),
      'Offline sync: changes reach the users’ sync feeds more than 2 minutes after they were made (the sync ' +
        'indexer of the records group lags or fails); apps pull stale scopes meanwhile.',
    );

    alarm(
      'Realtime-UnhealthyTargets',
      props.targetGroup.metrics.unhealthyHostCount({ period: thresholds.period, statistic: 'Maximum' }),
      1,
      'A container task fails its /health/ready check.',
    );

    this.dashboard = buildDashboard(this, 'Dashboard', {
      dashboardName: props.serviceName,
      settings,
      serviceName: props.serviceName,
      groups: props.operationGroups,
      workQueues: Object.fromEntries(
        Object.entries(props.queueAgeLimits).map(([name, { queue }]) => [name, queue]),
      ),
      deadLetterQueues: props.deadLetterQueues,
      targetGroup: props.targetGroup,
      alarms: this.alarms,
    });
  }
}
