/**
 * Every deployable environment and everything that differs between them, in one typed place.
 *
 * The CDK app picks one with `-c env=<name>` (default `dev`). Anything not listed here is the
 * same everywhere and lives next to the construct that uses it. Adding an environment is one
 * more entry in `environments`; a missing field is a type error.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export const environmentNames = ['dev', 'staging', 'prod'] as const;
export type EnvironmentName = (typeof environmentNames)[number];

export interface EnvironmentSettings {
  /** Region of every stack. CloudFront certificates must still come from us-east-1. */
  region: string;
  /**
   * Pin the AWS account. Leave undefined to deploy into the account of the CLI's credentials.
   * A pinned account makes the VPC ask for availability zones: put the
   * `availability-zones:account=…:region=…` entry into cdk.json (or let `cdk synth` with
   * credentials write cdk.context.json once and commit it) so CI stays offline.
   */
  account?: string;
  /** Explicit AZs keep `cdk synth` offline and the template identical in CI and on deploy. */
  availabilityZones: readonly string[];
  /** NAT gateways for the Fargate tasks' egress (ECR, Secrets Manager, logs). One is cheaper, two survive an AZ outage. */
  natGateways: number;

  /** What happens to the table, buckets, queues and secrets when the stack or resource goes away. */
  removalPolicy: RemovalPolicy;
  /** DynamoDB deletion protection (on outside dev). */
  tableDeletionProtection: boolean;
  /**
   * How many of the table's list indexes to deploy (default all). CloudFormation adds one global
   * secondary index per table update, so an existing table gets them one deploy at a time:
   * `-c tableIndexes=1`, then 2, … (docs/deploy.md).
   */
  tableIndexCount?: number;
  /** Retention of every log group this app creates. */
  logRetention: RetentionDays;
  /** LOG_LEVEL of the functions and the container. */
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Share of Lambda invocations (0..1) that log at debug whatever `logLevel` says
   * (POWERTOOLS_LOGGER_SAMPLE_RATE): a sample of full detail without paying for it everywhere.
   * The container decides once per task.
   */
  debugSampleRate: number;

  /**
   * Optional custom domain for the CloudFront distribution, the public base URL. Without it the
   * distribution's `*.cloudfront.net` name is the base URL.
   */
  domain?: {
    /** e.g. `api.example.com` */
    name: string;
    /** ACM certificate for `name`, issued in us-east-1 (CloudFront's requirement). */
    certificateArn: string;
    /** When given, an alias A/AAAA record is created in this hosted zone. */
    hostedZone?: { id: string; name: string };
  };
  /**
   * Optional AWS WAF web ACL (scope CLOUDFRONT, so created in us-east-1) for the distribution,
   * by ARN. Managed outside this app because a CLOUDFRONT-scope ACL cannot live in this region.
   */
  webAclArn?: string;
  /** FSM_PROBLEMS_BASE_URL; default `{base_url}/problems/`. */
  problemsBaseUrl?: string;
  /**
   * FSM_AUTH_URL, the identity provider's origin (issuers are `{auth_url}/realms/{realm}`);
   * default: the base URL, because CloudFront routes `/realms/*` to the container.
   */
  authUrl?: string;
  /** FSM_API_AUDIENCE: the `aud` every access token must carry. */
  apiAudience: string;
  /** FSM_AUTH_CACHE_SECONDS. */
  authCacheSeconds: number;
  /**
   * FSM_MAIL_FROM: the sender of invitation and set-password e-mail, sent through Amazon SES.
   * Its address or domain must be a verified SES identity in the region (and the account out of
   * the SES sandbox to mail arbitrary recipients). Default: `no-reply@<the domain>` when a
   * custom domain is set, else unset (the functions then use `no-reply@<base URL host>`).
   */
  mailFrom?: string;
  /**
   * Origins allowed to POST browser uploads straight to the bucket. `*` is acceptable: a
   * presigned POST is authorised by its signed policy, not by the page's origin.
   */
  uploadCorsOrigins: readonly string[];
  /**
   * The payment provider of billing (lib/billing-provider.ts): the full ARN of a Secrets Manager
   * secret holding the Stripe secret API key (`sk_live_…`, or JSON `{"secret_key": "sk_…"}`).
   * Without it the deployment has no provider: the billing profile works, portal sessions and
   * the billing recheck answer 503.
   */
  stripeSecretArn?: string;

  /** Memory of every API function; CPU (and so cold start) scales with it. */
  lambdaMemoryMb: number;
  /**
   * The solver of optimization runs (lib/solver.ts): its memory (CPU scales with it; the
   * optimizer is single-threaded, so 2 GB and more buy a full vCPU and room for large matrices)
   * and its reserved concurrency: 2 for the dead-letter queue's event source, the rest the runs
   * solved at once (lib/solver-settings.ts, `solverMappingConcurrencyOrThrow`; at least 4: each
   * event source takes 2 at least). The account must keep 100 unreserved executions besides.
   */
  solver: { memoryMb: number; reservedConcurrency: number };
  /** Stage-wide API Gateway throttling. */
  apiThrottle: { rateLimit: number; burstLimit: number };
  priceClass: PriceClass;

  container: {
    cpu: 256 | 512 | 1024 | 2048 | 4096;
    memoryMiB: number;
    minTasks: number;
    maxTasks: number;
    /** Target-tracking CPU utilisation. */
    targetCpuPercent: number;
  };

  alarms: {
    /** Optional e-mail subscription of the alarm topic. */
    email?: string;
    period: Duration;
    /** Lambda `Errors` per function and period at or above which the alarm fires. */
    lambdaErrors: number;
    /** Lambda `Throttles` per function and period. */
    lambdaThrottles: number;
    /** API Gateway `5xx` per period. */
    api5xx: number;
    /** Messages visible in a dead-letter queue. */
    dlqDepth: number;
    /**
     * The service level objectives of every operation group (lib/slo-alarms.ts): the share of
     * requests answered without a 5xx, and the share answered within `latencyMs`, over 30 days.
     * Their alarms fire on the burn rate of the error budget, not on single errors.
     * `shortWindows`: each long window also needs its short window (5 min for the hour, 30 min
     * for 6 hours) burning, through a composite alarm, so a page starts and ends with the
     * problem rather than an hour after it; at CloudWatch's list prices ($0.10 per metric of an
     * alarm, $0.50 per composite alarm) about $3.60 a month per group instead of $0.80.
     */
    slo: { availability: number; latencyMs: number; latencyShare: number; shortWindows: boolean };
  };

  /**
   * Bump to replace the identity provider's signing key (tokens signed by the old key stop
   * verifying; restart the container afterwards). See docs/deploy.md.
   */
  signingKeyGeneration: number;
  /**
   * The admin control plane's client (realm `fsm-admin`), created at deploy time with a secret
   * kept in Secrets Manager. Bump `generation` to rotate the secret (the old one stops working
   * at once). See docs/deploy.md.
   */
  adminClient: { clientId: string; generation: number };
}

