/**
 * What an operator on call relies on: every function traced (X-Ray, active) with a log group
 * that expires and an alarm on its errors; one dashboard per environment with a row of golden
 * signals for every operation group; burn-rate alarms on availability and latency per group.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { groupRowTitle } from '../../lib/dashboard.ts';
import { environments } from '../../lib/environments.ts';
import { MonitoringStack } from '../../lib/monitoring-stack.ts';
import { burnWindows } from '../../lib/slo-alarms.ts';
import { operationGroups } from '../../shared/routes/route-table.ts';
import { createTestApp, testOutdir } from '../support/cdk-app.ts';

type Resource = { Type: string; Properties: Record<string, any> };

let stacks: EnvironmentStacks;
let data: Record<string, Resource>;
let service: Record<string, Resource>;
let monitoring: Record<string, Resource>;

beforeAll(() => {
  stacks = addEnvironmentStacks(createTestApp(), 'staging', { nag: false });
  const resources = (stack: Parameters<typeof Template.fromStack>[0]) =>
    Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  data = resources(stacks.data);
  service = resources(stacks.service);
  monitoring = resources(stacks.monitoring);
}, 180_000);

const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type);

/**
 * The service's functions. CDK's own handlers (the default security group's lockdown, the
 * upload bucket's notifications) are built by CDK without tracing or a log group of their own.
 */
const cdkHandlers = ['CustomVpcRestrictDefaultSG', 'BucketNotificationsHandler'];
const ownFunctions = (resources: Record<string, Resource>) =>
  ofType(resources, 'AWS::Lambda::Function').filter(([id]) => !cdkHandlers.some((p) => id.startsWith(p)));

describe('Stacks: every function', () => {
  it('is traced by X-Ray (active tracing)', () => {
    const functions = [...ownFunctions(data), ...ownFunctions(service)];
    expect(functions.length).toBeGreaterThan(20);
    for (const [id, fn] of functions) expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
  });

  it('logs into a log group of its own that expires', () => {
    for (const resources of [data, service]) {
      for (const [id, fn] of ownFunctions(resources)) {
        const logGroupId = fn.Properties.LoggingConfig?.LogGroup?.Ref;
        expect(logGroupId, id).toBeDefined();
        expect(resources[logGroupId]?.Properties.RetentionInDays, id).toBeGreaterThan(0);
      }
    }
  });

  it('of the service stack has an alarm on its errors', () => {
    const alarmed = new Set(
      ofType(service, 'AWS::CloudWatch::Alarm')
        .filter(([, alarm]) => alarm.Properties.MetricName === 'Errors')
        .map(([, alarm]) => alarm.Properties.Dimensions?.[0]?.Value?.Ref),
    );
    for (const [id] of ownFunctions(service)) expect(alarmed.has(id), id).toBe(true);
  });

  it("alarms when offline sync's changes reach the feeds more than 2 minutes late", () => {
    const lag = ofType(service, 'AWS::CloudWatch::Alarm').find(
      ([, alarm]) => alarm.Properties.MetricName === 'SyncIndexLag',
    );
    expect(lag?.[1].Properties).toMatchObject({
      Namespace: 'FieldService',
      Statistic: 'Maximum',
      Threshold: 120_000,
      Dimensions: [{ Name: 'service', Value: 'fsm-staging' }],
    });
  });

  it('writes its metrics under the environment service name', () => {
    for (const [id, fn] of ownFunctions(service)) {
      expect(fn.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME, id).toBe('fsm-staging');
      expect(fn.Properties.Environment.Variables.POWERTOOLS_LOGGER_SAMPLE_RATE, id).toBe('0.1');
    }
  });
});

describe('Stack: service > dashboard', () => {
  it('has one dashboard named after the environment with a row for every operation group', () => {
    const dashboards = ofType(service, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const [, dashboard] = dashboards[0]!;
    expect(dashboard.Properties.DashboardName).toBe('fsm-staging');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const group of operationGroups) {
      expect(body, group).toContain(JSON.stringify(groupRowTitle(group)).slice(1, -1));
      expect(body, group).toContain(`${group}: latency`);
      expect(body, group).toContain(`${group}: DynamoDB capacity by operation`);
      expect(body, group).toMatch(
        new RegExp(
          `SEARCH\\('[^']*MetricName=\\W+DynamoDBReadUnits\\W+service=\\W+fsm-staging\\W+group=\\W+${group}\\W`,
        ),
      );
    }
  });
});

