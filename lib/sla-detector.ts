/**
 * The service-level detector on AWS: a function run by an EventBridge rule once a minute
 * (functions/sla-detector, shared/domain/cases/sla-detector.ts). A run reads the minutes of the
 * due-time index that passed and writes the cases whose sla_status time changed; the design:
 * docs/service-levels.md.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { ServiceFunction } from './service-function.ts';
import { slaDetectorTableActions } from './table-access.ts';

export interface SlaDetectorProps {
  table: ITableV2;
  settings: EnvironmentSettings;
}

/**
 * A run settles a minute in well under a second; a minute of thousands of due cases (a whole
 * workspace due at 17:00) takes longer, and the timeout stays below the period so runs rarely
 * overlap (they may: conditional writes keep that safe).
 */
const timeoutSeconds = 55;
/**
 * Two at once are safe but useless: a third would only read the same minutes again. Two lets a
 * run that overran its minute not delay the next.
 */
const reservedConcurrency = 2;

export class SlaDetector extends Construct {
  readonly worker: ServiceFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: SlaDetectorProps) {
    super(scope, id);
    const { settings, table } = props;
    this.worker = new ServiceFunction(this, 'Worker', {
      entry: functionEntry('sla-detector'),
      description: 'Service levels: marks cases AT_RISK and BREACHED as their due_by comes, once a minute',
      environment: { FSM_TABLE_NAME: table.tableName },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      timeout: Duration.seconds(timeoutSeconds),
    });
    (this.worker.function.node.defaultChild as CfnFunction).reservedConcurrentExecutions =
      reservedConcurrency;
    this.worker.allowTable(table, slaDetectorTableActions);
    this.rule = new Rule(this, 'EveryMinute', {
      description: 'Runs the service-level detector (due_by of cases) once a minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      // A missed run is made up by the next one (the cursor), so no retries queue behind it.
      targets: [new LambdaFunction(this.worker.function, { retryAttempts: 0 })],
    });
  }

  /**
   * An error alarm (lib/observability.ts) says nothing when no run starts at all (the rule
   * disabled or deleted, the function throttled): breaches would silently stop. Fewer than 3
   * runs in 5 minutes, or none reported, alarms.
   */
  alarmWhenSilent(topic: ITopic): Alarm {
    const alarm = new Alarm(this, 'RunsMissing', {
      alarmDescription:
        'The service-level detector ran fewer than 3 times in 5 minutes: cases are not marked AT_RISK or ' +
        'BREACHED on time. Check the EveryMinute rule is enabled and the function is not throttled.',
      metric: this.worker.function.metricInvocations({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 3,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(topic));
    return alarm;
  }
}
