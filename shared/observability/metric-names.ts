/**
 * The service's own CloudWatch metrics, by name: what metrics.ts emits (embedded metric format)
 * and what the dashboard and the SLO alarms read (lib/dashboard.ts, lib/observability.ts). Plain
 * data, so CDK imports no Powertools.
 *
 * Every metric carries the `service` dimension, `fsm-<environment>` (POWERTOOLS_SERVICE_NAME,
 * set per environment by lib/), so the environments of one account stay apart.
 */
export const metricsNamespace = 'FieldService';

/** The service name of an environment: the `service` dimension and the logs' `service` key. */
export function serviceNameOf(environment: string): string {
  return `fsm-${environment}`;
}

/**
 * One request through the HTTP kernel. Dimension sets: [service, group], [service, group,
 * operation] and [service, group, operation, statusClass]. `Errors` counts 5xx answers only (a
 * 4xx is the caller's mistake, not an outage); 4xx show as Requests of statusClass 4xx.
 * `DynamoDBReadUnits` / `DynamoDBWriteUnits`: the capacity units DynamoDB reported for the
 * request's calls (ReturnConsumedCapacity TOTAL; 0 for a request that made none), so the Sum per
 * operation is what each operation costs the table.
 */
export const httpMetrics = {
  requests: 'Requests',
  errors: 'Errors',
  latency: 'Latency',
  readUnits: 'DynamoDBReadUnits',
  writeUnits: 'DynamoDBWriteUnits',
} as const;

/**
 * One invocation of a background handler (a queue, the table's stream, an upload's check): the
 * DynamoDB capacity units its calls consumed, by `handler` (its stable name, not the deployed
 * function's). Dimension set: [service, handler]. The same metric names as a request's, in
 * their own dimension set.
 */
export const workMetrics = {
  readUnits: httpMetrics.readUnits,
  writeUnits: httpMetrics.writeUnits,
} as const;

/**
 * One webhook delivery attempt. Dimension sets: [service, outcome] and [service, outcome,
 * attempt]. `WebhookDeliveryLag`: from when the attempt was due (the event's time for a first
 * attempt, the retry's due time after) to when it was sent.
 */
export const webhookMetrics = {
  deliveries: 'WebhookDeliveries',
  lag: 'WebhookDeliveryLag',
} as const;

/** How a delivery attempt ended. */
export const webhookOutcomes = ['delivered', 'retrying', 'exhausted', 'failed', 'cancelled'] as const;
export type WebhookOutcome = (typeof webhookOutcomes)[number];

/**
 * The event stream of one node, reported once a minute: connections open now (a gauge: read its
 * Maximum or Average), connections opened and events written since the last report.
 */
export const streamMetrics = {
  connections: 'StreamConnections',
  opened: 'StreamConnectionsOpened',
  eventsSent: 'StreamEventsSent',
} as const;

/** One optimization run that ended. Dimension set: [service, outcome]. */
export const optimizerMetrics = {
  runs: 'OptimizationRuns',
  duration: 'OptimizationRunDuration',
} as const;
export const optimizationOutcomes = ['succeeded', 'failed', 'cancelled'] as const;
export type OptimizationOutcome = (typeof optimizationOutcomes)[number];

/** One telemetry report of a device. Dimension set: [service, outcome] (accepted, refused). */
export const telemetryMetrics = { reports: 'TelemetryReports' } as const;
export type TelemetryOutcome = 'accepted' | 'refused';

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

export function statusClassOf(status: number): StatusClass {
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}

/**
 * The sync indexer (domain/sync/sync-indexer.consumer.ts), per workspace batch it indexed:
 * `SyncIndexLag`, from the oldest event of the batch to its feed entries committing (what an app's
 * pull waits for a change, beyond the pull itself); `SyncFeedEntries`, the entries written.
 */
export const syncMetrics = {
  indexLag: 'SyncIndexLag',
  feedEntries: 'SyncFeedEntries',
} as const;
