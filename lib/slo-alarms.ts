/**
 * Service level objectives per operation group, and alarms on how fast each burns its error
 * budget (the multiwindow, multi-burn-rate alerts of Google's SRE workbook): an alarm fires when
 * the last hour spent the budget 14.4 times as fast as 30 days allow (2 % of the month's budget
 * in an hour: page), or the last 6 hours 6 times as fast (5 % in 6 hours: ticket). With
 * `shortWindows` (staging, prod) each also needs its short window, the last 5 minutes (30 for
 * the 6 hours), burning as fast: a composite alarm of the two, so the alarm starts while the
 * problem is still happening and ends minutes after it stops, not an hour later. The short
 * window asks for at least one request (it says whether the problem goes on), the long one for
 * `minimumRequests`.
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
  AlarmRule,
  AlarmState,
  ComparisonOperator,
  CompositeAlarm,
  type IAlarm,
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
  { name: 'Fast', window: Duration.hours(1), shortWindow: Duration.minutes(5), burnRate: 14.4 },
  { name: 'Slow', window: Duration.hours(6), shortWindow: Duration.minutes(30), burnRate: 6 },
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

/** One objective's burn rate over a window: the expression and what it is called. */
interface BurnExpression {
  objective: 'Availability' | 'Latency';
  expression: ConstructorParameters<typeof MathExpression>[0];
}

export class SloAlarms extends Construct {
  /** What notifies: per group, objective and window pair, one alarm (or composite alarm). */
  readonly alarms: IAlarm[] = [];

  constructor(scope: Construct, id: string, props: SloAlarmsProps) {
    super(scope, id);
    const { slo } = props.settings.alarms;
    const action = new SnsAction(props.topic);
    for (const group of props.groups) {
      for (const { name, window, shortWindow, burnRate } of burnWindows) {
        const hours = window.toHours();
        const descriptions = {
          Availability: `Operation group ${group} answers 5xx ${burnRate}x as often as its ${percent(slo.availability)} availability objective allows, over the last ${hours} h${slo.shortWindows ? ` and the last ${shortWindow.toMinutes()} min` : ''} (docs/operations.md#slo-burn).`,
          Latency: `Operation group ${group} answers slower than ${slo.latencyMs} ms ${burnRate}x as often as its objective (${percent(slo.latencyShare)} within) allows, over the last ${hours} h${slo.shortWindows ? ` and the last ${shortWindow.toMinutes()} min` : ''} (docs/operations.md#slo-burn).`,
        };
        const long = burnExpressions(group, window, minimumRequests, props.serviceName, slo);
        const short = slo.shortWindows
          ? burnExpressions(group, shortWindow, 1, props.serviceName, slo)
          : undefined;
        for (const [index, burn] of long.entries()) {
          const alarmName = `${group}-${burn.objective}-${name}Burn`;
          const shortBurn = short?.[index];
          if (!shortBurn) {
            this.notify(action, this.burnAlarm(alarmName, burn, burnRate, descriptions[burn.objective]));
            continue;
          }
          const longAlarm = this.burnAlarm(`${alarmName}-Long`, burn, burnRate, descriptions[burn.objective]);
          const shortAlarm = this.burnAlarm(
            `${alarmName}-Short`,
            shortBurn,
            burnRate,
            descriptions[burn.objective],
          );
          this.notify(
            action,
            new CompositeAlarm(this, alarmName, {
              alarmRule: AlarmRule.allOf(
                AlarmRule.fromAlarm(longAlarm, AlarmState.ALARM),
                AlarmRule.fromAlarm(shortAlarm, AlarmState.ALARM),
              ),
              alarmDescription: descriptions[burn.objective],
            }),
          );
        }
      }
    }
  }

  /** A burn-rate alarm without actions of its own (a composite's part) or to be notified. */
  private burnAlarm(id: string, burn: BurnExpression, threshold: number, description: string): Alarm {
    return new Alarm(this, id, {
      metric: new MathExpression(burn.expression),
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
  }

  private notify(action: SnsAction, alarm: Alarm | CompositeAlarm): void {
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
  }
}

/** The availability and latency burn rates of `group` over `window`. */
function burnExpressions(
  group: string,
  window: Duration,
  leastRequests: number,
  serviceName: string,
  slo: EnvironmentSettings['alarms']['slo'],
): BurnExpression[] {
  const metric = (metricName: string, statistic: string) =>
    new Metric({
      namespace: metricsNamespace,
      metricName,
      dimensionsMap: { service: serviceName, group },
      statistic,
      period: window,
    });
  const requests = metric(httpMetrics.requests, Stats.SUM);
  const span = window.toMinutes() >= 60 ? `${window.toHours()} h` : `${window.toMinutes()} min`;
  return [
    {
      objective: 'Availability',
      expression: {
        expression: `IF(requests >= ${leastRequests}, (errors / requests) / ${round(1 - slo.availability)}, 0)`,
        usingMetrics: { requests, errors: metric(httpMetrics.errors, Stats.SUM) },
        label: `${group}: availability budget burn rate (${span})`,
        period: window,
      },
    },
    {
      objective: 'Latency',
      expression: {
        expression: `IF(requests >= ${leastRequests}, ((100 - within) / 100) / ${round(1 - slo.latencyShare)}, 0)`,
        usingMetrics: {
          requests,
          within: metric(httpMetrics.latency, Stats.percentileRank(0, slo.latencyMs)),
        },
        label: `${group}: latency budget burn rate (${span})`,
        period: window,
      },
    },
  ];
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function percent(share: number): string {
  return `${round(share * 100)} %`;
}
