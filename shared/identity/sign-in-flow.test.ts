import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryUser } from '../../test/doubles/in-memory-accounts.ts';
import {
  type RunningIdentityServer,
  startTestIdentityServer,
} from '../../test/doubles/test-identity-server.ts';
import { BrowserSession, formsOf, type Page, textOf } from '../../test/support/browser-session.ts';
import { authorizationAt } from '../../test/support/sign-in.ts';
import type { ClientRecord } from './identity-directory.ts';

const callback = 'http://127.0.0.1:8765/callback';
const acmeWeb: ClientRecord = {
  clientId: 'acme-web',
  clientSecret: 's3cret-web',
  workspaceId: 'ws-acme',
  principalId: 'sa-acme-web',
  redirectUris: [callback],
};
const users: MemoryUser[] = [
  {
    id: 'user-sina',
    workspaceId: 'ws-acme',
    email: 'sina@acme.test',
    password: 'correct-horse-1',
    status: 'ACTIVE',
    firstname: 'Sina',
    lastname: 'Signin',
    updatedAt: '2026-01-02T03:04:05Z',
  },
  {
    id: 'user-theo',
    workspaceId: 'ws-acme',
    email: 'theo@acme.test',
    password: 'correct-horse-3',
    status: 'ACTIVE',
    firstname: 'Theo',
    lastname: 'Technician',
    updatedAt: '2026-01-02T03:04:05Z',
  },
  {
    id: 'user-bert',
    workspaceId: 'ws-beta',
    email: 'bert@beta.test',
    password: 'correct-horse-2',
    status: 'ACTIVE',
    firstname: 'Bert',
    lastname: 'Beta',
    updatedAt: '2026-01-02T03:04:05Z',
  },
];

async function start(keyFile: string, options: { trustedProxyHops?: number } = {}) {
  return startTestIdentityServer({ keyFile, clients: [acmeWeb], users, maxFailures: 3, ...options });
}

/** The authorization-code flow of `acme-web` as a client app runs it, with PKCE and state. */
const codeFlow = (issuer: string) => authorizationAt(issuer, acmeWeb.clientId, acmeWeb.clientSecret);

