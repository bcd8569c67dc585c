/**
 * One Lambda of this service: NodejsFunction bundled locally by esbuild (see bundling.ts),
 * arm64, nodejs24.x, X-Ray tracing active, logs into its own log group, and a role of its own
 * that may only write that log group (and trace segments) until the caller adds exactly what the
 * function touches.
 *
 * The function's lines are JSON already (Powertools' Logger, shared/observability/logger.ts),
 * which filters by LOG_LEVEL and samples debug (POWERTOOLS_LOGGER_SAMPLE_RATE). Lambda's JSON log
 * format is not used: its application log level (AWS_LAMBDA_LOG_LEVEL) takes precedence over
 * both in the Logger, so no invocation could be sampled at debug.
 *
 * The role is built here instead of taking NodejsFunction's default, which attaches the
 * AWSLambdaBasicExecutionRole managed policy (logs on every log group of the account).
 */
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { functionTimeoutSeconds } from '../shared/aws/client-deadlines.ts';
import { tableDefinition } from '../shared/data/table-definition.ts';
import { bundleFileName, lambdaBundling, repoRoot } from './bundling.ts';

export interface ServiceFunctionProps {
  /** Absolute path of the entry module. */
  entry: string;
  /** Exported handler name. */
  handler?: string;
  description: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  removalPolicy: RemovalPolicy;
  memorySize?: number;
  timeout?: Duration;
  /**
   * Files shipped beside the bundle: destination folder (relative to the bundle) → absolute
   * source files. Copied after esbuild runs; the function finds them under LAMBDA_TASK_ROOT.
   */
  files?: Record<string, readonly string[]>;
}

export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description} (Lambda execution role)`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: props.handler ?? 'handler',
      description: props.description,
      projectRoot: repoRoot,
      depsLockFilePath: `${repoRoot}/package-lock.json`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(functionTimeoutSeconds),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.TEXT,
      tracing: Tracing.ACTIVE,
      environment: {
        ...props.environment,
        LOG_LEVEL: props.logLevel,
        // No --enable-source-maps: stacks are mapped when formatted
        // (shared/observability/bundle-stack-traces.ts), not parsed at every cold start.
      },
      bundling: {
        forceDockerBundling: false,
        target: lambdaBundling.target,
        format: lambdaBundling.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
        minify: lambdaBundling.minify,
        sourceMap: lambdaBundling.sourceMap,
        sourcesContent: lambdaBundling.sourcesContent,
        mainFields: [...lambdaBundling.mainFields],
        bundleAwsSDK: lambdaBundling.bundleAwsSdk,
        esbuildArgs: lambdaBundling.bundleAwsSdk
          ? Object.fromEntries(
              Object.entries(lambdaBundling.alias).map(([from, to]) => [`--alias:${from}`, to]),
            )
          : {},
        commandHooks: afterBundling(props.files ?? {}),
      },
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which have no ' +
        'resource-level permissions (AWS requires Resource "*").',
    });
  }

  /** Allow exactly these DynamoDB actions on the table (and its indexes, for a role that may Query). */
  allowTable(table: ITableV2, actions: readonly string[]): void {
    if (actions.length === 0) return;
    this.role.addToPolicy(
      new PolicyStatement({ actions: [...actions], resources: tableResources(table, actions) }),
    );
  }
}

/**
 * Bundling hooks run once esbuild has written the bundle: its source map scoped to our own code
 * (lib/source-map-scope.ts, by the Node that runs this CDK app, which runs TypeScript), then
 * `files` copied into the output folder.
 */
function afterBundling(files: Record<string, readonly string[]>) {
  const quote = (path: string) => `'${path.replace(/'/g, "'\\''")}'`;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) => [
      ...(lambdaBundling.sourceMap
        ? [
            [process.execPath, `${repoRoot}/bin/scope-source-map.ts`, `${outputDir}/${bundleFileName}.map`]
              .map(quote)
              .join(' '),
          ]
        : []),
      ...Object.entries(files).flatMap(([folder, sources]) => [
        `mkdir -p ${quote(`${outputDir}/${folder}`)}`,
        ...sources.map((source) => `cp ${quote(source)} ${quote(`${outputDir}/${folder}/`)}`),
      ]),
    ],
  };
}

/**
 * The table's ARN, plus each list index by name for a role that may Query (writes reach the
 * indexes through the table; only reads name them). Named, not `index/*`: least privilege.
 */
export function tableResources(table: ITableV2, actions: readonly string[] = ['dynamodb:Query']): string[] {
  return actions.includes('dynamodb:Query')
    ? [table.tableArn, ...tableDefinition.indexes.map((index) => `${table.tableArn}/index/${index.name}`)]
    : [table.tableArn];
}
