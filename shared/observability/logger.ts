/**
 * Structured JSON logs, one line per entry, so CloudWatch Logs Insights can query fields.
 * Every line written while a request is served carries its request-id, correlation-id and
 * operation id (set once by the HTTP kernel), so one request's lines can be found together.
 * Never pass secrets, tokens or passwords in `details`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface LogContext {
  requestId: string;
  correlationId: string;
  operationId?: string;
}

const logContext = new AsyncLocalStorage<LogContext>();

/** Attach `context` to every log line of the current request (its async continuation). */
export function enterLogContext(context: LogContext): void {
  logContext.enterWith(context);
}
type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  return order[(process.env.LOG_LEVEL as Level | undefined) ?? 'info'] ?? order.info;
}

function write(level: Level, message: string, details?: Record<string, unknown>): void {
  if (order[level] < threshold()) return;
  const line = JSON.stringify({
    level,
    time: new Date().toISOString(),
    message,
    ...logContext.getStore(),
    ...details,
  });
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const logger = {
  debug: (message: string, details?: Record<string, unknown>) => write('debug', message, details),
  info: (message: string, details?: Record<string, unknown>) => write('info', message, details),
  warn: (message: string, details?: Record<string, unknown>) => write('warn', message, details),
  error: (message: string, details?: Record<string, unknown>) => write('error', message, details),
};
