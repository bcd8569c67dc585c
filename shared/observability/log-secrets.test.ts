/**
 * Secrets never reach a log line: a user's bearer token, a webhook secret, a password and a
 * device intake secret are fed through every path that writes one — the request line and the
 * error lines of the HTTP kernel (as headers, bodies, error messages and causes), the stream
 * processor's failure line, the webhook and solver workers' warnings (plain `logger` calls with
 * details), at every level — and none is found in what was written.
 */
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { DataError } from '../data/data-error.ts';
import { outboxEntity } from '../data/outbox.ts';
import { processStreamBatch } from '../events/stream-processor.ts';
import type { ApiEvent } from '../http/api-gateway.ts';
import { createKernelHandler } from '../http/operation-kernel.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import { MailError } from '../mail/mail-error.ts';
import { logger } from './logger.ts';
import { redact, redactText } from './redaction.ts';

const secrets = {
  token:
    'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTEiLCJzY29wZSI6ImFyZWFzOnJlYWQifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg',
  webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7n2Wy2nbQWo=',
  password: 'Tr0ub4dor&3-horse',
  intakeSecret: 'fsmi.ws-7.q2VbJw1xX9kLp0aZrT5uYc3NdE8fGh6iJk4lMn7oPqR',
} as const;
const everySecret = Object.values(secrets);

const routes = [
  {
    operationId: 'vault.open',
    method: 'POST',
    path: '/vault',
    group: 'vault',
    summary: 'Opens the vault',
    description: 'A test route whose body carries a password and a webhook secret.',
    examples: {},
    tags: ['Platform'],
    auth: 'none',
    body: z.object({
      password: z.string(),
      secret: z.string(),
      mode: z.enum(['ok', 'data', 'mail', 'crash']),
    }),
    success: { status: 200, description: 'Opened.' },
  },
  {
    operationId: 'vault.read',
    method: 'GET',
    path: '/vault',
    group: 'vault',
    summary: 'Reads the vault',
    description: 'A bearer route whose authenticator fails naming the token.',
    examples: {},
    tags: ['Platform'],
    auth: 'bearer',
    success: { status: 200, description: 'Read.' },
  },
  {
    operationId: 'vault.report',
    method: 'POST',
    path: '/vault/report',
    group: 'vault',
    summary: 'A device report',
    description: 'A device route whose authenticator fails naming the intake secret.',
    examples: {},
    tags: ['Platform'],
    auth: 'device',
    success: { status: 200, description: 'Accepted.' },
  },
] as const satisfies readonly RouteSpec[];

const everything = `token ${secrets.token}, Bearer ${secrets.token}, webhook ${secrets.webhookSecret}, password ${secrets.password}, intake ${secrets.intakeSecret}`;

const handler = createKernelHandler(
  routes,
  {
    'vault.open': async ({ body }) => {
      if (body.mode === 'data') {
        throw new DataError('unavailable', 'table busy', { cause: new Error(everything) });
      }
      if (body.mode === 'mail') throw new MailError({ cause: new Error(everything) });
      if (body.mode === 'crash') throw new TypeError(`cannot read ${everything}`);
      return { body: { ok: true } };
    },
    'vault.read': async () => ({ body: { ok: true } }),
    'vault.report': async () => ({ body: { ok: true } }),
  },
  {
    authenticateBearer: async (authorization) => {
      throw new Error(`verifying ${authorization} failed`);
    },
    authenticateDevice: async (event) => {
      throw new Error(`no device for ${event.headers?.authorization} (secret ${secrets.intakeSecret})`);
    },
  },
);

function event(routeKey: string, init: { body?: unknown; authorization?: string } = {}): ApiEvent {
  const [method = 'GET', path = '/'] = routeKey.split(' ');
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: `password=${encodeURIComponent(secrets.password)}&token=${secrets.token}`,
    headers: {
      'content-type': 'application/json',
      ...(init.authorization ? { authorization: init.authorization } : {}),
    },
    requestContext: { http: { method, path } },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    isBase64Encoded: false,
  } as unknown as ApiEvent;
}

