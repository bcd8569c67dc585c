import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../shared/local-stack/free-port.ts';
import { baseUrl, call } from '../support/api.ts';

// The Fargate entry point, run as a process against the test stack's DynamoDB Local with the
// same signing key and issuer origin, as the load balancer would see it behind CloudFront.
let containerUrl: string;
let stop: () => void;

beforeAll(async () => {
  const port = await freePort();
  containerUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['bin/serve-container.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      FSM_BASE_URL: baseUrl(),
      FSM_AUTH_URL: baseUrl(),
      FSM_TABLE_NAME: 'fsm',
      FSM_DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      FSM_SIGNING_JWKS: readFileSync(join(inject('dataDir'), 'identity', 'signing-key.json'), 'utf8'),
    },
    stdio: 'ignore',
  });
  stop = () => child.kill('SIGTERM');
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${containerUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('container did not become healthy');
});

afterAll(() => stop?.());

describe('Fargate container', () => {
  it('answers the load balancer health check', async () => {
    const response = await fetch(`${containerUrl}/health`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it.each([
    ['the container', () => containerUrl],
    ['the local server', () => baseUrl()],
  ])('answers the readiness check on %s once the table, queues and signing keys answer', async (_, url) => {
    const response = await fetch(`${url()}/health/ready`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { table: 'ok', queues: 'ok', identity_keys: 'ok' },
    });
  });

  it('issues client-credentials tokens under the public issuer that the API accepts', async () => {
    const discovery = (await (
      await fetch(`${containerUrl}/realms/shared/.well-known/openid-configuration`)
    ).json()) as {
      issuer: string;
    };
    const tokenResponse = await fetch(`${containerUrl}/realms/shared/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'acme-admin',
        client_secret: 's3cret-acme-admin',
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

    expect(discovery.issuer).toBe(`${baseUrl()}/realms/shared`);
    expect((await call('GET', '/api/v2/areas', { token })).status).toBe(200);
  });

  it('answers other paths with a problem-document 404', async () => {
    const response = await fetch(`${containerUrl}/api/v2/areas`);

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });
});
