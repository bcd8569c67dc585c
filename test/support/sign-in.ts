/**
 * The authorization-code flow against the running stack, as a client app and a user run it:
 * openid-client does discovery, PKCE, state and the code exchange; BrowserSession plays the
 * user's browser on the login page. No server listens at the redirect URI: the code is read
 * from the Location header that points there.
 */
import * as oidc from 'openid-client';
import { baseUrl } from './api.ts';
import { BrowserSession, formsOf, type Page } from './browser-session.ts';
import seed from './test-seed.json' with { type: 'json' };

export const redirectUri = 'http://127.0.0.1:8765/callback';

export interface CodeClient {
  clientId: string;
  clientSecret: string;
  realm: string;
}

/** A seeded client that may run the code flow. */
export function seededClient(clientId: string, realm?: string): CodeClient {
  for (const workspace of seed.workspaces) {
    const client = workspace.clients.find((candidate) => candidate.client_id === clientId);
    if (client) return { clientId, clientSecret: client.client_secret, realm: realm ?? workspace.realm };
  }
  throw new Error(`no seeded client ${clientId}`);
}

export const issuerOf = (realm: string) => `${baseUrl()}/realms/${realm}`;

/** One authorization request of `client`: its URL and how to exchange the callback. */
export function authorization(client: CodeClient) {
  return authorizationAt(issuerOf(client.realm), client.clientId, client.clientSecret);
}

/** The authorization-code flow as a client app runs it at `issuer`, with PKCE and state. */
export async function authorizationAt(issuer: string, clientId: string, clientSecret: string) {
  const config = await oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return {
    config,
    url,
    exchange: (callback: URL) =>
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
  };
}

/** Open the login page of a new authorization request in `browser`. */
export async function openLogin(client: CodeClient, browser = new BrowserSession()) {
  const flow = await authorization(client);
  const page = await browser.open(flow.url);
  return { flow, browser, page };
}

/** Submit the login form of `page` with these credentials. */
export function submitLogin(browser: BrowserSession, page: Page, username: string, password: string) {
  if (!formsOf(page)[0]) throw new Error(`no login form (status ${page.status}) at ${page.url}`);
  return browser.submit(page, { username, password });
}

/** The whole flow for one user; fails unless it ends with tokens. */
export async function signIn(client: CodeClient, username: string, password: string) {
  const { flow, browser, page } = await openLogin(client);
  const done = await submitLogin(browser, page, username, password);
  if (!done.callback) throw new Error(`sign-in of ${username} ended with ${done.status} at ${done.url}`);
  return flow.exchange(done.callback);
}

/** Form post to a realm's token or logout endpoint. */
export function postForm(realm: string, path: string, fields: Record<string, string>) {
  return fetch(`${issuerOf(realm)}/protocol/openid-connect/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

export function refresh(client: CodeClient, refreshToken: string) {
  return postForm(client.realm, 'token', {
    grant_type: 'refresh_token',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    refresh_token: refreshToken,
  });
}

export function logout(client: CodeClient, refreshToken: string) {
  return postForm(client.realm, 'logout', {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    refresh_token: refreshToken,
  });
}
