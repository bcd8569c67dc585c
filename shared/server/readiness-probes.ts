/**
 * The probes of the readiness check (readiness.ts) on the service's dependencies: one read of
 * the table (a key that never exists: half a read capacity unit), GetQueueAttributes of each work
 * queue, and the identity provider's signing keys (that it holds one to sign and publish).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { dynamoDbClient, sqsClient } from '../aws/clients.ts';
import { config } from '../config.ts';
import type { ReadinessProbe } from './readiness.ts';

export interface ReadinessDependencies {
  /** The work queues whose consumers this node's writes feed (their URLs; unset ones are left out). */
  queueUrls: readonly (string | undefined)[];
  /** The identity provider's signing keys (only counted: never logged or answered). */
  signingKeys: () => Promise<{ keys: readonly unknown[] }>;
}

export function readinessProbes(dependencies: ReadinessDependencies): ReadinessProbe[] {
  const dynamo = dynamoDbClient({ deadlines: 'probe' });
  const sqs = sqsClient({ deadlines: 'probe' });
  const queues = dependencies.queueUrls.filter((url): url is string => Boolean(url));
  return [
    {
      name: 'table',
      check: async () => {
        await dynamo.send(
          new GetItemCommand({
            TableName: config().tableName,
            Key: { pk: { S: 'READINESS' }, sk: { S: 'probe' } },
          }),
        );
      },
    },
    {
      name: 'queues',
      check: async () => {
        await Promise.all(
          queues.map((QueueUrl) =>
            sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] })),
          ),
        );
      },
    },
    {
      name: 'identity_keys',
      check: async () => {
        const { keys } = await dependencies.signingKeys();
        if (keys.length === 0) throw new Error('the identity provider holds no signing key');
      },
    },
  ];
}
