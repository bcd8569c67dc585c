/**
 * Which DynamoDB the local stack uses. By default its own DynamoDB Local (dynamodb-local.ts, data
 * under DATA_DIR). `FSM_DYNAMODB_ENDPOINT` names another DynamoDB-compatible endpoint instead: a
 * shared development DynamoDB Local, another emulator, a proxy in front of one. The stack then
 * starts no DynamoDB Local and only uses that endpoint: it creates the table there when absent
 * (create-resources.ts) and reads the table's stream there when the endpoint serves the DynamoDB
 * Streams API, as DynamoDB Local does.
 */
import { ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import { dynamoDbStreamsClient } from '../aws/clients.ts';
import { retryStartUpStep } from '../aws/start-up-retry.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';

export interface StackDynamoDb {
  endpoint: string;
  /** True when the stack started this DynamoDB Local itself (and stops it). */
  own: boolean;
  stop(): Promise<void>;
}

/** The endpoint FSM_DYNAMODB_ENDPOINT names, if any; a value that is not an http(s) URL stops the start. */
export function givenDynamoDbEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.FSM_DYNAMODB_ENDPOINT?.trim();
  if (!value) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(
      `FSM_DYNAMODB_ENDPOINT is '${value}'; it takes a DynamoDB endpoint URL such as http://127.0.0.1:8000`,
    );
  }
  return value;
}

/** The given endpoint, or a DynamoDB Local of the stack's own (prerequisites.ts: checkJava first). */
export async function startStackDynamoDb(given: string | undefined, dataDir: string): Promise<StackDynamoDb> {
  if (given) return { endpoint: given, own: false, stop: async () => {} };
  const local = await startDynamoDbLocal({ dataDir });
  return { endpoint: local.endpoint, own: true, stop: () => local.stop() };
}

/**
 * Whether the table's stream can be read there: always from a DynamoDB Local of the stack's own;
 * an endpoint given is asked (and a no is said in the start's progress).
 */
export async function streamsServed(
  dynamodb: StackDynamoDb,
  region: string,
  progress: (step: string) => void,
): Promise<boolean> {
  if (dynamodb.own) return true;
  const served = await retryStartUpStep('asking the DynamoDB endpoint for streams', () =>
    servesStreams(dynamodb.endpoint, region),
  );
  if (!served) {
    progress(
      `${dynamodb.endpoint} serves no DynamoDB streams: the table gets none, and no events are processed`,
    );
  }
  return served;
}

/**
 * Whether the endpoint serves the DynamoDB Streams API. An answer refusing the operation (a 4xx
 * other than throttling or refused credentials, or 501: not implemented there) means no; any
 * other failure is thrown: the start-up retries one of availability (shared/aws/start-up-retry.ts).
 */
export async function servesStreams(endpoint: string, region: string): Promise<boolean> {
  const client = dynamoDbStreamsClient({ endpoint, region, deadlines: 'attempt' });
  try {
    await client.send(new ListStreamsCommand({ Limit: 1 }));
    return true;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const refusedOperation = status !== undefined && status >= 400 && status < 500;
    if ((refusedOperation && ![401, 403, 429].includes(status)) || status === 501) return false;
    throw error;
  } finally {
    client.destroy();
  }
}
