/**
 * Sending requests to the running service and reading its answers. Request bodies are built
 * in the tests themselves (or test/support/builders.ts); this file only transports.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { recordAnswer } from './observed-answers.ts';
import seed from './test-seed.json' with { type: 'json' };

export const baseUrl = () => inject('baseUrl');

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string | undefined;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export async function call<T = any>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) {
    headers['content-type'] =
      options.contentType ?? (method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
  }
  const response = await fetch(`${baseUrl()}${path}`, { method, headers, body });
  const text = await response.text();
  recordAnswer({
    method,
    path: path.split('?')[0] ?? path,
    status: response.status,
    headers: [...response.headers.keys()],
  });
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

const clients = new Map<string, { secret: string; realm: string }>(
  seed.workspaces.flatMap((workspace) =>
    workspace.clients.map(
      (client) => [client.client_id, { secret: client.client_secret, realm: workspace.realm }] as const,
    ),
  ),
);
const tokens = new Map<string, Promise<string>>();

/** A client-credentials access token of a seeded client (cached for the test file). */
export function tokenFor(clientId: string): Promise<string> {
  let token = tokens.get(clientId);
  if (!token) {
    const client = clients.get(clientId);
    if (!client) throw new Error(`no seeded client ${clientId}`);
    token = fetch(`${baseUrl()}/realms/${client.realm}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: client.secret,
      }),
    }).then(async (response) => {
      const json = (await response.json()) as { access_token?: string };
      if (!json.access_token) throw new Error(`no token for ${clientId}: ${JSON.stringify(json)}`);
      return json.access_token;
    });
    tokens.set(clientId, token);
  }
  return token;
}

export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/**
 * A token signed with the service's own signing key (read from its DATA_DIR), with chosen
 * claims: how tests get an expired yet validly signed token, or one with a foreign audience.
 */
export function forgeToken(claims: Record<string, unknown>): string {
  const jwks = JSON.parse(readFileSync(join(inject('dataDir'), 'identity', 'signing-key.json'), 'utf8')) as {
    keys: Array<Record<string, unknown>>;
  };
  const jwk = jwks.keys[0]!;
  const header = { alg: 'RS256', typ: 'at+jwt', kid: jwk.kid };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode(header)}.${encode(claims)}`;
  const key = createPrivateKey({ key: jwk as never, format: 'jwk' });
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** Retry an assertion until it passes (for consumers fed by the stream). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export const problemType = (slug: string) => expect.stringMatching(new RegExp(`/${slug}$`));
