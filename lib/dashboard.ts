/**
 * One CloudWatch dashboard per environment (`fsm-<env>`), built from the same lists as the
 * alarms (observability.ts), so a new operation group, queue or function shows up without
 * touching this file:
 *
 * - per operation group, the four golden signals: traffic (Requests), errors (5xx, with the
 *   availability objective's rate as a line), latency (p50, p99, with the latency objective) and
 *   saturation (the group function's concurrent executions and throttles), and the DynamoDB
 *   capacity units each of its operations consumed;
 * - webhook deliveries by outcome, their lag, the delivery queue's oldest message and the
 *   dead-letter queues; the event stream's connections, events sent and the container's health;
 *   optimization runs by outcome and their duration; telemetry reports accepted and refused;
 * - the DynamoDB capacity of background work (queue and stream handlers), by handler;
 * - the state of every alarm.
 */
import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ApplicationTargetGroup } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  httpMetrics,
  metricsNamespace,
  optimizationOutcomes,
  optimizerMetrics,
  streamMetrics,
  telemetryMetrics,
  webhookMetrics,
  webhookOutcomes,
  workMetrics,
} from '../shared/observability/metric-names.ts';
import type { EnvironmentSettings } from './environments.ts';

export interface ServiceDashboardProps {
  dashboardName: string;
  settings: EnvironmentSettings;
  /** The `service` dimension of the environment's metrics. */
  serviceName: string;
  /** Every operation group, each with its function. */
  groups: Record<string, IFunction>;
  /** Work queues and dead-letter queues, by name (the alarms' lists). */
  workQueues: Record<string, IQueue>;
  deadLetterQueues: Record<string, IQueue>;
  targetGroup: ApplicationTargetGroup;
  alarms: readonly Alarm[];
}

const period = Duration.minutes(5);
const width = 6;
const height = 6;

/** The title of an operation group's row: the infra test finds one per group. */
export function groupRowTitle(group: string): string {
  return `### Operation group \`${group}\``;
}

