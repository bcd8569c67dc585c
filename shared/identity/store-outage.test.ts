/**
 * When the table cannot be reached, the identity provider answers 503 with Retry-After, on its
 * own pages and on oidc-provider's endpoints alike, instead of a 500 that reads like a bug.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryDirectory } from '../../test/doubles/in-memory-directory.ts';
import { memoryAdapterFactory } from '../../test/doubles/memory-oidc-storage.ts';
import { BrowserSession, formsOf } from '../../test/support/browser-session.ts';
import { resetConfig } from '../config.ts';
import { resetDynamoClient } from '../data/client.ts';
import { DataError } from '../data/data-error.ts';
import type { AccountService } from './accounts.ts';
import { createIdentityServer } from './identity-server.ts';
import { IdentityStoreUnavailable, oidcAdapterFactory } from './oidc-storage.ts';
import { fileSigningKeyStore } from './signing-keys.ts';

const callback = 'http://127.0.0.1:8765/callback';
const outage = () => new DataError('unavailable', 'query: ECONNREFUSED');

let dir: string;
let server: Server;
let issuer: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'identity-outage-'));
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const authUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  issuer = `${authUrl}/realms/shared`;
  const accounts: AccountService = {
    signIn: async () => {
      throw outage();
    },
    findActiveAccount: async () => undefined,
    inspectSetPasswordToken: async () => undefined,
    setPasswordWithToken: async () => 'invalid_token',
  };
  // Sessions and interactions work; refresh tokens live in the store that is down.
  const memory = memoryAdapterFactory()('shared');
  const identity = createIdentityServer({
    authUrl,
    audience: 'fsm-api',
    directory: inMemoryDirectory({
      shared: [
        {
          clientId: 'web',
          clientSecret: 's3cret',
          workspaceId: 'ws',
          principalId: 'sa',
          redirectUris: [callback],
        },
      ],
    }),
    accounts,
    keys: fileSigningKeyStore(join(dir, 'key.json')),
    adapterFactory: () => (model: string) => {
      if (model !== 'RefreshToken') return memory(model);
      const down = async () => {
        throw new IdentityStoreUnavailable(outage());
      };
      return {
        upsert: down,
        find: down,
        findByUid: down,
        findByUserCode: down,
        consume: down,
        destroy: down,
        revokeByGrantId: down,
      };
    },
  });
  server.on('request', (req, res) => void identity.handle(req, res));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Identity provider during a store outage', () => {
  it('answers a login post with a 503 page and Retry-After', async () => {
    const browser = new BrowserSession({ stopAt: callback });
    const authorize = new URL(`${issuer}/protocol/openid-connect/auth`);
    authorize.search = new URLSearchParams({
      client_id: 'web',
      response_type: 'code',
      redirect_uri: callback,
      scope: 'openid',
      state: 'x',
    }).toString();
    const login = await browser.open(authorize);
    expect(formsOf(login)).toHaveLength(1);

    const answer = await browser.submit(login, { username: 'sina@acme.test', password: 'correct-horse-1' });

    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('answers the token endpoint with 503 temporarily_unavailable and Retry-After', async () => {
    const response = await fetch(`${issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'web',
        client_secret: 's3cret',
        refresh_token: 'some-refresh-token',
      }),
    });

    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('turns an unreachable table into IdentityStoreUnavailable in the DynamoDB adapter', async () => {
    const saved = process.env.FSM_DYNAMODB_ENDPOINT;
    process.env.FSM_DYNAMODB_ENDPOINT = 'http://127.0.0.1:9'; // discard port: connection refused
    resetConfig();
    resetDynamoClient();
    try {
      const adapter = oidcAdapterFactory('shared')('Session') as { find(id: string): Promise<unknown> };

      await expect(adapter.find('some-session')).rejects.toBeInstanceOf(IdentityStoreUnavailable);
    } finally {
      if (saved === undefined) delete process.env.FSM_DYNAMODB_ENDPOINT;
      else process.env.FSM_DYNAMODB_ENDPOINT = saved;
      resetConfig();
      resetDynamoClient();
    }
  });
});
