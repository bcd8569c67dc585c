/**
 * The DynamoDB clients of this container. Created once and reused: on Lambda the connection
 * survives between invocations, locally it points at DynamoDB Local. Every call has the
 * deadlines of ../aws/client-deadlines.ts, so a hanging store answers 503 within seconds
 * (the client is built by ../aws/clients.ts, as every SDK client is).
 *
 * A small middleware adds each call, with the capacity units DynamoDB reports for it, to the cost
 * scopes it runs in (call-cost.ts: the HTTP kernel's per request, the local stack's per
 * invocation); outside any scope it does nothing but one lookup. Another signals each write that
 * succeeded to this process's listeners (write-signal.ts: the local stack's stream pollers). With
 * FSM_RECORD_TRANSACTIONS set (a test switch: the integration tests' service), a third appends the
 * keys of every write to that file (transaction-recorder.ts).
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoDbClient } from '../aws/clients.ts';
import { config } from '../config.ts';
import { activeCallCost, type CallCost } from './call-cost.ts';
import { recordTransactionsVariable, transactionRecorder } from './transaction-recorder.ts';
import { tableWritten } from './write-signal.ts';

let documentClient: DynamoDBDocumentClient | undefined;

const writeCommands = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'TransactWriteItems',
  'BatchWriteItem',
]);

/** DynamoDB's operation name of a call (`PutItem`), from the SDK's command name (`PutItemCommand`). */
function operationName(context: { commandName?: string }): string {
  return (context.commandName ?? 'unknown').replace(/Command$/, '');
}

/** ConsumedCapacity is one object for single-table calls and a list for batches and transactions. */
function capacityUnits(consumed: unknown): number {
  const entries = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  return entries.reduce(
    (sum, entry) => sum + Number((entry as { CapacityUnits?: number }).CapacityUnits ?? 0),
    0,
  );
}

function callStarted(scope: CallCost, name: string): void {
  scope.calls.set(name, (scope.calls.get(name) ?? 0) + 1);
  scope.inFlight = (scope.inFlight ?? 0) + 1;
  if (scope.inFlight === 1) scope.busySince = performance.now();
}

function callEnded(scope: CallCost, write: boolean, units: number): void {
  if (--(scope.inFlight as number) === 0) scope.waitMs += performance.now() - (scope.busySince ?? 0);
  if (write) scope.writeUnits += units;
  else scope.readUnits += units;
}

export function dynamo(): DynamoDBDocumentClient {
  if (documentClient) return documentClient;
  // Built by ../aws/clients.ts: the emulator or AWS, the deadlines, the lean middleware stack
  // (measured with bench/api-latency.bench.ts: about 0.1 ms of CPU per call less).
  const client = dynamoDbClient();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const scoped = activeCallCost();
      if (!scoped) return next(args);
      const name = operationName(context);
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      for (let scope: CallCost | undefined = scoped; scope; scope = scope.parent) callStarted(scope, name);
      let result: Awaited<ReturnType<typeof next>> | undefined;
      try {
        result = await next(args);
        return result;
      } finally {
        const units = capacityUnits((result?.output as { ConsumedCapacity?: unknown })?.ConsumedCapacity);
        for (let scope: CallCost | undefined = scoped; scope; scope = scope.parent) {
          callEnded(scope, writeCommands.has(name), units);
        }
      }
    },
    { step: 'initialize', name: 'fsmCallCounter' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (writeCommands.has(operationName(context))) tableWritten();
      return result;
    },
    { step: 'initialize', name: 'fsmTableWriteSignal' },
  );
  const recording = process.env[recordTransactionsVariable];
  if (recording) {
    client.middlewareStack.add(transactionRecorder(recording), {
      step: 'initialize',
      name: 'fsmTransactionRecorder',
    });
  }
  documentClient = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return documentClient;
}

export function tableName(): string {
  return config().tableName;
}

/** Drop the client (the local stack calls this after it has pointed the environment at the emulator). */
export function resetDynamoClient(): void {
  documentClient = undefined;
}
