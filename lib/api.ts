/**
 * The REST surface: an HTTP API whose routes come from the route table, one Lambda per
 * operation group with exactly the table access its group declares (table-access.ts), and a
 * `$default` route whose Lambda answers problem-document 404/405 for everything else.
 */
import { join } from 'node:path';
import { Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { referenceAssets, referencePageDir } from '../shared/openapi/reference-page.ts';
import { type OperationGroup, operationGroups } from '../shared/routes/route-table.ts';
import { configureBillingProvider } from './billing-provider.ts';
import { functionEntry, repoRoot } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { addRoutesFromTable } from './route-integration.ts';
import { ServiceFunction } from './service-function.ts';
import { routesProviderArn } from './solver.ts';
import {
  groupExtraTableActions,
  groupTableAccess,
  mailSendingGroups,
  routeMatrixGroups,
  smsSendingGroups,
  tableActions,
  uploadGroups,
} from './table-access.ts';
import { allowUploads } from './upload-checks.ts';

export interface ApiProps {
  table: ITableV2;
  settings: EnvironmentSettings;
  /** FSM_* variables every function gets (base URL, auth URL, problems URL, audience). */
  environment: Record<string, string>;
  /** The private upload bucket: the upload groups sign forms for it and read from it. */
  uploadBucket?: IBucket;
}

/** One JSON object per request; `requestId` is also the `apigw-requestid` response header. */
const accessLogFields = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
};

export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The Lambda of every operation group. */
  readonly groupFunctions: Record<OperationGroup, ServiceFunction>;
  /** The `$default` route's Lambda. */
  readonly fallbackFunction: ServiceFunction;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { settings, table } = props;
    const common = {
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.lambdaMemoryMb,
      timeout: Duration.seconds(10),
    };

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Field service REST API; routes generated from shared/routes/route-table.ts',
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: settings.apiThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });

    const functions = {} as Record<OperationGroup, ServiceFunction>;
    for (const group of operationGroups) {
      const access = groupTableAccess[group];
      const fn = new ServiceFunction(this, `Group-${group}`, {
        ...common,
        entry: functionEntry(group),
        description: `Operation group ${group}`,
        ...(group === 'platform' ? { files: referencePageFiles() } : {}),
        environment: {
          ...props.environment,
          ...(access === 'none' ? {} : { FSM_TABLE_NAME: table.tableName }),
        },
      });
      fn.allowTable(table, [...tableActions[access], ...(groupExtraTableActions[group] ?? [])]);
      if ((mailSendingGroups as readonly string[]).includes(group)) this.allowMail(fn, settings);
      if ((smsSendingGroups as readonly string[]).includes(group)) this.allowSms(fn);
      if (group === 'billing') configureBillingProvider(fn, settings);
      // Slots and bookings see the day with the workspace's travel, as runs do (Amazon Location).
      if ((routeMatrixGroups as readonly string[]).includes(group)) allowRouteMatrices(fn);
      if (props.uploadBucket && (uploadGroups as readonly string[]).includes(group)) {
        allowUploads(fn, props.uploadBucket);
      }
      functions[group] = fn;
    }
    this.groupFunctions = functions;

    const lambdas = {} as Record<OperationGroup, IFunction>;
    for (const group of operationGroups) lambdas[group] = functions[group].function;
    const tableRoutes = addRoutesFromTable(this, this.httpApi, lambdas);

    this.fallbackFunction = new ServiceFunction(this, 'Fallback', {
      ...common,
      entry: functionEntry('platform'),
      handler: 'fallbackHandler',
      description: 'Default route: problem-document 404/405 for requests no route matches',
      environment: props.environment,
    });
    const defaultRoute = new HttpRoute(this, 'Route-$default', {
      httpApi: this.httpApi,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('Integration-fallback', this.fallbackFunction.function),
    });

    for (const route of [...tableRoutes, defaultRoute]) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization happens in the Lambda kernel (shared/http/operation-kernel.ts): tokens come from ' +
          'one issuer per realm, which an API Gateway JWT authorizer (one issuer) cannot verify; public ' +
          'routes (health, OpenAPI, the 404 fallback) are public by design.',
      });
    }
  }

  /**
   * sns:Publish for SMS to phone numbers. A direct-to-phone publish names no topic, so IAM cannot
   * narrow it to a resource; every topic is denied instead. Only this group has it.
   */
  private allowSms(fn: ServiceFunction): void {
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        resources: ['*'],
      }),
    );
    // ...so publishes to any topic (the event stream's among them) are denied outright: the
    // statement above serves SMS alone.
    fn.role.addToPolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['sns:Publish'],
        resources: ['arn:aws:sns:*:*:*'],
      }),
    );
    Validations.of(fn.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'SNS publishes an SMS to a phone number, not to a topic ARN, so the resource cannot be narrowed; ' +
        'only the devices group (setup SMS) has it.',
    });
  }

  /** ses:SendEmail from the configured sender's identities only. */
  private allowMail(fn: ServiceFunction, settings: EnvironmentSettings): void {
    const from = settings.mailFrom ?? (settings.domain ? `no-reply@${settings.domain.name}` : undefined);
    if (from) fn.function.addEnvironment('FSM_MAIL_FROM', from);
    const { region, account } = Stack.of(this);
    const domain = from?.split('@')[1];
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: from
          ? [
              `arn:aws:ses:${region}:${account}:identity/${from}`,
              `arn:aws:ses:${region}:${account}:identity/${domain}`,
            ]
          : [`arn:aws:ses:${region}:${account}:identity/*`],
      }),
    );
    if (!from) {
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:aws:ses:${Token.isUnresolved(region) ? '<AWS::Region>' : region}:<AWS::AccountId>:identity/*]`,
        reason:
          'No sender is configured (settings.mailFrom / a custom domain), so the sender is derived from the ' +
          'distribution host at run time; SES still only sends from verified identities of this account.',
      });
    }
  }
}

/** The reference page's files (swagger-ui-dist), shipped beside the platform function. */
function referencePageFiles(): Record<string, string[]> {
  const dist = join(repoRoot, 'node_modules', 'swagger-ui-dist');
  return { [referencePageDir]: Object.values(referenceAssets).map((asset) => join(dist, asset.file)) };
}

/** geo-routes:CalculateRouteMatrix on the provider Amazon Location's routes (v2) answer from. */
export function allowRouteMatrices(fn: ServiceFunction): void {
  fn.function.addEnvironment('FSM_TRAVEL_PROVIDERS', 'amazon-location');
  fn.role.addToPolicy(
    new PolicyStatement({
      actions: ['geo-routes:CalculateRouteMatrix'],
      resources: [routesProviderArn(Stack.of(fn))],
    }),
  );
}
