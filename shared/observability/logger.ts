/**
 * Structured JSON logs, one line per entry, written by Powertools for AWS Lambda's Logger so
 * CloudWatch Logs Insights can query fields. What this module adds to it:
 *
 * - Every line written while a request is served carries its request-id, correlation-id and
 *   operation id (set once by the HTTP kernel). They live in an AsyncLocalStorage, not in the
 *   Logger's own keys: the local server and the Fargate container serve many requests at once,
 *   and the Logger's appended keys are one set per process there.
 * - Secrets never reach the output: every line is redacted where it is formatted
 *   (redaction.ts), whatever a caller passes.
 * - The level comes from LOG_LEVEL (or POWERTOOLS_LOG_LEVEL); POWERTOOLS_LOGGER_SAMPLE_RATE
 *   turns on debug for that share of Lambda invocations (lib/environments.ts per environment;
 *   Powertools decides per invocation, lambda-observability.ts) and, in the container and the
 *   local server, for that share of requests: there Powertools would decide once per process,
 *   so this module decides when a request's log context is entered instead.
 *   Lambda's own log-level filter is left off (lib/service-function.ts) because it would
 *   override both.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, Logger, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { redactInto, redactText } from './redaction.ts';

export interface LogContext {
  requestId: string;
  correlationId: string;
  operationId?: string;
}

/**
 * A request's slot: `inRequestLogContext` opens one around the request, `enterLogContext` fills
 * it once the ids are known. The slot, not the context, is the store, so filling it needs no
 * enterWith, which (called before the first await) would leave the ids in the caller's context
 * for the next request's first lines.
 */
interface LogSlot {
  context?: LogContext;
  /** Opened by inRequestLogContext for one request: filled in, never entered over. */
  request?: true;
}
const logContext = new AsyncLocalStorage<LogSlot>();

const onLambda = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);
/** Outside Lambda: the share of requests whose debug lines are written whatever the level. */
const requestSampleRate = onLambda ? 0 : sampleRateOf(process.env.POWERTOOLS_LOGGER_SAMPLE_RATE);
/** The contexts of the requests sampled at debug (not a key of the context: it is logged). */
const sampledRequests = new WeakSet<LogContext>();

function sampleRateOf(value: string | undefined): number {
  const rate = Number(value ?? 0);
  return Number.isFinite(rate) && rate > 0 && rate <= 1 ? rate : 0;
}

/** Runs one request's work (`fn`) with a log context of its own, empty until entered. */
export function inRequestLogContext<T>(fn: () => T): T {
  return logContext.run({ request: true }, fn);
}

/**
 * Attach `context` to every log line of the current request (its async continuation): the slot
 * `inRequestLogContext` opened, or, outside one, from here on in this asynchronous context.
 */
export function enterLogContext(context: LogContext): void {
  if (requestSampleRate > 0 && Math.random() < requestSampleRate) sampledRequests.add(context);
  const slot = logContext.getStore();
  if (slot?.request) slot.context = context;
  else logContext.enterWith({ context });
}

/** The ids of the request being served, if any (metrics and traces read them too). */
export function currentLogContext(): LogContext | undefined {
  return logContext.getStore()?.context;
}

/**
 * A line built whole by the formatter: the empty values are already left out (redactInto), so
 * Powertools' pass that copies the line without them has nothing to do.
 */
class PreparedLogItem extends LogItem {
  override prepareForPrint(): void {}
}

/**
 * The line's shape: Powertools' keys (level, message, timestamp, service, sampling_rate,
 * xray_trace_id; on Lambda function_request_id and cold_start), then the request's ids, then
 * the caller's details, all redacted. Built in one object (the request path writes a line per
 * request): no deep merge of two, no second pass for empty keys.
 */
class ServiceLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const line: LogAttributes = {
      level: attributes.logLevel,
      // Left out when empty, as Powertools' own pass would (undefined: not serialised).
      message: redactText(attributes.message ?? '') || undefined,
      timestamp: this.formatTimestamp(attributes.timestamp),
      service: attributes.serviceName,
    };
    const context = logContext.getStore()?.context;
    if (attributes.sampleRateValue) line.sampling_rate = attributes.sampleRateValue;
    else if (context && sampledRequests.has(context)) line.sampling_rate = requestSampleRate;
    if (attributes.xRayTraceId) line.xray_trace_id = attributes.xRayTraceId;
    const lambda = attributes.lambdaContext;
    if (lambda) {
      line.function_request_id = lambda.awsRequestId;
      line.cold_start = lambda.coldStart;
    }
    if (context) Object.assign(line, context);
    redactInto(line, additional);
    return new PreparedLogItem({ attributes: line });
  }

  /**
   * Powertools reads TZ on every line to decide between toISOString and an offset; TZ is set
   * before the process starts (Lambda: `:UTC`), so the decision is taken once.
   */
  readonly #utc = !process.env.TZ || process.env.TZ.includes('UTC');
  override formatTimestamp(now: Date): string {
    return this.#utc ? now.toISOString() : super.formatTimestamp(now);
  }
}

/**
 * Powertools' Logger, serialising the formatter's lines without its replacer: that replacer
 * (called for every key of every line) turns errors into objects, bigints into strings and
 * drops circular references, and the formatter's line has none of them left (redaction.ts
 * copies errors as objects, bigints as strings, and stops at a depth, so no cycle survives).
 */
class ServiceLogger extends Logger {
  protected override getJsonReplacer(): (key: string, value: unknown) => unknown {
    return keepValue;
  }
}
const keepValue = (_key: string, value: unknown): unknown => value;

type LevelName = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
const levelNames = new Set<string>(['DEBUG', 'INFO', 'WARN', 'ERROR']);

/**
 * LOG_LEVEL as Powertools names it. The service's environments set it in lower case (`warn`,
 * lib/service-function.ts, the local stack), which Powertools' own reading of the variable does
 * not recognise (it then logs at INFO); an unknown value leaves the level as it is.
 */
function levelOf(value: string | undefined): LevelName | undefined {
  const name = value?.toUpperCase();
  return name && levelNames.has(name) ? (name as LevelName) : undefined;
}

/** The process's one Logger (Powertools), for middlewares that take it (injectLambdaContext). */
export const powertoolsLogger = new ServiceLogger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fsm',
  logFormatter: new ServiceLogFormatter(),
  ...(levelOf(process.env.LOG_LEVEL) ? { logLevel: levelOf(process.env.LOG_LEVEL) } : {}),
  // Outside Lambda the sampling is per request (enterLogContext), not once for the process.
  ...(onLambda ? {} : { sampleRateValue: 0 }),
});

/** Writes every line of a request sampled at debug (outside Lambda), whatever the level. */
let sampledLogger: ServiceLogger | undefined;

/** The Logger for a line written now: the sampled one within a sampled request. */
function loggerNow(): ServiceLogger {
  if (requestSampleRate === 0) return powertoolsLogger;
  const context = logContext.getStore()?.context;
  if (!context || !sampledRequests.has(context)) return powertoolsLogger;
  sampledLogger ??= new ServiceLogger({
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fsm',
    logFormatter: new ServiceLogFormatter(),
    logLevel: 'DEBUG',
    sampleRateValue: 0,
  });
  return sampledLogger;
}

type Details = Record<string, unknown>;

/**
 * The service's logging API. LOG_LEVEL is read again when it changes (tests and the local stack
 * set it after this module was loaded); Lambda sets it once.
 */
let levelSeen = process.env.LOG_LEVEL;
function syncLevel(): void {
  const level = process.env.LOG_LEVEL;
  if (level === levelSeen) return;
  levelSeen = level;
  powertoolsLogger.setLogLevel(levelOf(level) ?? 'INFO');
}

export const logger = {
  debug: (message: string, details?: Details) => {
    syncLevel();
    loggerNow().debug(message, details ?? {});
  },
  info: (message: string, details?: Details) => {
    syncLevel();
    loggerNow().info(message, details ?? {});
  },
  warn: (message: string, details?: Details) => {
    syncLevel();
    loggerNow().warn(message, details ?? {});
  },
  error: (message: string, details?: Details) => {
    syncLevel();
    loggerNow().error(message, details ?? {});
  },
};
