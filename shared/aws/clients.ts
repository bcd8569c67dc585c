/**
 * Every AWS SDK client of the service is built here, with the same rules:
 *
 * - region: the configured one (AWS_REGION, shared/config.ts) unless the caller names one;
 * - endpoint: the emulator's when one is configured (FSM_DYNAMODB_ENDPOINT for DynamoDB and its
 *   streams, FSM_SQS_ENDPOINT for SQS and SNS, FSM_S3_ENDPOINT for S3; undefined on AWS) or the
 *   caller names one (the local stack, before the environment is set). An emulator gets the
 *   emulator's credentials; AWS gets the default chain (on Lambda the environment:
 *   lambda-credential-provider.ts). Secrets Manager and SES have no emulator;
 * - deadlines (client-deadlines.ts), by what the calls are for: see `Deadlines`;
 * - the lean middleware stack (lean-client.ts): no per-call work nothing reads;
 * - on Lambda, every call traced as an X-Ray subsegment (shared/observability/tracer.ts).
 *
 * One small factory per client, so a function's bundle holds only the clients it builds.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { GeoRoutesClient } from '@aws-sdk/client-geo-routes';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { traced } from '../observability/tracer.ts';
import { deadlineConfig, withTotalDeadline } from './client-deadlines.ts';
import { withoutPerCallExtras } from './lean-client.ts';

/** What the emulators accept (any credentials do; these name them). */
export const emulatorCredentials = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export type Deadlines =
  /** Per attempt and in total: a call on a request's path answers (or fails) within 3 s. */
  | 'request'
  /** Per attempt only: a start-up step or a read at start, which its caller retries as a whole. */
  | 'attempt'
  /** A receive that waits up to 2 s for messages: 10 s per attempt, so no wait is cut off. */
  | 'long-poll'
  /** One attempt, with the per-attempt deadlines: a readiness probe that loops on its own. */
  | 'probe';

export interface ClientOptions {
  /** The emulator to talk to; default: the configured one of the service (none on AWS). */
  endpoint?: string | undefined;
  /** Default: the configured region. */
  region?: string | undefined;
  /** Default: `request`. */
  deadlines?: Deadlines;
}

function deadlineOptions(deadlines: Deadlines) {
  switch (deadlines) {
    case 'request':
    case 'attempt':
      return deadlineConfig();
    case 'long-poll':
      return {
        ...deadlineConfig(),
        requestHandler: { connectionTimeout: 1_000, requestTimeout: 10_000, throwOnRequestTimeout: true },
      };
    case 'probe':
      return { ...deadlineConfig(), maxAttempts: 1 };
    default: {
      const exhaustive: never = deadlines;
      return exhaustive;
    }
  }
}

/**
 * Credentials for an endpoint of our choosing: the environment's when it names some (a shared
 * development DynamoDB behind FSM_DYNAMODB_ENDPOINT checks them), else the emulators' (any do).
 */
function endpointCredentials() {
  const {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = process.env;
  return accessKeyId && secretAccessKey
    ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
    : emulatorCredentials;
}

/** The options every client shares: region, endpoint with its credentials, deadlines. */
function commonOptions(options: ClientOptions, configuredEndpoint: () => string | undefined) {
  const endpoint = options.endpoint ?? configuredEndpoint();
  return {
    region: options.region ?? config().region,
    ...(endpoint ? { endpoint, credentials: endpointCredentials() } : {}),
    ...deadlineOptions(options.deadlines ?? 'request'),
  };
}

/**
 * The total deadline where the calls are on a request's path, tracing, and the lean stack (last:
 * it also takes out what tracing adds to the user-agent string).
 */
function finished<
  C extends Parameters<typeof withTotalDeadline>[0] & Parameters<typeof withoutPerCallExtras>[0],
>(client: C, options: ClientOptions): C {
  return withoutPerCallExtras(
    traced((options.deadlines ?? 'request') === 'request' ? withTotalDeadline(client) : client),
  );
}

const noEmulator = () => undefined;

export function dynamoDbClient(options: ClientOptions = {}): DynamoDBClient {
  const client = new DynamoDBClient({
    ...commonOptions(options, () => config().endpoints.dynamodb),
    // The table's endpoint is regional (or DynamoDB Local): resolving account-based
    // endpoints per call costs CPU on every request and buys nothing here.
    accountIdEndpointMode: 'disabled',
  });
  return finished(client, options);
}

export function dynamoDbStreamsClient(options: ClientOptions = {}): DynamoDBStreamsClient {
  return finished(
    new DynamoDBStreamsClient(commonOptions(options, () => config().endpoints.dynamodb)),
    options,
  );
}

export function sqsClient(options: ClientOptions = {}): SQSClient {
  return finished(new SQSClient(commonOptions(options, () => config().endpoints.sqs)), options);
}

/** SNS: the emulator that serves SQS serves SNS too. */
export function snsClient(options: ClientOptions = {}): SNSClient {
  return finished(new SNSClient(commonOptions(options, () => config().endpoints.sqs)), options);
}

export function s3Client(options: ClientOptions = {}): S3Client {
  const common = commonOptions(options, () => config().endpoints.s3);
  const client = new S3Client({
    ...common,
    // The emulator serves buckets by path, not by host name.
    ...('endpoint' in common ? { forcePathStyle: true } : {}),
    // No checksum on every PutObject: the objects are small and written once.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return finished(client, options);
}

export function sesClient(options: ClientOptions = {}): SESv2Client {
  return finished(new SESv2Client(commonOptions(options, noEmulator)), options);
}

export function secretsManagerClient(options: ClientOptions = {}): SecretsManagerClient {
  return finished(new SecretsManagerClient(commonOptions(options, noEmulator)), options);
}

/**
 * Amazon Location's routes (v2, resource-less: geo-routes:CalculateRouteMatrix). No emulator. A
 * matrix block can take seconds to compute: per-attempt deadlines only (`attempt`), the solver
 * calls it off any request's path.
 */
export function geoRoutesClient(options: ClientOptions = {}): GeoRoutesClient {
  const merged: ClientOptions = { deadlines: 'attempt', ...options };
  return finished(new GeoRoutesClient(commonOptions(merged, noEmulator)), merged);
}
