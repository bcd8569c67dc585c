/**
 * A workspace of the fuzz run's own, made through the admin plane, with an admin-role and a
 * technician-role API client: the run creates, changes and deletes records there, so it never
 * disturbs the records other tests (or a developer's demo data) rely on.
 */
import { randomUUID } from 'node:crypto';
import type { FuzzTarget } from './api-fuzzer.ts';

async function token(
  baseUrl: string,
  realm: string,
  clientId: string,
  clientSecret: string,
): Promise<string> {
  const response = await fetch(`${baseUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  const json = (await response.json()) as { access_token?: string };
  if (!json.access_token) throw new Error(`no token for ${clientId}: ${JSON.stringify(json)}`);
  return json.access_token;
}

async function post(
  baseUrl: string,
  path: string,
  bearer: string,
  body: unknown,
): Promise<Record<string, any>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, any>;
}

export async function fuzzTarget(baseUrl: string, adminClientSecret: string): Promise<FuzzTarget> {
  const admin = await token(baseUrl, 'fsm-admin', 'fsm-admin', adminClientSecret);
  const suffix = randomUUID().slice(0, 8);
  const workspace = await post(baseUrl, '/admin-v1/workspaces', admin, {
    name: `Fuzz ${suffix}`,
    owner: { email: `fuzz-owner-${suffix}@fuzz.test`, firstname: 'Fuzz', lastname: 'Owner' },
  });
  const clients = `/admin-v1/workspaces/${workspace.id}/clients`;
  const wide = await post(baseUrl, clients, admin, { client_id: `fuzz-admin-${suffix}`, roles: ['admin'] });
  const limited = await post(baseUrl, clients, admin, {
    client_id: `fuzz-tech-${suffix}`,
    roles: ['technician'],
  });
  const redirectUri = 'http://127.0.0.1:8765/callback';
  const code = await post(baseUrl, clients, admin, {
    client_id: `fuzz-app-${suffix}`,
    roles: ['technician'],
    redirect_uris: [redirectUri],
  });
  const document = await (await fetch(`${baseUrl}/api/v2/openapi.json`)).json();
  return {
    baseUrl,
    document: document as FuzzTarget['document'],
    tokens: {
      workspace: await token(baseUrl, wide.realm, wide.client_id, wide.client_secret),
      limited: await token(baseUrl, limited.realm, limited.client_id, limited.client_secret),
      admin,
    },
    client: { realm: wide.realm, clientId: wide.client_id, clientSecret: wide.client_secret },
    codeClient: { clientId: code.client_id, redirectUri },
  };
}