const context = { functionName: 'vault', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

let written: string[];

beforeEach(() => {
  written = [];
  const capture = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  vi.stubEnv('LOG_LEVEL', 'debug');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

function expectNoSecretIn(output: string): void {
  for (const secret of everySecret) expect(output).not.toContain(secret);
  // Nor a recognisable part of one (a redaction that kept the token's payload would leak it).
  expect(output).not.toContain(secrets.token.split('.')[1]);
  expect(output).not.toContain(secrets.intakeSecret.split('.')[2]);
}

describe('Module: logger (secrets)', () => {
  it.each(['ok', 'data', 'mail', 'crash'] as const)(
    'logs a request whose body, query and error (%s) carry every secret without any of them',
    async (mode) => {
      // Act
      await handler(
        event('POST /vault', {
          body: { password: secrets.password, secret: secrets.webhookSecret, mode },
          authorization: `Bearer ${secrets.token}`,
        }),
        context,
      );

      // Assess
      const output = written.join('');
      expect(output).toContain('"message":"request"');
      expectNoSecretIn(output);
    },
  );

  it('logs a bearer token the authenticator failed on without the token', async () => {
    // Act
    const result = await handler(event('GET /vault', { authorization: `Bearer ${secrets.token}` }), context);

    // Assess
    expect(result.statusCode).toBe(500);
    const output = written.join('');
    expect(output).toContain('unhandled error');
    expectNoSecretIn(output);
  });

  it('logs a device intake secret the authenticator failed on without the secret', async () => {
    // Act
    await handler(event('POST /vault/report', { authorization: `Bearer ${secrets.intakeSecret}` }), context);

    // Assess
    const output = written.join('');
    expect(output).toContain('unhandled error');
    expectNoSecretIn(output);
  });

  it('logs a failed event consumer without the secrets its error names', async () => {
    // Prepare
    const outboxRecord = {
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: '1',
        NewImage: {
          entity: { S: outboxEntity },
          event: { M: { id: { S: 'e-1' }, type: { S: 'webhook_endpoint.created' } } },
        },
      },
    };
    const consumer = {
      name: 'webhooks',
      handleBatch: async () => {
        throw new Error(`endpoint refused: ${everything}`);
      },
    };

    // Act
    await processStreamBatch({ Records: [outboxRecord] } as never, [consumer], (message, details) =>
      logger.error(message, details),
    );

    // Assess
    const output = written.join('');
    expect(output).toContain('event consumer failed');
    expectNoSecretIn(output);
  });

  it.each(['debug', 'info', 'warn', 'error'] as const)(
    'writes a %s line whose details name every secret, under any key and inside text, without them',
    (level) => {
      // Act
      logger[level]('webhook attempt failed', {
        authorization: `Bearer ${secrets.token}`,
        headers: { Authorization: `Bearer ${secrets.token}`, 'x-api-key': secrets.webhookSecret },
        secret: secrets.webhookSecret,
        endpoint: { url: 'https://hooks.example', signing_secret: secrets.webhookSecret },
        user: { email: 'ada@example.com', password: secrets.password },
        clientSecret: secrets.password,
        intake: secrets.intakeSecret,
        error: new Error(everything),
        note: everything,
        list: [everything],
      });

      // Assess
      const output = written.join('');
      expect(output).toContain('webhook attempt failed');
      expect(output).toContain('ada@example.com');
      expectNoSecretIn(output);
    },
  );

  it('keeps what only names a secret', () => {
    expect(redact({ secretArn: 'arn:aws:secretsmanager:x', tokenId: 't-1', token_count: 3 })).toEqual({
      secretArn: 'arn:aws:secretsmanager:x',
      tokenId: 't-1',
      token_count: 3,
    });
    expect(redactText('the token expired at 10:00')).toBe('the token expired at 10:00');
  });
});
