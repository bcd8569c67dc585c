/**
 * Start-up work against the emulators (table, queues and bucket, the seed, the admin client) on a
 * busy machine: DynamoDB Local and the SQS/S3 emulator compete for the same cores as whatever else
 * runs, and a call that would take milliseconds can miss the 3 s deadline every client has
 * (client-deadlines.ts). A request is answered 503 then and its caller retries; nobody retries for
 * `npm start`, so one slow moment used to end the start. Here a step that fails because a
 * dependency is busy or unreachable is tried again with back-off, each retry logged at warn, and
 * the start gives up only after a generous limit (2 minutes per step), with a message that says
 * which step failed, for how long, and why. A failure that is not about availability (an invalid
 * seed, a table of the wrong shape) is not retried: waiting would not change it.
 *
 * Here rather than in local-stack/ so that it runs with the unit tests, which need no Java.
 */
import { logger } from '../observability/logger.ts';

export const startUpRetryDefaults = {
  /** How long one step is retried, from its first attempt, before the start gives up. */
  limitMs: 120_000,
  /** The first wait; each further one doubles, up to maxDelayMs. */
  firstDelayMs: 250,
  maxDelayMs: 10_000,
} as const;

export interface StartUpRetryOptions {
  limitMs?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Called before each retry (default: logger.warn). */
  warn?: (message: string, details: Record<string, unknown>) => void;
  /** The clock and the wait, replaceable so tests need not wait. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  isTransient?: (error: unknown) => boolean;
}

/** A start-up step that kept failing for the whole limit; `cause` is its last failure. */
export class StartUpGaveUpError extends Error {
  readonly step: string;
  readonly attempts: number;

  constructor(step: string, attempts: number, elapsedMs: number, cause: unknown) {
    super(
      `${step} kept failing for ${Math.round(elapsedMs / 1000)} s (${attempts} attempts); last error: ` +
        `${describe(cause)}. The machine may be too busy for DynamoDB Local and the SQS/S3 emulator ` +
        'to answer in time: start again when it is quieter.',
      { cause },
    );
    this.name = 'StartUpGaveUpError';
    this.step = step;
    this.attempts = attempts;
  }
}

/** Failures of a busy or unreachable dependency, in the names and codes the AWS SDK uses. */
const transientNames = new Set([
  'DeadlineExceededError',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  // DynamoDB Local refuses a table update while an earlier one still runs.
  'ResourceInUseException',
]);
const transientCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

/**
 * Whether a failure means "busy or unreachable, try again": an SDK timeout, throttling or 5xx, a
 * refused or reset connection, or the data layer's `unavailable` (which keeps the SDK's failure
 * as its cause). Looks through `cause`, since layers wrap what they catch.
 */
export function isTransientStartUpError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const failure = current as {
      name?: string;
      code?: string;
      type?: string;
      $retryable?: unknown;
      $metadata?: { httpStatusCode?: number };
      cause?: unknown;
    };
    if (transientNames.has(failure.name ?? '') || transientCodes.has(failure.code ?? '')) return true;
    if (failure.name === 'DataError' && failure.code === 'unavailable') return true;
    if (failure.name === 'ProblemError' && failure.type === 'service-unavailable') return true;
    if (failure.$retryable) return true;
    if ((failure.$metadata?.httpStatusCode ?? 0) >= 500) return true;
    current = failure.cause;
  }
  return false;
}

/** Runs one start-up step, retrying transient failures with back-off until the limit. */
export async function retryStartUpStep<T>(
  step: string,
  work: () => Promise<T>,
  options: StartUpRetryOptions = {},
): Promise<T> {
  const limitMs = options.limitMs ?? startUpRetryDefaults.limitMs;
  const maxDelayMs = options.maxDelayMs ?? startUpRetryDefaults.maxDelayMs;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const warn = options.warn ?? logger.warn;
  const isTransient = options.isTransient ?? isTransientStartUpError;
  const started = now();
  let delay = options.firstDelayMs ?? startUpRetryDefaults.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isTransient(error)) throw error;
      const elapsed = now() - started;
      const remaining = limitMs - elapsed;
      if (remaining <= 0) throw new StartUpGaveUpError(step, attempt, elapsed, error);
      // The last wait is cut to the limit, so the step gets one more try right at it.
      const wait = Math.min(delay, remaining);
      warn(`fsm: ${step} failed (${describe(error)}); retrying in ${wait} ms`, {
        step,
        attempt,
        retry_in_ms: wait,
        elapsed_ms: elapsed,
        limit_ms: limitMs,
      });
      await sleep(wait);
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.name}: ${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
