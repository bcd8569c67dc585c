/**
 * Warns when the event loop was blocked: every request in flight waits while one piece of
 * synchronous work runs (a regular expression that backtracks, a huge JSON document), so a
 * block shows as many slow requests of unrelated operations. The log line says how long and
 * when, so the request that caused it can be found beside it in the log.
 */
import { logger } from './logger.ts';

export function watchEventLoop(options: { intervalMs?: number; thresholdMs?: number } = {}): () => void {
  const intervalMs = options.intervalMs ?? 250;
  const thresholdMs = options.thresholdMs ?? 500;
  let expected = performance.now() + intervalMs;
  const timer = setInterval(() => {
    const now = performance.now();
    const blockedMs = now - expected;
    if (blockedMs > thresholdMs) logger.warn('event loop blocked', { blockedMs: Math.round(blockedMs) });
    expected = now + intervalMs;
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
