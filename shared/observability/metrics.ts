/**
 * The service's metrics (names and dimensions in metric-names.ts), written as CloudWatch
 * embedded metric format lines by Powertools for AWS Lambda's Metrics: CloudWatch Logs turns
 * each line into metric data, so recording costs one log line and no API call on the request
 * path.
 *
 * Each record is added, serialised and written in one synchronous step, so the one Metrics
 * instance of a process is never shared by two requests (the local server and the container
 * serve many at once; the Lambda handler's end-of-invocation flush would mix their dimensions).
 * Recording never throws into the caller: a metric is not worth a failed request.
 *
 * Where the lines go: standard output (Lambda, the container: the log group), or a file when
 * the local stack names one (`writeMetricsTo`, DATA_DIR/metrics.jsonl), read by
 * `npm run metrics` (bin/metrics-summary.ts).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { withCallCost } from '../data/call-cost.ts';
import { logger } from './logger.ts';
import {
  httpMetrics,
  metricsNamespace,
  type OptimizationOutcome,
  optimizerMetrics,
  statusClassOf,
  streamMetrics,
  syncMetrics,
  type TelemetryOutcome,
  telemetryMetrics,
  type WebhookOutcome,
  webhookMetrics,
  workMetrics,
} from './metric-names.ts';

const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? metricsNamespace,
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fsm',
});

type Sink = (line: string) => void;
const standardOutput: Sink = (line) => void process.stdout.write(`${line}\n`);
let sink: Sink = standardOutput;
let file: WriteStream | undefined;

/**
 * Lines for the file, written together: a write of its own per line (a request's record) cost
 * ~65 µs of CPU on the local stack (the write request, the thread pool, its callback), more
 * than building the record; one write every `fileFlushMs` (or per `fileFlushChars`) costs that
 * once. The file lags by at most that much; the lines still pending when the local stack stops
 * are written (writeMetricsTo(undefined)).
 */
let pending = '';
let flushTimer: NodeJS.Timeout | undefined;
const fileFlushMs = 200;
const fileFlushChars = 64 * 1024;

function flushFile(): void {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  if (pending && file) file.write(pending);
  pending = '';
}

/**
 * Writes the metric lines to `path` (appending) instead of standard output; undefined: back to
 * it. Resolves once the previous file has its lines and is closed.
 */
export function writeMetricsTo(path: string | undefined): Promise<void> {
  flushFile();
  const previous = file;
  const closed = new Promise<void>((resolve) => (previous ? previous.end(resolve) : resolve()));
  file = path ? createWriteStream(path, { flags: 'a' }) : undefined;
  sink = file
    ? (line) => {
        pending += `${line}\n`;
        if (pending.length >= fileFlushChars) flushFile();
        else flushTimer ??= setTimeout(flushFile, fileFlushMs).unref();
      }
    : standardOutput;
  return closed;
}

/**
 * Records what `add` adds to the instance as one EMF line, clears it for the next, and returns
 * the record written (undefined if none was).
 * `alsoBy`: the dimension names of further, coarser sets over the same values (EMF publishes
 * each metric once per set). Powertools warns about a dimension shared by two sets of its own,
 * so the coarser sets are added to its output here.
 */
function emit(add: (m: Metrics) => void, alsoBy: readonly string[][] = []): EmfOutput | undefined {
  try {
    add(metrics);
    const emf = metrics.serializeMetrics();
    const [directive] = emf._aws.CloudWatchMetrics;
    if (directive) for (const names of alsoBy) directive.Dimensions.push(['service', ...names]);
    sink(JSON.stringify(emf));
    return emf;
  } catch (error) {
    logger.warn('metric not recorded', { error: String(error) });
    return undefined;
  } finally {
    metrics.clearMetrics();
    metrics.clearDimensions();
    metrics.clearMetadata();
  }
}

/**
 * The EMF records of requests, one per group, operation and status class, as Powertools built
 * them for the first such request: a later request of the same kind only puts its values and
 * timestamp into that record (a request's dimensions, units and metric names are those of the
 * first; its values are Requests, Errors, Latency and the DynamoDB capacity units). Adding, validating and serialising with
 * Powertools cost ~10 µs a request (25 µs on a busy machine); this costs its JSON.stringify,
 * ~1.6 µs. Bounded: past `requestRecordsMax` kinds a request is recorded through Powertools
 * each time.
 */
type EmfOutput = ReturnType<Metrics['serializeMetrics']>;
type EmfRecord = Record<string, unknown> & { _aws: { Timestamp: number } };
const requestRecords = new Map<string, EmfRecord>();
const requestRecordsMax = 2_000;

