/**
 * `npm start` with FSM_DYNAMODB_ENDPOINT: the service uses the DynamoDB it is given (here a
 * DynamoDB Local this test starts itself) instead of starting one of its own, creates its table
 * there, and writes what it is asked to write there.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REGION, LOCAL_CREDENTIALS } from './create-resources.ts';
import { givenDynamoDbEndpoint } from './dynamodb-endpoint.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';
import { checkJava } from './prerequisites.ts';
import { type RunningService, startService } from './service-process.ts';

const client = { client_id: 'endpoint-admin', client_secret: 'endpoint-secret-1' };
let dataDir: string;
let dynamodb: DynamoDbLocal;
let service: RunningService;

beforeAll(async () => {
  await checkJava();
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-given-dynamodb-'));
  const seedFile = join(dataDir, 'seed.json');
  await writeFile(
    seedFile,
    JSON.stringify({
      workspaces: [
        {
          name: 'Given Endpoint',
          realm: 'shared',
          status: 'ACTIVE',
          clients: [{ ...client, roles: ['admin'] }],
        },
      ],
    }),
  );
  dynamodb = await startDynamoDbLocal({ dataDir: null });
  service = await startService({
    DATA_DIR: join(dataDir, 'data'),
    FSM_SEED: seedFile,
    FSM_DYNAMODB_ENDPOINT: dynamodb.endpoint,
  });
}, 90_000);

afterAll(async () => {
  await service?.stop();
  await dynamodb?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('npm start with FSM_DYNAMODB_ENDPOINT', () => {
  it('uses the DynamoDB it is given, with the table and its stream created there, and starts none of its own', async () => {
    const direct = new DynamoDBClient({
      endpoint: dynamodb.endpoint,
      region: DEFAULT_REGION,
      credentials: LOCAL_CREDENTIALS,
    });
    const table = await direct.send(new DescribeTableCommand({ TableName: 'fsm' }));
    direct.destroy();

    expect(service.output()).toContain(
      `DynamoDB at ${dynamodb.endpoint} (FSM_DYNAMODB_ENDPOINT; no DynamoDB Local started)`,
    );
    expect(service.output()).not.toContain('DynamoDB Local at');
    expect(service.dynamodbEndpoint).toBe(dynamodb.endpoint);
    // DynamoDB Local keeps its files under DATA_DIR/dynamodb: none was started there.
    expect(existsSync(join(dataDir, 'data', 'dynamodb'))).toBe(false);
    expect(table.Table?.StreamSpecification?.StreamEnabled).toBe(true);
    expect(table.Table?.GlobalSecondaryIndexes?.length).toBeGreaterThan(0);
  });

  it('writes what it is asked to write into that DynamoDB', async () => {
    const tokenAnswer = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', ...client }),
    });
    const { access_token } = (await tokenAnswer.json()) as { access_token: string };

    const created = await fetch(`${service.baseUrl}/api/v2/areas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stored elsewhere', color: '#0000ff' }),
    });
    const area = (await created.json()) as { id: string };

    expect(created.status).toBe(201);
    const documents = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: dynamodb.endpoint,
        region: DEFAULT_REGION,
        credentials: LOCAL_CREDENTIALS,
      }),
    );
    const found: Record<string, unknown>[] = [];
    for await (const page of paginateScan(
      { client: documents },
      {
        TableName: 'fsm',
        ConsistentRead: true,
        FilterExpression: 'id = :id AND #name = :name',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':id': area.id, ':name': 'Stored elsewhere' },
      },
    )) {
      found.push(...(page.Items ?? []));
    }
    documents.destroy();
    expect(found.length).toBeGreaterThanOrEqual(1);
  });
});

describe('Function: givenDynamoDbEndpoint', () => {
  it.each([{}, { FSM_DYNAMODB_ENDPOINT: '' }, { FSM_DYNAMODB_ENDPOINT: '  ' }])(
    'names none for %o',
    (env) => {
      expect(givenDynamoDbEndpoint(env)).toBeUndefined();
    },
  );

  it('names the endpoint given', () => {
    expect(givenDynamoDbEndpoint({ FSM_DYNAMODB_ENDPOINT: 'http://10.0.0.7:8000' })).toBe(
      'http://10.0.0.7:8000',
    );
  });

  it.each(['127.0.0.1:8000', 'dynamodb', 'ftp://host'])('refuses %s, which is no http(s) URL', (value) => {
    expect(() => givenDynamoDbEndpoint({ FSM_DYNAMODB_ENDPOINT: value })).toThrow(/FSM_DYNAMODB_ENDPOINT is/);
  });
});
