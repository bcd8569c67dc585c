/**
 * Service level objectives per operation group, and alarms on how fast each burns its error
 * budget (the multiwindow burn rates of Google's SRE workbook, long windows only): an alarm fires
 * when the last hour spent the budget 14.4 times as fast as 30 days allow (2 % of the month's
 * budget in an hour: page), or the last 6 hours 6 times as fast (5 % in 6 hours: ticket).
 *
 * - availability: the share of requests answered without a 5xx (Errors / Requests);
 * - latency: the share answered within `latencyMs`, read as the Latency metric's percentile rank
 *   (PR(0:latencyMs)): the p99 objective as a budget rather than a bare threshold.
 *
 * Both read the service's own metrics (shared/observability/metrics.ts), by group. A window with
 * fewer than `minimumRequests` requests does not alarm: one failed request of three is no outage.
 */
import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { httpMetrics, metricsNamespace } from '../shared/observability/metric-names.ts';
import type { EnvironmentSettings } from './environments.ts';

export const burnWindows = [
  { name: 'Fast', window: Duration.hours(1), burnRate: 14.4 },
  { name: 'Slow', window: Duration.hours(6), burnRate: 6 },
] as const;

export const minimumRequests = 20;

export interface SloAlarmsProps {
  settings: EnvironmentSettings;
  /** The `service` dimension of this environment (fsm-<env>). */
  serviceName: string;
  /** Every operation group of the route table. */
  groups: readonly string[];
  topic: ITopic;
}

export class SloAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: SloAlarmsProps) {
    super(scope, id);
    const { slo } = props.settings.alarms;
    const action = new SnsAction(props.topic);
    for (const group of props.groups) {
      for (const { name, window, burnRate } of burnWindows) {
        const metric = (metricName: string, statistic: string) =>
          new Metric({
            namespace: metricsNamespace,
            metricName,
            dimensionsMap: { service: props.serviceName, group },
            statistic,
            period: window,
          });
        const requests = metric(httpMetrics.requests, Stats.SUM);
        const hours = window.toHours();
        this.add(
          action,
          `${group}-Availability-${name}Burn`,
          {
            expression: `IF(requests >= ${minimumRequests}, (errors / requests) / ${round(1 - slo.availability)}, 0)`,
            usingMetrics: { requests, errors: metric(httpMetrics.errors, Stats.SUM) },
            label: `${group}: availability budget burn rate (${hours} h)`,
            period: window,
          },
          burnRate,
          `Operation group ${group} answers 5xx ${burnRate}x as often as its ${percent(slo.availability)} availability objective allows, over the last ${hours} h (docs/operations.md#slo-burn).`,
        );
        this.add(
          action,
          `${group}-Latency-${name}Burn`,
          {
            expression: `IF(requests >= ${minimumRequests}, ((100 - within) / 100) / ${round(1 - slo.latencyShare)}, 0)`,
            usingMetrics: {
              requests,
              within: metric(httpMetrics.latency, Stats.percentileRank(0, slo.latencyMs)),
            },
            label: `${group}: latency budget burn rate (${hours} h)`,
            period: window,
          },
          burnRate,
          `Operation group ${group} answers slower than ${slo.latencyMs} ms ${burnRate}x as often as its objective (${percent(slo.latencyShare)} within) allows, over the last ${hours} h (docs/operations.md#slo-burn).`,
        );
      }
    }
  }

  private add(
    action: SnsAction,
    id: string,
    expression: ConstructorParameters<typeof MathExpression>[0],
    threshold: number,
    description: string,
  ): void {
    const alarm = new Alarm(this, id, {
      metric: new MathExpression(expression),
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
  }
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function percent(share: number): string {
  return `${round(share * 100)} %`;
}
