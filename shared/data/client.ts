/**
 * The DynamoDB clients of this container. Created once and reused: on Lambda the connection
 * survives between invocations, locally it points at DynamoDB Local.
 *
 * A small middleware counts the calls per command so benchmarks and tests can assert what an
 * operation costs (`dynamoCallCounts()`); counting is a Map increment, cheap enough to stay on.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

let documentClient: DynamoDBDocumentClient | undefined;
const callCounts = new Map<string, number>();

export function dynamo(): DynamoDBDocumentClient {
  if (documentClient) return documentClient;
  const { endpoints, region } = config();
  const client = new DynamoDBClient({
    region,
    ...(endpoints.dynamodb
      ? { endpoint: endpoints.dynamodb, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 3,
  });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      callCounts.set(name, (callCounts.get(name) ?? 0) + 1);
      return next(args);
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

/** Calls per SDK command name since the last reset, e.g. `{ GetItemCommand: 1 }`. */
export function dynamoCallCounts(): Record<string, number> {
  return Object.fromEntries(callCounts);
}

export function resetDynamoCallCounts(): void {
  callCounts.clear();
}

/** Drop the client (the local stack calls this after it has pointed the environment at the emulator). */
export function resetDynamoClient(): void {
  documentClient = undefined;
}
