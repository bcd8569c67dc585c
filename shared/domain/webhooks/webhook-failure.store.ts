/**
 * Webhook delivery failures: one row per message that failed at least once, updated on each
 * further attempt, kept about 30 days (SPEC.md). Listed newest first, for the workspace or one
 * endpoint, through two index partitions (gsi4: all, gsi5: per endpoint) whose sort key is the
 * first failure's time, so a page reads its keys and then its rows with one BatchGetItem.
 *
 * Totals come from counters per day of first failure (all, and per endpoint), and rows expire
 * at the start of the 31st day after that day: the rows visible today are exactly those of the
 * last 31 day counters, so `total_elements` is the sum of 31 counters (one BatchGetItem) and
 * never drifts when TTL deletes rows, which no transaction of ours sees.
 */

import { DataError } from '../../data/data-error.ts';
import { keys, type ListScope, listKeys, type WorkspaceId } from '../../data/keys.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import {
  getRecord,
  getRecords,
  putRecord,
  queryItems,
  type StoredRecord,
  type TableWrite,
  transactWrite,
} from '../../data/table.ts';
import type { RetryState } from './retry-states.ts';

export { type RetryState, retryStates } from './retry-states.ts';

export interface DeliveryFailureRecord {
  /** The delivery id: the `webhook-id` header and the envelope `id`. */
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  retry_state: RetryState;
  /** Attempts made so far (the first one included). */
  attempts: number;
  last_status_code?: number;
  last_error?: string;
  /** Up to 4 KiB of the receiver's last answer. */
  last_response?: string;
  first_failed_at: string;
  last_attempt_at: string;
  next_attempt_at?: string;
  expires_at: string;
  /** The exact body delivered, for redelivery by hand; never part of the published row. */
  body: string;
}

const list = 'WEBHOOK_FAILURE';
const entity = 'webhook_failure';
const dayMs = 86_400_000;
/** Days a row stays visible after the day of its first failure (that day included). */
export const retentionDays = 31;

const dayOf = (iso: string) => iso.slice(0, 10);
const dayStart = (ms: number) => Math.floor(ms / dayMs) * dayMs;

function expiryOf(firstFailedAt: string): number {
  return dayStart(Date.parse(firstFailedAt)) + retentionDays * dayMs;
}

function counterNames(day: string, endpointId: string): string[] {
  return [`day#${day}`, `day#${day}#ep=${endpointId}`];
}

function indexAttributes(scope: ListScope, row: DeliveryFailureRecord): Record<string, string> {
  const sortKey = `${row.first_failed_at}#${row.id}`;
  return {
    gsi4pk: listKeys.indexPartition(scope, list),
    gsi4sk: sortKey,
    gsi5pk: listKeys.indexPartition(scope, list, row.endpoint_id),
    gsi5sk: sortKey,
  };
}

function stored(workspaceId: WorkspaceId, row: DeliveryFailureRecord): StoredRecord {
  return { ...row, ...indexAttributes(workspaceScope(workspaceId), row) };
}

export function rowExpiry(firstFailedAt: string): string {
  return new Date(expiryOf(firstFailedAt)).toISOString();
}

/** One workspace's delivery failures: every call is scoped to it by construction. */
export interface WorkspaceWebhookFailureStore {
  /** Strongly consistent: the worker's latest attempt is seen. */
  get(id: string): Promise<DeliveryFailureRecord | undefined>;
  /**
   * Records a failed or finished attempt. The first failure inserts the row and counts it in the
   * same transaction; later attempts (and a redelivered duplicate of a message whose row exists)
   * replace it, keeping first_failed_at and so its day counter and expiry.
   */
  save(row: DeliveryFailureRecord): Promise<void>;
  /** A page of rows, newest first failure first; `endpointId` narrows it to one endpoint. */
  page(
    request: { page: number; size: number; endpointId?: string },
    now?: number,
  ): Promise<{ items: DeliveryFailureRecord[]; total: number }>;
}

export const webhookFailureStore = {
  of(scope: StoreScope): WorkspaceWebhookFailureStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      get: (id) => getFailure(workspaceId, id),
      save: (row) => saveFailure(workspaceId, row),
      page: (request, now) => pageOfFailures(workspaceId, request, now),
    };
  },
};

async function getFailure(workspaceId: WorkspaceId, id: string): Promise<DeliveryFailureRecord | undefined> {
  return (await getRecord(keys.webhookFailure(workspaceId, id), { consistent: true })) as
    | DeliveryFailureRecord
    | undefined;
}

async function saveFailure(workspaceId: WorkspaceId, row: DeliveryFailureRecord): Promise<void> {
  const key = keys.webhookFailure(workspaceId, row.id);
  const expiresAt = Math.floor(expiryOf(row.first_failed_at) / 1000);
  const scope = workspaceScope(workspaceId);
  const counted: TableWrite[] = counterNames(dayOf(row.first_failed_at), row.endpoint_id).map((name) => ({
    kind: 'add',
    key: listKeys.counter(scope, list, name),
    entity: 'counter',
    attribute: 'count',
    by: 1,
    tally: true,
  }));
  try {
    await transactWrite([
      { kind: 'create', key, entity, record: stored(workspaceId, row), expiresAt },
      ...counted,
    ]);
  } catch (error) {
    if (!(error instanceof DataError) || error.code !== 'already-exists') throw error;
    await putRecord(key, entity, stored(workspaceId, row), expiresAt);
  }
}

async function pageOfFailures(
  workspaceId: WorkspaceId,
  request: { page: number; size: number; endpointId?: string },
  now = Date.now(),
): Promise<{ items: DeliveryFailureRecord[]; total: number }> {
  const scope = workspaceScope(workspaceId);
  const firstVisibleDay = dayStart(now) - (retentionDays - 1) * dayMs;
  const index = request.endpointId ? 'gsi5' : 'gsi4';
  const skip = request.page * request.size;
  const wanted: Array<{ pk: string; sk: string }> = [];
  let seen = 0;
  for await (const entry of queryItems({
    index,
    partitionKey: {
      name: `${index}pk`,
      value: listKeys.indexPartition(scope, list, request.endpointId),
    },
    sortKeyName: `${index}sk`,
    atLeast: new Date(firstVisibleDay).toISOString(),
    descending: true,
    pageSize: () => skip + request.size - seen,
  })) {
    if (seen++ < skip) continue;
    wanted.push({ pk: String(entry.pk), sk: String(entry.sk) });
    if (wanted.length >= request.size) break;
  }
  const days = Array.from({ length: retentionDays }, (_, i) =>
    dayOf(new Date(firstVisibleDay + i * dayMs).toISOString()),
  );
  const counterKeys = days.map((day) =>
    listKeys.counter(scope, list, request.endpointId ? `day#${day}#ep=${request.endpointId}` : `day#${day}`),
  );
  const [rows, counters] = await Promise.all([getRecords(wanted), getRecords(counterKeys)]);
  return {
    items: rows.filter((row): row is StoredRecord => row !== undefined) as unknown as DeliveryFailureRecord[],
    total: counters.reduce((sum, counter) => sum + Number(counter?.count ?? 0), 0),
  };
}
