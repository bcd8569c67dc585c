/**
 * A document client on the test stack's DynamoDB Local: for tests that put records straight into
 * the table (a state only a crash leaves behind, a hook of test-hooks.ts). Destroy it after use.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';

export function directTable(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamodbEndpoint'),
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}
