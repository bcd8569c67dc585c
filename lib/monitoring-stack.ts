/**
 * The environment's service level objectives: burn-rate alarms per operation group
 * (slo-alarms.ts) on the same alarm topic as the service stack's alarms. A stack of its own
 * because the service stack is close to CloudFormation's 500 resources per stack, and these
 * alarms read only the service's own metrics by name: nothing here references a resource but
 * the topic.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { serviceNameOf } from '../shared/observability/metric-names.ts';
import { operationGroups } from '../shared/routes/route-table.ts';
import type { EnvironmentName, EnvironmentSettings } from './environments.ts';
import { SloAlarms } from './slo-alarms.ts';

export interface MonitoringStackProps extends StackProps {
  envName: EnvironmentName;
  settings: EnvironmentSettings;
  /** The service stack's alarm topic. */
  topic: ITopic;
}

export class MonitoringStack extends Stack {
  readonly slo: SloAlarms;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    this.slo = new SloAlarms(this, 'Slo', {
      settings: props.settings,
      serviceName: serviceNameOf(props.envName),
      groups: operationGroups,
      topic: props.topic,
    });
  }
}
