/**
 * The event stream's metrics of one node (StreamConnections, StreamConnectionsOpened,
 * StreamEventsSent; shared/observability/metric-names.ts), reported once a minute rather than
 * per event: a busy workspace's event is written to hundreds of connections.
 */
import { recordStreamReport } from '../observability/metrics.ts';
import type { StreamHub } from './stream-hub.ts';

/** Reports `hub`'s counts every `intervalMs`; returns the stop. */
export function reportStreamMetrics(hub: StreamHub, intervalMs = 60_000): () => Promise<void> {
  const timer = setInterval(() => recordStreamReport(hub.takeCounts()), intervalMs);
  timer.unref();
  return async () => clearInterval(timer);
}
