/**
 * Maintenance plan generation on AWS: a function that keeps every active plan's horizon filled
 * with one case per occurrence (functions/maintenance-generator), run by an EventBridge schedule.
 * Every 10 minutes: occurrences are generated a horizon (days) ahead, so the schedule only bounds
 * how soon an occurrence entering the horizon gets its case; a new or edited plan does not wait for
 * it (the records stream processor generates it at once: plan-generation.consumer.ts). Two runs
 * overlapping (a slow run and the next tick) are harmless: every case is claimed by its occurrence.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { ServiceFunction } from './service-function.ts';
import { tableActions } from './table-access.ts';

export const maintenanceScheduleMinutes = 10;
/** A run stops taking up plans a minute before this (the handler's reserve). */
export const maintenanceTimeoutMinutes = 5;

export interface MaintenanceGenerationProps {
  table: ITableV2;
  settings: EnvironmentSettings;
  environment: Record<string, string>;
}

export class MaintenanceGeneration extends Construct {
  readonly generator: ServiceFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: MaintenanceGenerationProps) {
    super(scope, id);
    const { table, settings } = props;
    this.generator = new ServiceFunction(this, 'Generator', {
      entry: functionEntry('maintenance-generator'),
      description: 'Generates the cases of maintenance plans: one per occurrence of each horizon',
      environment: { ...props.environment, FSM_TABLE_NAME: table.tableName },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.lambdaMemoryMb,
      timeout: Duration.minutes(maintenanceTimeoutMinutes),
    });
    // Plans, cursors and claims (Query, BatchGetItem), cases with their claims (transactions).
    this.generator.allowTable(table, tableActions['read-write']);
    this.rule = new Rule(this, 'Schedule', {
      description: 'Keeps the cases of every active maintenance plan generated over its horizon',
      schedule: Schedule.rate(Duration.minutes(maintenanceScheduleMinutes)),
      targets: [new LambdaFunction(this.generator.function, { retryAttempts: 0 })],
    });
  }
}