const euCentral = {
  region: 'eu-central-1',
  availabilityZones: ['eu-central-1a', 'eu-central-1b'],
} as const;

export const environments: Record<EnvironmentName, EnvironmentSettings> = {
  dev: {
    ...euCentral,
    natGateways: 1,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    logRetention: RetentionDays.ONE_WEEK,
    logLevel: 'debug',
    debugSampleRate: 0,
    apiAudience: 'fsm-api',
    authCacheSeconds: 5,
    uploadCorsOrigins: ['*'],
    lambdaMemoryMb: 1024,
    // 2 runs at once, as before, plus 2 for the dead letters. Reserved concurrency costs nothing
    // by itself (invocations are billed as they run); it takes 4 of the account's executions
    // from everything else (was 2), and at most 2 more invocations can run, only while dead
    // letters are failed (a few writes each).
    solver: { memoryMb: 2048, reservedConcurrency: 4 },
    apiThrottle: { rateLimit: 50, burstLimit: 100 },
    priceClass: PriceClass.PRICE_CLASS_100,
    container: {
      cpu: 256,
      memoryMiB: 512,
      minTasks: 1,
      maxTasks: 2,
      targetCpuPercent: 70,
    },
    alarms: {
      period: Duration.minutes(5),
      lambdaErrors: 5,
      lambdaThrottles: 1,
      api5xx: 5,
      dlqDepth: 1,
      slo: { availability: 0.99, latencyMs: 1000, latencyShare: 0.99, shortWindows: false },
    },
    signingKeyGeneration: 1,
    adminClient: { clientId: 'fsm-admin', generation: 1 },
  },
  staging: {
    ...euCentral,
    natGateways: 1,
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    logRetention: RetentionDays.ONE_MONTH,
    logLevel: 'info',
    debugSampleRate: 0.1,
    apiAudience: 'fsm-api',
    authCacheSeconds: 5,
    uploadCorsOrigins: ['*'],
    lambdaMemoryMb: 1024,
    // 4 runs at once, as before, plus 2 for the dead letters (reserved: 6 of the account's executions).
    solver: { memoryMb: 2048, reservedConcurrency: 6 },
    apiThrottle: { rateLimit: 200, burstLimit: 400 },
    priceClass: PriceClass.PRICE_CLASS_100,
    container: {
      cpu: 512,
      memoryMiB: 1024,
      minTasks: 2,
      maxTasks: 4,
      targetCpuPercent: 60,
    },
    alarms: {
      period: Duration.minutes(5),
      lambdaErrors: 3,
      lambdaThrottles: 1,
      api5xx: 3,
      dlqDepth: 1,
      slo: { availability: 0.999, latencyMs: 1000, latencyShare: 0.99, shortWindows: true },
    },
    signingKeyGeneration: 1,
    adminClient: { clientId: 'fsm-admin', generation: 1 },
  },
  prod: {
    ...euCentral,
    natGateways: 2,
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    logRetention: RetentionDays.THREE_MONTHS,
    logLevel: 'info',
    debugSampleRate: 0.01,
    apiAudience: 'fsm-api',
    authCacheSeconds: 5,
    uploadCorsOrigins: ['*'],
    lambdaMemoryMb: 1024,
    // 10 runs at once, as before, plus 2 for the dead letters (reserved: 12 of the account's executions).
    solver: { memoryMb: 3008, reservedConcurrency: 12 },
    apiThrottle: { rateLimit: 1000, burstLimit: 2000 },
    priceClass: PriceClass.PRICE_CLASS_ALL,
    container: {
      cpu: 1024,
      memoryMiB: 2048,
      minTasks: 2,
      maxTasks: 10,
      targetCpuPercent: 60,
    },
    alarms: {
      period: Duration.minutes(1),
      lambdaErrors: 1,
      lambdaThrottles: 1,
      api5xx: 1,
      dlqDepth: 1,
      slo: { availability: 0.999, latencyMs: 1000, latencyShare: 0.99, shortWindows: true },
    },
    signingKeyGeneration: 1,
    adminClient: { clientId: 'fsm-admin', generation: 1 },
  },
};

export function isEnvironmentName(name: string): name is EnvironmentName {
  return (environmentNames as readonly string[]).includes(name);
}

/** The settings for `-c env=<name>`; an unknown name is an error that lists the known ones. */
export function environmentSettingsOrThrow(name: string): EnvironmentSettings {
  if (!isEnvironmentName(name)) {
    throw new Error(`Unknown environment "${name}" (-c env=...): use one of ${environmentNames.join(', ')}.`);
  }
  return environments[name];
}
