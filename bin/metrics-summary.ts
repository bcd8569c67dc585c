/**
 * `npm run metrics`: a one-screen summary of what the local stack measured (requests by
 * operation with 5xx and latency, webhook deliveries, optimization runs, telemetry reports, the
 * event stream), read from DATA_DIR/metrics.jsonl (FSM_METRICS_FILE to name another file).
 */
import { join } from 'node:path';
import { summarizeMetricsFile } from '../shared/observability/metrics-summary.ts';

const file = process.env.FSM_METRICS_FILE ?? join(process.env.DATA_DIR ?? '.data', 'metrics.jsonl');
console.log(await summarizeMetricsFile(file));