/** One request through the HTTP kernel. */
export function recordRequest(request: {
  group: string;
  operation: string;
  status: number;
  ms: number;
  readUnits: number;
  writeUnits: number;
}) {
  const statusClass = statusClassOf(request.status);
  const kind = `${request.group}\n${request.operation}\n${statusClass}`;
  const record = requestRecords.get(kind);
  if (record) {
    try {
      record._aws.Timestamp = Date.now();
      record[httpMetrics.errors] = request.status >= 500 ? 1 : 0;
      record[httpMetrics.latency] = request.ms;
      record[httpMetrics.readUnits] = request.readUnits;
      record[httpMetrics.writeUnits] = request.writeUnits;
      sink(JSON.stringify(record));
    } catch (error) {
      logger.warn('metric not recorded', { error: String(error) });
    }
    return;
  }
  const built = emit(
    (m) => {
      m.addDimensions({ group: request.group, operation: request.operation, statusClass });
      m.addMetric(httpMetrics.requests, MetricUnit.Count, 1);
      m.addMetric(httpMetrics.errors, MetricUnit.Count, request.status >= 500 ? 1 : 0);
      m.addMetric(httpMetrics.latency, MetricUnit.Milliseconds, request.ms);
      m.addMetric(httpMetrics.readUnits, MetricUnit.Count, request.readUnits);
      m.addMetric(httpMetrics.writeUnits, MetricUnit.Count, request.writeUnits);
    },
    [['group'], ['group', 'operation']],
  );
  if (built && requestRecords.size < requestRecordsMax) requestRecords.set(kind, built as EmfRecord);
}

/**
 * Runs one piece of background work (an invocation of a queue or stream handler on Lambda, a
 * poller's batch or message locally) and records the DynamoDB capacity its calls consumed.
 */
export function measureWork<T>(handler: string, work: () => Promise<T>): Promise<T> {
  return withCallCost(work, (cost) =>
    recordWorkCost({ handler, readUnits: cost.readUnits, writeUnits: cost.writeUnits }),
  );
}

/** One invocation of a background handler and the DynamoDB capacity its calls consumed. */
export function recordWorkCost(work: { handler: string; readUnits: number; writeUnits: number }) {
  emit((m) => {
    m.addDimensions({ handler: work.handler });
    m.addMetric(workMetrics.readUnits, MetricUnit.Count, work.readUnits);
    m.addMetric(workMetrics.writeUnits, MetricUnit.Count, work.writeUnits);
  });
}

/** Attempts past this one are counted together: the attempt dimension stays small. */
const attemptCap = 10;

/** One webhook delivery attempt (`lagMs`: sent this long after it was due). */
export function recordWebhookAttempt(attempt: { outcome: WebhookOutcome; attempt: number; lagMs?: number }) {
  emit(
    (m) => {
      const number = attempt.attempt >= attemptCap ? `${attemptCap}+` : String(attempt.attempt);
      m.addDimensions({ outcome: attempt.outcome, attempt: number });
      m.addMetric(webhookMetrics.deliveries, MetricUnit.Count, 1);
      if (attempt.lagMs !== undefined) {
        m.addMetric(webhookMetrics.lag, MetricUnit.Milliseconds, Math.max(0, attempt.lagMs));
      }
    },
    [['outcome']],
  );
}

/** The event stream of this node since the last report (a periodic report, stream-metrics.ts). */
export function recordStreamReport(report: { connections: number; opened: number; eventsSent: number }) {
  emit((m) => {
    m.addMetric(streamMetrics.connections, MetricUnit.Count, report.connections);
    m.addMetric(streamMetrics.opened, MetricUnit.Count, report.opened);
    m.addMetric(streamMetrics.eventsSent, MetricUnit.Count, report.eventsSent);
  });
}

/**
 * One optimization run that ended, and how long it took from being taken up by the solver (none
 * for a run cancelled while it waited).
 */
export function recordOptimizationRun(run: { outcome: OptimizationOutcome; durationMs?: number }) {
  emit((m) => {
    m.addDimensions({ outcome: run.outcome });
    m.addMetric(optimizerMetrics.runs, MetricUnit.Count, 1);
    if (run.durationMs !== undefined) {
      m.addMetric(optimizerMetrics.duration, MetricUnit.Milliseconds, Math.max(0, run.durationMs));
    }
  });
}

/** One telemetry report of a device, accepted or refused (any 4xx/5xx answer). */
export function recordTelemetryReport(outcome: TelemetryOutcome) {
  emit((m) => {
    m.addDimensions({ outcome });
    m.addMetric(telemetryMetrics.reports, MetricUnit.Count, 1);
  });
}

/** One workspace batch of the sync indexer: its lag (oldest event to commit) and entries written. */
export function recordSyncIndex(batch: { lagMs: number; entries: number }) {
  emit((m) => {
    m.addMetric(syncMetrics.indexLag, MetricUnit.Milliseconds, Math.max(0, batch.lagMs));
    m.addMetric(syncMetrics.feedEntries, MetricUnit.Count, batch.entries);
  });
}
