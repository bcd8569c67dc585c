/**
 * The DynamoDB clients of this container. Created once and reused: on Lambda the connection
 * survives between invocations, locally it points at DynamoDB Local. Every call has the
 * deadlines of ../aws/client-deadlines.ts, so a hanging store answers 503 within seconds.
 *
 * A small middleware counts the calls made inside `countingDynamoCalls` so the local stack can
 * report what a request cost; outside such a scope it does nothing but one lookup.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { deadlineConfig, withTotalDeadline } from '../aws/client-deadlines.ts';
import { config } from '../config.ts';

let documentClient: DynamoDBDocumentClient | undefined;
const callScope = new AsyncLocalStorage<Map<string, number>>();

export function dynamo(): DynamoDBDocumentClient {
  if (documentClient) return documentClient;
  const { endpoints, region } = config();
  const client = withTotalDeadline(
    new DynamoDBClient({
      region,
      ...(endpoints.dynamodb
        ? { endpoint: endpoints.dynamodb, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
      ...deadlineConfig(),
    }),
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
      const scoped = callScope.getStore();
      if (scoped) scoped.set(name, (scoped.get(name) ?? 0) + 1);
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

/**
 * Run `work` and count the DynamoDB calls made on its behalf (and only those, even while other
 * requests run concurrently): how the local stack reports what one request cost.
 */
export async function countingDynamoCalls<T>(
  work: () => Promise<T>,
): Promise<{ result: T; calls: Map<string, number> }> {
  const calls = new Map<string, number>();
  const result = await callScope.run(calls, work);
  return { result, calls };
}

/** Drop the client (the local stack calls this after it has pointed the environment at the emulator). */
export function resetDynamoClient(): void {
  documentClient = undefined;
}
