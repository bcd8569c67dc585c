/**
 * The admin control plane's credentials in tests: the local stack's admin client (realm
 * fsm-admin, secret handed over by global-setup.ts) and a client-credentials token of it.
 */
import { inject } from 'vitest';
import { baseUrl } from './api.ts';

export const adminRealm = 'fsm-admin';
export const adminClientId = 'fsm-admin';

/** A client-credentials token of any client of any realm (not cached). */
export async function clientCredentialsToken(realm: string, clientId: string, clientSecret: string) {
  const response = await fetch(`${baseUrl()}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  const json = (await response.json()) as { access_token?: string };
  if (!json.access_token) throw new Error(`no token for ${clientId} in ${realm}: ${JSON.stringify(json)}`);
  return json.access_token;
}

let token: Promise<string> | undefined;

/** A token of the admin plane's client (cached for the test file). */
export function adminToken(): Promise<string> {
  token ??= clientCredentialsToken(adminRealm, adminClientId, inject('adminClientSecret'));
  return token;
}