describe('Stack: service > dashboard, background work', () => {
  it('shows the DynamoDB capacity of every background handler', () => {
    const [, dashboard] = ofType(service, 'AWS::CloudWatch::Dashboard')[0]!;
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    expect(body).toContain('DynamoDB capacity by background handler');
    expect(body).toMatch(/SEARCH\('\{FieldService,service,handler\} MetricName=\W+DynamoDBWriteUnits\W/);
  });
});

describe('Stack: monitoring > service level objectives', () => {
  it.each(operationGroups)('alarms on the burn rate of availability and latency of %s', (group) => {
    const windows = ofType(monitoring, 'AWS::CloudWatch::Alarm')
      .map(([id, alarm]) => ({ id, alarm }))
      .filter(({ alarm }) => JSON.stringify(alarm.Properties.Metrics).includes(`"group","Value":"${group}"`));
    // Per objective and window pair, a long and a short window (staging has shortWindows).
    expect(windows).toHaveLength(2 * 2 * burnWindows.length);
    const periods = new Set(
      windows.flatMap(({ alarm }) =>
        (alarm.Properties.Metrics as { MetricStat?: { Period: number } }[]).flatMap((m) =>
          m.MetricStat ? [m.MetricStat.Period] : [],
        ),
      ),
    );
    expect([...periods].sort((a, b) => Number(a) - Number(b))).toEqual([300, 1800, 3600, 21600]);
    for (const { alarm } of windows) {
      expect(alarm.Properties.AlarmActions ?? []).toHaveLength(0);
      expect(alarm.Properties.Threshold).toBeGreaterThanOrEqual(6);
    }
    // What notifies: a composite alarm per objective and pair, needing both of its windows.
    const ids = new Set(windows.map(({ id }) => id));
    const composites = ofType(monitoring, 'AWS::CloudWatch::CompositeAlarm')
      .map(([, alarm]) => alarm)
      .filter((alarm) => JSON.stringify(alarm.Properties.AlarmRule).includes(`${group.replace(/-/g, '')}`));
    const notifying = composites.filter((alarm) =>
      [...ids].some((id) => JSON.stringify(alarm.Properties.AlarmRule).includes(id)),
    );
    expect(notifying).toHaveLength(2 * burnWindows.length);
    for (const alarm of notifying) {
      expect(alarm.Properties.AlarmActions).toHaveLength(1);
      expect(alarm.Properties.OKActions).toHaveLength(1);
      const rule = JSON.stringify(alarm.Properties.AlarmRule);
      expect(rule).toContain(' AND ');
      expect([...ids].filter((id) => rule.includes(id))).toHaveLength(2);
    }
  });

  it('keeps long windows only, each alarm notifying, where shortWindows is off (dev)', () => {
    const app = new App({ outdir: testOutdir() });
    const topic = new Topic(new Stack(app, 'Topics'), 'Alarms');
    const dev = new MonitoringStack(app, 'DevMonitoring', {
      envName: 'dev',
      settings: environments.dev,
      topic,
    });
    const template = Template.fromStack(dev).toJSON().Resources as Record<string, Resource>;
    const alarms = ofType(template, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm);
    expect(ofType(template, 'AWS::CloudWatch::CompositeAlarm')).toHaveLength(0);
    expect(alarms).toHaveLength(operationGroups.length * 2 * burnWindows.length);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });

  it('reads the latency objective as a percentile rank of the Latency metric', () => {
    const stats = ofType(monitoring, 'AWS::CloudWatch::Alarm').flatMap(([, alarm]) =>
      (alarm.Properties.Metrics as { MetricStat?: { Stat: string } }[]).map((m) => m.MetricStat?.Stat),
    );
    expect(stats).toContain('PR(0:1000)');
  });
});
