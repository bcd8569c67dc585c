/**
 * Runtime configuration, read from the environment once per container.
 *
 * The same variables are set by the CDK stacks on AWS and by `npm start` locally, so handler
 * code never asks where it runs. Values are read lazily: the local stack sets the environment
 * before the first request, after modules were imported.
 */
export interface RuntimeConfig {
  /** Name of the single DynamoDB table. */
  tableName: string;
  /** Public origin of the REST API, without trailing slash (used for absolute Location headers). */
  baseUrl: string;
  /** Origin of the identity provider; token issuers are `${authUrl}/realms/${realm}`. */
  authUrl: string;
  /** Base of the problem type URIs, ending with a slash. */
  problemsBaseUrl: string;
  /** The `aud` every API access token must carry. */
  apiAudience: string;
  /** Endpoint overrides for the local emulators; undefined on AWS. */
  endpoints: { dynamodb?: string; sqs?: string; s3?: string };
  /** FSM_UPLOAD_BUCKET: the private bucket of browser uploads (tenant logo and favicon). */
  uploadBucket: string;
  /** FSM_UPLOAD_FORM_SECONDS: how long an upload form (presigned POST) is valid; default 600. */
  uploadFormSeconds: number;
  region: string;
  /** Seconds that per-container caches (workspace state, principal roles) may serve stale data. */
  authCacheSeconds: number;
  webhooks: {
    /** The delivery queue (the dispatcher sends to it, the worker re-sends retries and hops). */
    queueUrl?: string;
    /** FSM_WEBHOOK_ALLOW_LOCAL=true: plain http and loopback destinations (development only). */
    allowLocal: boolean;
    /** FSM_TIME_SCALE: multiplies every delay of the retry schedule (tests run it fast). */
    timeScale: number;
    /** FSM_WEBHOOK_DNS_SERVERS (`host:port`, comma-separated): resolve destinations there. */
    dnsServers?: string[];
  };
  /**
   * FSM_STREAM_MAX_CONNECTIONS: event-stream connections one node holds at most (one more is
   * 503 with Retry-After). The container's comes from its memory (lib/realtime-capacity.ts);
   * `npm start` defaults to 20,000.
   */
  streamMaxConnections: number;
}

let cached: RuntimeConfig | undefined;

export function config(): RuntimeConfig {
  if (cached) return cached;
  const env = process.env;
  const baseUrl = stripSlash(env.FSM_BASE_URL ?? 'http://127.0.0.1:3000');
  cached = {
    tableName: env.FSM_TABLE_NAME ?? 'fsm',
    baseUrl,
    authUrl: stripSlash(env.FSM_AUTH_URL ?? baseUrl),
    problemsBaseUrl: withSlash(env.FSM_PROBLEMS_BASE_URL ?? `${baseUrl}/problems/`),
    apiAudience: env.FSM_API_AUDIENCE ?? 'fsm-api',
    endpoints: {
      dynamodb: env.FSM_DYNAMODB_ENDPOINT || undefined,
      sqs: env.FSM_SQS_ENDPOINT || undefined,
      s3: env.FSM_S3_ENDPOINT || undefined,
    },
    uploadBucket: env.FSM_UPLOAD_BUCKET || 'fsm-uploads',
    uploadFormSeconds: positiveNumber(env.FSM_UPLOAD_FORM_SECONDS, 600),
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-central-1',
    authCacheSeconds: Number(env.FSM_AUTH_CACHE_SECONDS ?? 5),
    webhooks: {
      queueUrl: env.FSM_WEBHOOK_QUEUE_URL || undefined,
      allowLocal: env.FSM_WEBHOOK_ALLOW_LOCAL === 'true',
      timeScale: positiveNumber(env.FSM_TIME_SCALE, 1),
      dnsServers: env.FSM_WEBHOOK_DNS_SERVERS
        ? env.FSM_WEBHOOK_DNS_SERVERS.split(',').map((s) => s.trim())
        : undefined,
    },
    streamMaxConnections: Math.floor(positiveNumber(env.FSM_STREAM_MAX_CONNECTIONS, 20_000)),
  };
  return cached;
}

/** Forget the cached configuration (the local stack calls this after it has set the environment). */
export function resetConfig(): void {
  cached = undefined;
}

function positiveNumber(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