function refresh(issuer: string, refreshToken: string) {
  return fetch(`${issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: acmeWeb.clientId,
      client_secret: acmeWeb.clientSecret,
      refresh_token: refreshToken,
    }),
  });
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

function expectPageHeaders(page: Page): void {
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none';.*frame-ancestors 'none'/);
}

describe('sign-in through the login page (authorization-code flow)', () => {
  let dataDir: string;
  let running: RunningIdentityServer;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fsm-signin-'));
    running = await start(join(dataDir, 'signing-key.json'));
  });

  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    for (const user of users) running.accounts.users.set(user.id, { ...user });
    running.accounts.throttled.clear();
    running.accounts.attempts.length = 0;
  });

  it('shows a login form, then issues a code whose tokens name the user and the client workspace', async () => {
    const browser = new BrowserSession();
    const flow = await codeFlow(running.issuer);

    const login = await browser.open(flow.url);
    expect(login.status).toBe(200);
    expect(login.url.pathname).toMatch(/^\/realms\/shared\/login\/[\w-]+$/);
    expectPageHeaders(login);
    // The form may lead on to the client's redirect URI, so CSP form-action allows its origin.
    expect(login.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://127.0.0.1:8765",
    );
    const [form] = formsOf(login);
    expect(form?.method).toBe('post');
    expect(Object.keys(form?.fields ?? {}).sort()).toEqual(['csrf', 'password', 'username']);

    const done = await browser.submit(login, { username: 'Sina@Acme.test', password: 'correct-horse-1' });
    expect(done.callback?.searchParams.get('code')).toBeTruthy();
    expect(running.accounts.attempts).toEqual([
      {
        realm: 'shared',
        workspaceId: 'ws-acme',
        email: 'Sina@Acme.test',
        password: 'correct-horse-1',
        address: '127.0.0.1',
      },
    ]);

    const tokens = await flow.exchange(done.callback as URL);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(300);
    expect(tokens.refresh_token).toBeTruthy();
    expect(claimsOf(tokens.access_token)).toMatchObject({
      iss: running.issuer,
      aud: 'fsm-api',
      sub: 'user-sina',
      tenant_id: 'ws-acme',
      client_id: 'acme-web',
    });
    expect(tokens.claims()).toMatchObject({
      sub: 'user-sina',
      email: 'sina@acme.test',
      email_verified: true,
      given_name: 'Sina',
      family_name: 'Signin',
      name: 'Sina Signin',
      preferred_username: 'sina@acme.test',
      updated_at: Date.parse('2026-01-02T03:04:05Z') / 1000,
    });
  });

  it('answers userinfo for the user’s access token, and 401 for other tokens', async () => {
    const browser = new BrowserSession();
    const flow = await codeFlow(running.issuer);
    const done = await browser.submit(await browser.open(flow.url), {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });
    const tokens = await flow.exchange(done.callback as URL);
    const userinfo = (token?: string) =>
      fetch(`${running.issuer}/protocol/openid-connect/userinfo`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });

    const ok = await userinfo(tokens.access_token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      sub: 'user-sina',
      email: 'sina@acme.test',
      email_verified: true,
      given_name: 'Sina',
      family_name: 'Signin',
      name: 'Sina Signin',
      preferred_username: 'sina@acme.test',
      updated_at: Date.parse('2026-01-02T03:04:05Z') / 1000,
    });
    await expect(oidc.fetchUserInfo(flow.config, tokens.access_token, 'user-sina')).resolves.toMatchObject({
      email: 'sina@acme.test',
    });

    const serviceToken = await oidc.clientCredentialsGrant(flow.config);
    const service = await userinfo(serviceToken.access_token);
    expect(service.status).toBe(401);
    expect(service.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const forged = await userinfo(`${tokens.access_token.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(401);
    const none = await userinfo();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer realm="${running.issuer}"`);
    (running.accounts.users.get('user-sina') as MemoryUser).status = 'INACTIVE';
    expect((await userinfo(tokens.access_token)).status).toBe(401);
  });

  it('signs in again without the form while the browser session lasts', async () => {
    const browser = new BrowserSession();
    const first = await codeFlow(running.issuer);
    await browser.submit(await browser.open(first.url), {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });

    const second = await codeFlow(running.issuer);
    const page = await browser.open(second.url);
    expect(page.callback?.searchParams.get('code')).toBeTruthy();
    await expect(second.exchange(page.callback as URL)).resolves.toMatchObject({ token_type: 'bearer' });
  });

  it('asks nothing more when the client requests prompt=consent', async () => {
    const browser = new BrowserSession();
    const flow = await codeFlow(running.issuer);
    const url = new URL(flow.url);
    url.searchParams.set('prompt', 'login consent');

    const done = await browser.submit(await browser.open(url), {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });

    expect(done.callback?.searchParams.get('code')).toBeTruthy();
    await expect(flow.exchange(done.callback as URL)).resolves.toMatchObject({ token_type: 'bearer' });
  });

  it('refreshes tokens until the user is blocked, then answers invalid_grant', async () => {
    const browser = new BrowserSession();
    const flow = await codeFlow(running.issuer);
    const done = await browser.submit(await browser.open(flow.url), {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });
    const tokens = await flow.exchange(done.callback as URL);

    const refreshed = await refresh(running.issuer, tokens.refresh_token as string);
    expect(refreshed.status).toBe(200);
    const body = (await refreshed.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type'].sort(),
    );

    (running.accounts.users.get('user-sina') as MemoryUser).status = 'BLOCKED';
    const refused = await refresh(running.issuer, body.refresh_token as string);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });

    // The browser session no longer signs the blocked user in: the form comes back.
    const again = await browser.open((await codeFlow(running.issuer)).url);
    expect(again.status).toBe(200);
    expect(formsOf(again)[0]?.fields).toHaveProperty('password');
  });

  it('lets another user sign in on a browser whose session user was deactivated', async () => {
    const browser = new BrowserSession();
    await browser.submit(await browser.open((await codeFlow(running.issuer)).url), {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });
    (running.accounts.users.get('user-sina') as MemoryUser).status = 'INACTIVE';

    const flow = await codeFlow(running.issuer);
    const login = await browser.open(flow.url);
    expect(login.status).toBe(200);
    // oidc-provider first ends the old session through a self-submitting form (a browser runs
    // its script; here it is submitted by hand), then issues the code for the new user.
    const switching = await browser.submit(login, {
      username: 'theo@acme.test',
      password: 'correct-horse-3',
    });
    expect(formsOf(switching)[0]?.action.pathname).toBe(
      '/realms/shared/protocol/openid-connect/logout/confirm',
    );
    const page = await browser.submit(switching, {});

    expect(page.callback?.searchParams.get('code')).toBeTruthy();
    const tokens = await flow.exchange(page.callback as URL);
    expect(claimsOf(tokens.access_token).sub).toBe('user-theo');
  });

  it('ends the session on logout: the refresh token fails and the next sign-in shows the form', async () => {
    const browser = new BrowserSession();
    const flow = await codeFlow(running.issuer);
    const done = await browser.submit(await browser.open(flow.url), {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });
    const tokens = await flow.exchange(done.callback as URL);

    const logout = await fetch(`${running.issuer}/protocol/openid-connect/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: acmeWeb.clientId,
        client_secret: acmeWeb.clientSecret,
        refresh_token: tokens.refresh_token as string,
      }),
    });
    expect(logout.status).toBe(204);

    const refused = await refresh(running.issuer, tokens.refresh_token as string);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
    const again = await browser.open((await codeFlow(running.issuer)).url);
    expect(again.status).toBe(200);
    expect(again.url.pathname).toMatch(/\/login\//);
  });

  it('answers 401 with the form again for a wrong password, keeping the e-mail and dropping the password', async () => {
    const browser = new BrowserSession();
    const login = await browser.open((await codeFlow(running.issuer)).url);

    const failed = await browser.submit(login, { username: 'sina@acme.test', password: 'wrong-horse-9' });

    expect(failed.status).toBe(401);
    expectPageHeaders(failed);
    expect(textOf(failed)).toContain('Invalid e-mail or password');
    expect(formsOf(failed)[0]?.fields).toMatchObject({ username: 'sina@acme.test', password: '' });
    expect(failed.html).not.toContain('wrong-horse-9');

    // The same interaction still completes with the right password.
    const done = await browser.submit(failed, { password: 'correct-horse-1' });
    expect(done.callback?.searchParams.get('code')).toBeTruthy();
  });

  it('refuses a user of another workspace than the client’s like a wrong password', async () => {
    const browser = new BrowserSession();
    const login = await browser.open((await codeFlow(running.issuer)).url);

    const failed = await browser.submit(login, { username: 'bert@beta.test', password: 'correct-horse-2' });

    expect(failed.status).toBe(401);
    expect(textOf(failed)).toContain('Invalid e-mail or password');
  });

  it.each([
    {
      status: 'BLOCKED' as const,
      code: 403,
      message: 'This account is blocked after too many failed sign-ins. Ask an administrator to unblock it.',
    },
    { status: 'INACTIVE' as const, code: 403, message: 'This account is deactivated.' },
  ])(
    'tells a $status user with the right password why the sign-in fails',
    async ({ status, code, message }) => {
      (running.accounts.users.get('user-sina') as MemoryUser).status = status;
      const browser = new BrowserSession();
      const login = await browser.open((await codeFlow(running.issuer)).url);

      const failed = await browser.submit(login, { username: 'sina@acme.test', password: 'correct-horse-1' });

      expect(failed.status).toBe(code);
      expect(textOf(failed)).toContain(message);
    },
  );

  it('answers 429 with Retry-After when the address is throttled', async () => {
    running.accounts.throttled.set('127.0.0.1', 120);
    const browser = new BrowserSession();
    const login = await browser.open((await codeFlow(running.issuer)).url);

    const failed = await browser.submit(login, { username: 'sina@acme.test', password: 'correct-horse-1' });

    expect(failed.status).toBe(429);
    expect(failed.headers.get('retry-after')).toBe('120');
    expect(textOf(failed)).toContain('Try again in 2 minutes');
  });

  it('refuses a post with a wrong CSRF token with 403, checking no password', async () => {
    const browser = new BrowserSession();
    const login = await browser.open((await codeFlow(running.issuer)).url);

    const refused = await browser.submit(login, {
      csrf: 'not-the-token',
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });

    expect(refused.status).toBe(403);
    expectPageHeaders(refused);
    expect(running.accounts.attempts).toEqual([]);
  });

  it('signs in a client that posts only username and password (no browser, so no CSRF risk)', async () => {
    const browser = new BrowserSession();
    const login = await browser.open((await codeFlow(running.issuer)).url);
    const action = formsOf(login)[0]!.action;

    const done = await browser.post(action, { username: 'sina@acme.test', password: 'correct-horse-1' });

    expect(done.callback?.searchParams.get('code')).toBeTruthy();
  });

  it.each<{ title: string; headers: Record<string, string> }>([
    { title: 'a foreign Origin', headers: { origin: 'https://attacker.example' } },
    { title: 'Sec-Fetch-Site cross-site', headers: { 'sec-fetch-site': 'cross-site' } },
  ])('refuses a post without the CSRF token that carries $title with 403', async ({ headers }) => {
    const browser = new BrowserSession({ headers });
    const login = await browser.open((await codeFlow(running.issuer)).url);
    const action = formsOf(login)[0]!.action;

    const refused = await browser.post(action, { username: 'sina@acme.test', password: 'correct-horse-1' });

    expect(refused.status).toBe(403);
    expect(running.accounts.attempts).toEqual([]);
  });

  it('answers 400 "expired" for a login page opened without its interaction cookie', async () => {
    const login = await new BrowserSession().open((await codeFlow(running.issuer)).url);

    const elsewhere = await new BrowserSession().open(login.url);
    expect(elsewhere.status).toBe(400);
    expect(textOf(elsewhere)).toContain('This sign-in has expired');

    const posted = await new BrowserSession().submit(login, {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });
    expect(posted.status).toBe(400);
    expect(running.accounts.attempts).toEqual([]);
  });

  it('shows a browser logout confirmation and ends the session with it', async () => {
    const browser = new BrowserSession();
    await browser.submit(await browser.open((await codeFlow(running.issuer)).url), {
      username: 'sina@acme.test',
      password: 'correct-horse-1',
    });

    const confirm = await browser.open(`${running.issuer}/protocol/openid-connect/logout`);
    expect(confirm.status).toBe(200);
    expectPageHeaders(confirm);
    const signedOut = await browser.submit(confirm, { logout: 'yes' });
    expect(signedOut.status).toBe(200);
    expect(textOf(signedOut)).toContain('You are signed out');

    const again = await browser.open((await codeFlow(running.issuer)).url);
    expect(again.url.pathname).toMatch(/\/login\//);
  });
});

describe('sign-in behind proxies (FSM_TRUSTED_PROXY_HOPS)', () => {
  it('counts failures against the address the outermost trusted proxy saw', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fsm-signin-'));
    const running = await start(join(dataDir, 'signing-key.json'), { trustedProxyHops: 2 });
    try {
      const browser = new BrowserSession({
        headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7, 10.0.0.2' },
      });
      const login = await browser.open((await codeFlow(running.issuer)).url);

      const failed = await browser.submit(login, { username: 'x@acme.test', password: 'nope' });

      expect(failed.status).toBe(401);
      // 203.0.113.9 is what the client claimed; 10.0.0.2 is the inner proxy's peer.
      expect(running.accounts.attempts.map((attempt) => attempt.address)).toEqual(['198.51.100.7']);
    } finally {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
