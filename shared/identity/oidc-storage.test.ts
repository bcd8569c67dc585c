/**
 * The adapter contract oidc-provider relies on, checked for the in-memory adapters and for the
 * DynamoDB adapters on DynamoDB Local (which, like AWS before its sweeper runs, still returns
 * expired items).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryAccounts } from '../../test/doubles/in-memory-accounts.ts';
import { inMemoryDirectory } from '../../test/doubles/in-memory-directory.ts';
import { memoryAdapterFactory } from '../../test/doubles/memory-oidc-storage.ts';
import { resetConfig } from '../config.ts';
import { dynamo, resetDynamoClient, tableName } from '../data/client.ts';
import { createTable } from '../local-stack/create-resources.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../local-stack/dynamodb-local.ts';
import { checkJava } from '../local-stack/prerequisites.ts';
import { createIdentityServer } from './identity-server.ts';
import { type AdapterFactory, oidcAdapterFactory } from './oidc-storage.ts';
import { fileSigningKeyStore } from './signing-keys.ts';

const now = () => Math.floor(Date.now() / 1000);

function adapterContract(name: string, factory: () => AdapterFactory) {
  describe(`${name}: what oidc-provider stores comes back`, () => {
    it('finds what was stored, per realm, and nothing it never stored', async () => {
      const shared = factory()('shared')('Interaction');
      const other = factory()('acme')('Interaction');
      await shared.upsert('i-1', { jti: 'i-1', kind: 'Interaction', returnTo: '/x' }, 600);

      expect(await shared.find('i-1')).toEqual({ jti: 'i-1', kind: 'Interaction', returnTo: '/x' });
      expect(await other.find('i-1')).toBeUndefined();
      expect(await shared.find('unknown')).toBeUndefined();
    });

    it('no longer returns an item once it has expired, although the table still holds it', async () => {
      const adapter = factory()('shared')('AuthorizationCode');
      await adapter.upsert('code-expired', { jti: 'code-expired', grantId: 'g-expired' }, -1);

      expect(await adapter.find('code-expired')).toBeUndefined();
    });

    it('finds a session by its uid until the session changes uid or is destroyed', async () => {
      const sessions = factory()('shared')('Session');
      await sessions.upsert('s-1', { jti: 's-1', uid: 'uid-1', accountId: 'u-1' }, 600);
      expect(await sessions.findByUid('uid-1')).toMatchObject({ jti: 's-1', accountId: 'u-1' });

      await sessions.upsert('s-1', { jti: 's-1', uid: 'uid-2', accountId: 'u-1' }, 600);
      expect(await sessions.findByUid('uid-1')).toBeUndefined();
      expect(await sessions.findByUid('uid-2')).toMatchObject({ jti: 's-1' });

      await sessions.destroy('s-1');
      expect(await sessions.find('s-1')).toBeUndefined();
      expect(await sessions.findByUid('uid-2')).toBeUndefined();
    });

    it('finds a device code by its user code', async () => {
      const codes = factory()('shared')('DeviceCode');
      await codes.upsert('d-1', { jti: 'd-1', userCode: 'ABCD-EFGH' }, 600);

      expect(await codes.findByUserCode('ABCD-EFGH')).toMatchObject({ jti: 'd-1' });
      expect(await codes.findByUserCode('ZZZZ-ZZZZ')).toBeUndefined();
    });

    it('marks a code consumed, and consuming an unknown id stores nothing', async () => {
      const codes = factory()('shared')('AuthorizationCode');
      await codes.upsert('c-1', { jti: 'c-1' }, 60);
      await codes.consume('c-1');
      await codes.consume('c-unknown');

      const consumed = await codes.find('c-1');
      expect(typeof consumed?.consumed).toBe('number');
      expect(await codes.find('c-unknown')).toBeUndefined();
    });

    it('revokes every token of a grant and only those', async () => {
      const tokens = factory()('shared')('RefreshToken');
      await tokens.upsert('rt-1', { jti: 'rt-1', grantId: 'grant-a' }, 600);
      await tokens.upsert('rt-2', { jti: 'rt-2', grantId: 'grant-a' }, 600);
      await tokens.upsert('rt-3', { jti: 'rt-3', grantId: 'grant-b' }, 600);
      await tokens.destroy('rt-2');

      await tokens.revokeByGrantId('grant-a');

      expect(await tokens.find('rt-1')).toBeUndefined();
      expect(await tokens.find('rt-3')).toMatchObject({ grantId: 'grant-b' });
    });

    it('never stores clients: they come from the directory', () => {
      expect(() => factory()('shared')('Client')).toThrow(/directory/i);
    });
  });
}

const memory = memoryAdapterFactory();
adapterContract('in memory', () => memory);

describe('on DynamoDB Local', () => {
  let dir: string;
  let ddb: DynamoDbLocal;
  const saved = { ...process.env };

  beforeAll(async () => {
    await checkJava();
    dir = await mkdtemp(join(tmpdir(), 'oidc-storage-test-'));
    ddb = await startDynamoDbLocal({ dataDir: null });
    await createTable({ endpoint: ddb.endpoint, tableName: 'oidc-storage-test' });
    process.env.FSM_DYNAMODB_ENDPOINT = ddb.endpoint;
    process.env.FSM_TABLE_NAME = 'oidc-storage-test';
    resetConfig();
    resetDynamoClient();
  }, 60_000);

  afterAll(async () => {
    process.env = saved;
    resetConfig();
    resetDynamoClient();
    await ddb?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  adapterContract('DynamoDB', () => oidcAdapterFactory);

  it('keeps the provider state in the table with an expiry, and issues tokens from it', async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const authUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const identity = createIdentityServer({
      authUrl,
      audience: 'fsm-api',
      accounts: inMemoryAccounts([]),
      directory: inMemoryDirectory({
        shared: [
          {
            clientId: 'web',
            clientSecret: 'web-secret',
            workspaceId: 'ws-1',
            principalId: 'sa-web',
            redirectUris: ['http://127.0.0.1:9/cb'],
          },
        ],
      }),
      keys: fileSigningKeyStore(join(dir, 'signing-key.json')),
    });
    server.on('request', (req, res) => void identity.handle(req, res));
    try {
      const token = await fetch(`${authUrl}/realms/shared/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=web&client_secret=web-secret',
      });
      expect(token.status).toBe(200);

      const authorize = await fetch(
        `${authUrl}/realms/shared/protocol/openid-connect/auth?client_id=web&response_type=code&scope=openid&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}`,
        { redirect: 'manual' },
      );
      const uid = authorize.headers.get('location')?.split('/').pop() ?? '';
      expect(authorize.status).toBe(303);

      const { Item } = await dynamo().send(
        new GetCommand({ TableName: tableName(), Key: { pk: 'REALM#shared#OIDC#Interaction', sk: uid } }),
      );
      expect(Item).toMatchObject({ entity: 'oidc:Interaction' });
      expect(Item?.expires_at).toBeGreaterThan(now());
      expect(Item?.expires_at).toBeLessThanOrEqual(now() + 30 * 60);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
