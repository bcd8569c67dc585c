/**
 * The DynamoDB clients of this container. Created once and reused: on Lambda the connection
 * survives between invocations, locally it points at DynamoDB Local. Every call has the
 * deadlines of ../aws/client-deadlines.ts, so a hanging store answers 503 within seconds
 * (the client is built by ../aws/clients.ts, as every SDK client is).
 *
 * A small middleware counts the calls made inside `countingDynamoCalls` so the local stack can
 * report what a request cost; outside such a scope it does nothing but one lookup.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoDbClient } from '../aws/clients.ts';
import { config } from '../config.ts';

let documentClient: DynamoDBDocumentClient | undefined;

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
}

const callScope = new AsyncLocalStorage<CallCost>();
const writeCommands = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'TransactWriteItems',
  'BatchWriteItem',
]);

/** ConsumedCapacity is one object for single-table calls and a list for batches and transactions. */
function capacityUnits(consumed: unknown): number {
  const entries = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  return entries.reduce(
    (sum, entry) => sum + Number((entry as { CapacityUnits?: number }).CapacityUnits ?? 0),
    0,
  );
}

export function dynamo(): DynamoDBDocumentClient {
  if (documentClient) return documentClient;
  // Built by ../aws/clients.ts: the emulator or AWS, the deadlines, the lean middleware stack
  // (measured with bench/api-latency.bench.ts: about 0.1 ms of CPU per call less).
  const client = dynamoDbClient();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const scoped = callScope.getStore();
      if (!scoped) return next(args);
      const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
      scoped.calls.set(name, (scoped.calls.get(name) ?? 0) + 1);
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      scoped.inFlight = (scoped.inFlight ?? 0) + 1;
      if (scoped.inFlight === 1) scoped.busySince = performance.now();
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } finally {
        if (--scoped.inFlight === 0) scoped.waitMs += performance.now() - (scoped.busySince ?? 0);
      }
      const units = capacityUnits((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity);
      if (writeCommands.has(name)) scoped.writeUnits += units;
      else scoped.readUnits += units;
      return result;
    },
    { step: 'initialize', name: 'fsmCallCounter' },
  );
  documentClient = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return documentClient;
}

export function tableName(): string {
  return config().tableName;
}

/**
 * Run `work` and count the DynamoDB calls made on its behalf (and only those, even while other
 * requests run concurrently) with the capacity units they consumed: how the local stack
 * reports what one request cost.
 */
export async function countingDynamoCalls<T>(work: () => Promise<T>): Promise<{ result: T } & CallCost> {
  const cost: CallCost = { calls: new Map(), readUnits: 0, writeUnits: 0, waitMs: 0 };
  const result = await callScope.run(cost, work);
  return { result, ...cost };
}

/** Drop the client (the local stack calls this after it has pointed the environment at the emulator). */
export function resetDynamoClient(): void {
  documentClient = undefined;
}