export function buildDashboard(scope: Construct, id: string, props: ServiceDashboardProps): Dashboard {
  const own = (metricName: string, statistic: string, dims: Record<string, string> = {}, label?: string) =>
    new Metric({
      namespace: metricsNamespace,
      metricName,
      dimensionsMap: { service: props.serviceName, ...dims },
      statistic,
      period,
      ...(label ? { label } : {}),
    });
  /** One line per operation of `group` (a search: an operation appears once it was called). */
  const perOperation = (metricName: string, group: string, label: string) =>
    new MathExpression({
      expression:
        `SEARCH('{${metricsNamespace},service,group,operation} MetricName="${metricName}" ` +
        `service="${props.serviceName}" group="${group}"', 'Sum', ${period.toSeconds()})`,
      usingMetrics: {},
      label,
      period,
    });
  const { slo } = props.settings.alarms;
  const dashboard = new Dashboard(scope, id, { dashboardName: props.dashboardName });

  dashboard.addWidgets(
    new TextWidget({
      markdown:
        `# ${props.dashboardName}\nGolden signals per operation group, then webhooks, the event stream, ` +
        `the optimizer and telemetry. Objectives: ${slo.availability * 100} % of requests without a 5xx, ` +
        `${slo.latencyShare * 100} % within ${slo.latencyMs} ms. What each alarm means: docs/operations.md.`,
      width: 24,
      height: 2,
    }),
  );

  for (const [group, fn] of Object.entries(props.groups)) {
    const dims = { group };
    dashboard.addWidgets(new TextWidget({ markdown: groupRowTitle(group), width: 24, height: 1 }));
    dashboard.addWidgets(
      new GraphWidget({
        title: `${group}: traffic and errors`,
        left: [own(httpMetrics.requests, Stats.SUM, dims, 'requests')],
        right: [
          new MathExpression({
            expression: 'IF(requests > 0, 100 * errors / requests, 0)',
            usingMetrics: {
              requests: own(httpMetrics.requests, Stats.SUM, dims),
              errors: own(httpMetrics.errors, Stats.SUM, dims),
            },
            label: '5xx %',
            period,
          }),
        ],
        rightAnnotations: [{ value: (1 - slo.availability) * 100, label: 'error budget rate' }],
        width,
        height,
      }),
      new GraphWidget({
        title: `${group}: latency`,
        left: [
          own(httpMetrics.latency, Stats.percentile(50), dims, 'p50'),
          own(httpMetrics.latency, Stats.percentile(99), dims, 'p99'),
        ],
        leftAnnotations: [{ value: slo.latencyMs, label: 'latency objective' }],
        width,
        height,
      }),
      new GraphWidget({
        title: `${group}: saturation`,
        left: [fn.metric('ConcurrentExecutions', { statistic: Stats.MAXIMUM, period })],
        right: [fn.metricThrottles({ statistic: Stats.SUM, period })],
        width,
        height,
      }),
      new GraphWidget({
        title: `${group}: DynamoDB capacity by operation`,
        left: [perOperation(httpMetrics.readUnits, group, 'read units')],
        right: [perOperation(httpMetrics.writeUnits, group, 'write units')],
        width,
        height,
      }),
    );
  }

  const byOutcome = (metricName: string, outcomes: readonly string[]): IMetric[] =>
    outcomes.map((outcome) => own(metricName, Stats.SUM, { outcome }, outcome));
  const queueAges = Object.entries(props.workQueues).map(([name, queue]) =>
    queue.metricApproximateAgeOfOldestMessage({ period, statistic: Stats.MAXIMUM, label: name }),
  );
  const deadLetters = Object.entries(props.deadLetterQueues).map(([name, queue]) =>
    queue.metricApproximateNumberOfMessagesVisible({ period, statistic: Stats.MAXIMUM, label: name }),
  );
  dashboard.addWidgets(new TextWidget({ markdown: '### Webhooks and queues', width: 24, height: 1 }));
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Webhook deliveries by outcome',
      left: byOutcome(webhookMetrics.deliveries, webhookOutcomes),
      stacked: true,
      width: 6,
      height,
    }),
    new GraphWidget({
      title: 'Webhook delivery lag',
      left: [
        own(webhookMetrics.lag, Stats.percentile(50), { outcome: 'delivered' }, 'delivered p50'),
        own(webhookMetrics.lag, Stats.percentile(99), { outcome: 'delivered' }, 'delivered p99'),
      ],
      width: 6,
      height,
    }),
    new GraphWidget({ title: 'Oldest waiting message (s)', left: queueAges, width: 6, height }),
    new GraphWidget({ title: 'Dead-letter queues', left: deadLetters, width: 6, height }),
  );
  dashboard.addWidgets(
    new TextWidget({ markdown: '### Event stream, optimizer, telemetry', width: 24, height: 1 }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Event stream',
      left: [own(streamMetrics.connections, Stats.MAXIMUM, {}, 'connections (max per node)')],
      right: [
        own(streamMetrics.eventsSent, Stats.SUM, {}, 'events sent'),
        own(streamMetrics.opened, Stats.SUM, {}, 'connections opened'),
      ],
      width: 6,
      height,
    }),
    new GraphWidget({
      title: 'Container targets',
      left: [
        props.targetGroup.metrics.healthyHostCount({ period, statistic: Stats.MINIMUM }),
        props.targetGroup.metrics.unhealthyHostCount({ period, statistic: Stats.MAXIMUM }),
      ],
      width: 6,
      height,
    }),
    new GraphWidget({
      title: 'Optimization runs',
      left: byOutcome(optimizerMetrics.runs, optimizationOutcomes),
      right: [own(optimizerMetrics.duration, Stats.percentile(90), { outcome: 'succeeded' }, 'duration p90')],
      width: 6,
      height,
    }),
    new GraphWidget({
      title: 'Telemetry reports',
      left: byOutcome(telemetryMetrics.reports, ['accepted', 'refused']),
      stacked: true,
      width: 6,
      height,
    }),
  );
  addBackgroundWorkRow(dashboard, props.serviceName);
  dashboard.addWidgets(
    new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 6 }),
  );
  return dashboard;
}

/** The DynamoDB capacity of background work, one line per handler (stream-processor-live, …). */
function addBackgroundWorkRow(dashboard: Dashboard, serviceName: string): void {
  const perHandler = (metricName: string, label: string) =>
    new MathExpression({
      expression:
        `SEARCH('{${metricsNamespace},service,handler} MetricName="${metricName}" ` +
        `service="${serviceName}"', 'Sum', ${period.toSeconds()})`,
      usingMetrics: {},
      label,
      period,
    });
  dashboard.addWidgets(
    new TextWidget({ markdown: '### DynamoDB capacity of background work', width: 24, height: 1 }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'DynamoDB capacity by background handler (queues, the table stream, upload checks)',
      left: [perHandler(workMetrics.readUnits, 'read units')],
      right: [perHandler(workMetrics.writeUnits, 'write units')],
      width: 24,
      height,
    }),
  );
}
