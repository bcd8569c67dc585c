/**
 * Deadlines for every AWS SDK client of the service (DynamoDB, the identity provider's storage
 * on the same table, SQS, S3, SES). A dependency that hangs instead of refusing must be
 * reported unavailable (503 with Retry-After) within a few seconds, as one that refuses already
 * is, well inside the functions' timeout (`functionTimeoutSeconds`) and API Gateway's 30 s.
 *
 * | deadline | value | what happens past it |
 * |---|---|---|
 * | connect, per attempt | 1 s | the attempt fails (retried) |
 * | request and response, per attempt | 2 s | TimeoutError (retried) |
 * | attempts | 3 | the SDK's standard retry, with backoff |
 * | total, all attempts and backoffs | 3 s | DeadlineExceededError: the data layer's `unavailable` |
 *
 * A write that runs out of time may still be applied once the store recovers (the request may
 * have reached it): a 503 on a write means "outcome unknown". Retrying is safe: with the same
 * `lock_version` a write that did land answers 409, and TransactWriteItems carries the SDK's
 * idempotency token across its own attempts.
 */
/** Seconds a Lambda function may run (lib/service-function.ts); the local server applies it too. */
export const functionTimeoutSeconds = 10;

export const clientDeadlines = {
  connectMs: 1_000,
  attemptMs: 2_000,
  maxAttempts: 3,
  totalMs: 3_000,
} as const;

/** The call ran out of its total budget; the data layer reports it as `unavailable`. */
export class DeadlineExceededError extends Error {
  constructor(totalMs: number) {
    super(`no answer within ${totalMs} ms`);
    this.name = 'DeadlineExceededError';
  }
}

/** Client configuration with the per-attempt deadlines; spread into every client's options. */
export function deadlineConfig() {
  return {
    maxAttempts: clientDeadlines.maxAttempts,
    requestHandler: {
      connectionTimeout: clientDeadlines.connectMs,
      requestTimeout: clientDeadlines.attemptMs,
      // Without this the SDK only logs a breached requestTimeout and keeps waiting.
      throwOnRequestTimeout: true,
    },
  };
}

/** What this needs of an SDK client: its middleware stack. */
interface MiddlewareClient {
  middlewareStack: {
    add(
      // biome-ignore lint/suspicious/noExplicitAny: every client's command input and output
      middleware: (next: (args: any) => Promise<any>) => (args: any) => Promise<any>,
      options: { step: 'initialize'; name: string; priority: 'high' },
    ): void;
  };
}

/**
 * Adds the total budget to a client: every call settles within `totalMs`, whatever its retries
 * do. Outermost in the stack, so it covers the retry loop and its backoff; an attempt still
 * running when the budget ends is bounded by its own per-attempt deadline.
 */
export function withTotalDeadline<C extends MiddlewareClient>(
  client: C,
  totalMs: number = clientDeadlines.totalMs,
): C {
  client.middlewareStack.add(
    (next) => (args) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DeadlineExceededError(totalMs)), totalMs);
      });
      return Promise.race([next(args), deadline]).finally(() => clearTimeout(timer));
    },
    { step: 'initialize', name: 'fsmTotalDeadline', priority: 'high' },
  );
  return client;
}
