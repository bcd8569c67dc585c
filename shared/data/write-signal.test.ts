/**
 * The local stack's stream pollers sleep up to a second when idle and count on this signal to read
 * a write of the service at once: every write call of `dynamo()` that succeeded signals, and
 * nothing else does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../config.ts';
import { dynamo, resetDynamoClient } from './client.ts';
import { onTableWrite } from './write-signal.ts';

let server: Server;
/** Answers every DynamoDB call with an empty success, or 400 for the item `refused`. */
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const refused = body.includes('"refused"');
      response.writeHead(refused ? 400 : 200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(
        refused
          ? JSON.stringify({
              __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
              message: 'The conditional request failed',
            })
          : '{}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.FSM_DYNAMODB_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetConfig();
  resetDynamoClient();
});

afterAll(async () => {
  delete process.env.FSM_DYNAMODB_ENDPOINT;
  resetConfig();
  resetDynamoClient();
  await new Promise((resolve) => server.close(resolve));
});

describe('Module: write-signal', () => {
  it('signals each write the table accepted, and no read or refused write', async () => {
    let signals = 0;
    const unsubscribe = onTableWrite(() => {
      signals += 1;
    });
    const client = dynamo();

    await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));
    expect(signals).toBe(0);
    await client.send(new PutCommand({ TableName: 't', Item: { pk: 'a', sk: 'b' } }));
    await client.send(
      new UpdateCommand({
        TableName: 't',
        Key: { pk: 'a', sk: 'b' },
        UpdateExpression: 'SET n = :n',
        ExpressionAttributeValues: { ':n': 1 },
      }),
    );
    await client.send(
      new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 't', Item: { pk: 'a', sk: 'c' } } }] }),
    );
    expect(signals).toBe(3);
    await expect(
      client.send(new PutCommand({ TableName: 't', Item: { pk: 'refused', sk: 'b' } })),
    ).rejects.toThrow(/conditional/);
    expect(signals).toBe(3);

    unsubscribe();
    await client.send(new PutCommand({ TableName: 't', Item: { pk: 'a', sk: 'd' } }));
    expect(signals).toBe(3);
  });
});
