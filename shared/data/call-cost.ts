/**
 * What the DynamoDB calls made on behalf of a piece of work cost: calls by command, the capacity
 * units DynamoDB reported, the time spent waiting. The client's middleware (client.ts) adds each
 * call to the scopes it runs in; the HTTP kernel opens one per request (its metrics and log line
 * carry the units per operation), the local stack one around a whole invocation when it reports
 * calls in headers. No SDK import here: the kernel of every group, the platform one too, opens
 * a scope without bundling a DynamoDB client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What the calls of one scope cost: calls by command, and the capacity units DynamoDB reported. */
export interface CallCost {
  calls: Map<string, number>;
  readUnits: number;
  writeUnits: number;
  /** Milliseconds with at least one call in flight (parallel calls count once). */
  waitMs: number;
  /** Calls in flight now, and since when one was. */
  inFlight?: number;
  busySince?: number;
  /** The scope this one was opened in: a call counts in both. */
  parent?: CallCost;
  /** Opened by inRequestCallCost for one request (never the parent of another request's scope). */
  perRequest?: boolean;
  /**
   * A list of this request answered with an estimated total: its exact count would have read
   * more than the read bound allows (list-read.ts). The HTTP kernel says so in a header.
   */
  totalEstimated?: boolean;
}

const callScope = new AsyncLocalStorage<CallCost>();

function newCallCost(parent?: CallCost): CallCost {
  return { calls: new Map(), readUnits: 0, writeUnits: 0, waitMs: 0, ...(parent ? { parent } : {}) };
}

/** The scope a call made now counts in (with its parents), if any. */
export function activeCallCost(): CallCost | undefined {
  return callScope.getStore();
}

/**
 * Runs one request's work (`fn`, the HTTP kernel's handler) in a cost scope of its own, a child
 * of the scope it runs in (the local stack's, around a whole invocation) but never of another
 * request's.
 */
export function inRequestCallCost<T>(fn: () => T): T {
  let parent = callScope.getStore();
  while (parent?.perRequest) parent = parent.parent;
  return callScope.run({ ...newCallCost(parent), perRequest: true }, fn);
}

/**
 * Run `work` and count the DynamoDB calls made on its behalf (and only those, even while other
 * requests run concurrently) with the capacity units they consumed: how the local stack
 * reports what one request cost.
 */
export async function countingDynamoCalls<T>(work: () => Promise<T>): Promise<{ result: T } & CallCost> {
  let cost = newCallCost();
  const result = await withCallCost(work, (settled) => {
    cost = settled;
  });
  return { result, ...cost };
}

/**
 * Run `work` in a scope of its own and hand the scope to `done` when it settles, failed or not
 * (a queue or stream handler's invocation, which reports its cost either way).
 */
export async function withCallCost<T>(work: () => Promise<T>, done: (cost: CallCost) => void): Promise<T> {
  const cost = newCallCost(callScope.getStore());
  try {
    return await callScope.run(cost, work);
  } finally {
    done(cost);
  }
}

/** The total number of calls of a scope. */
export function callCount(cost: CallCost): number {
  let total = 0;
  for (const count of cost.calls.values()) total += count;
  return total;
}

/** Marks the request's scope: a list total it answers is an estimate (see `totalEstimated`). */
export function noteEstimatedTotal(): void {
  let scope = callScope.getStore();
  while (scope && !scope.perRequest) scope = scope.parent;
  const target = scope ?? callScope.getStore();
  if (target) target.totalEstimated = true;
}
