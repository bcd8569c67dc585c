/**
 * DynamoDB's semantics for a test that runs the data layer in-process: a DynamoDB Local of its
 * own behind the semantics proxy (shared/local-stack/dynamodb-semantics-proxy.ts: concurrent
 * transactions on one item cancel each other, indexes may lag), the data layer pointed at the
 * proxy, the table created, and the stream processor's tally work running as the local stack runs
 * it (shared/data/tally.ts). `stop` puts the environment back.
 */
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { resetConfig } from '../../shared/config.ts';
import { resetDynamoClient } from '../../shared/data/client.ts';
import { processStreamBatch } from '../../shared/events/stream-processor.ts';
import { createTable } from '../../shared/local-stack/create-resources.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../shared/local-stack/dynamodb-local.ts';
import {
  type DynamoDbSemanticsProxy,
  startDynamoDbSemanticsProxy,
} from '../../shared/local-stack/dynamodb-semantics-proxy.ts';
import { type StreamPoller, startStreamPoller } from '../../shared/local-stack/stream-poller.ts';

export interface SemanticsHarness {
  dynamodb: DynamoDbLocal;
  proxy: DynamoDbSemanticsProxy;
  /** The records stream processor's tally applies (absent with `tallies: false`). */
  poller?: StreamPoller;
  stop(): Promise<void>;
}

export async function startSemanticsHarness(options: {
  /** How long a transaction holds its items after DynamoDB Local answered (widens the window). */
  holdMs: number;
  /** How long index reads lag the table (0: none). */
  indexLagMs?: number;
  /** Further environment of the data layer (FSM_LIST_QUERY_MAX…). */
  env?: Record<string, string>;
  /** Whether the stream processor applies tallies (default true); `seen` watches its batches. */
  tallies?: boolean;
  seen?: (event: DynamoDBStreamEvent) => void;
}): Promise<SemanticsHarness> {
  const saved = { ...process.env };
  const dynamodb = await startDynamoDbLocal({ dataDir: null });
  const proxy = await startDynamoDbSemanticsProxy({
    target: dynamodb.endpoint,
    holdMs: options.holdMs,
    ...(options.indexLagMs ? { indexLagMs: options.indexLagMs } : {}),
  });
  Object.assign(process.env, {
    FSM_TABLE_NAME: 'fsm',
    FSM_DYNAMODB_ENDPOINT: proxy.endpoint,
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    FSM_BASE_URL: 'http://127.0.0.1:1',
    ...options.env,
  });
  resetConfig();
  resetDynamoClient();
  await createTable({ endpoint: dynamodb.endpoint, tableName: 'fsm' });
  // With a lag, the proxy builds its lagging copy of the table on the first index read or write
  // through it (seconds on a busy machine): here, by a client without the data layer's deadlines.
  if (options.indexLagMs) await warmIndexLag(proxy.endpoint);
  const poller =
    options.tallies === false
      ? undefined
      : startStreamPoller({
          endpoint: dynamodb.endpoint,
          tableName: 'fsm',
          checkpointFile: null,
          intervalMs: 50,
          onRecords: (event) => {
            options.seen?.(event);
            return processStreamBatch(event, [], () => {}, { tallies: true });
          },
        });
  return {
    dynamodb,
    proxy,
    ...(poller ? { poller } : {}),
    async stop() {
      await poller?.stop();
      await proxy.stop();
      await dynamodb.stop();
      process.env = saved;
      resetConfig();
      resetDynamoClient();
    },
  };
}

async function warmIndexLag(endpoint: string): Promise<void> {
  const warm = new DynamoDBClient({
    endpoint,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await warm.send(
      new QueryCommand({
        TableName: 'fsm',
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :none',
        ExpressionAttributeValues: { ':none': { S: 'warm-up' } },
      }),
    );
  } finally {
    warm.destroy();
  }
}
