import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, claimsOf, tokenFor } from '../support/api.ts';
import { BrowserSession, formsOf, textOf } from '../support/browser-session.ts';
import { setPasswordLinkFor } from '../support/mailbox.ts';
import {
  authorization,
  issuerOf,
  logout,
  openLogin,
  postForm,
  refresh,
  seededClient,
  signIn,
  submitLogin,
} from '../support/sign-in.ts';

const acmeWeb = seededClient('acme-web');

describe('Sign-in: authorization-code flow with PKCE through the login page', () => {
  let acmeAdmin: string;

  beforeAll(async () => {
    acmeAdmin = await tokenFor('acme-admin');
  });

  it('issues tokens for signin@acme.test that the API accepts as that user of Acme', async () => {
    const tokens = await signIn(acmeWeb, 'signin@acme.test', 'correct-horse-5');

    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(300);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.id_token).toEqual(expect.any(String));
    const me = await call('GET', '/api/v2/me', { token: tokens.access_token });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ email: 'signin@acme.test', firstname: 'Sina', status: 'ACTIVE' });
    expect(claimsOf(tokens.access_token)).toMatchObject({
      iss: issuerOf('shared'),
      aud: 'fsm-api',
      sub: me.body.id,
      tenant_id: claimsOf(acmeAdmin).tenant_id,
      client_id: 'acme-web',
    });
    expect(tokens.claims()).toMatchObject({
      sub: me.body.id,
      email: 'signin@acme.test',
      email_verified: true,
      given_name: 'Sina',
      family_name: 'Signin',
      name: 'Sina Signin',
      preferred_username: 'signin@acme.test',
    });
  });

  it('refreshes the tokens; the refresh token lives 1800 s and the access token 300 s', async () => {
    const tokens = await signIn(acmeWeb, 'signin@acme.test', 'correct-horse-5');

    const refreshed = await refresh(acmeWeb, tokens.refresh_token as string);
    expect(refreshed.status).toBe(200);
    const body = (await refreshed.json()) as Record<string, any>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(body.id_token).toEqual(expect.any(String));
    expect((await call('GET', '/api/v2/me', { token: body.access_token })).status).toBe(200);

    const introspection = await postForm('shared', 'token/introspect', {
      client_id: acmeWeb.clientId,
      client_secret: acmeWeb.clientSecret,
      token: body.refresh_token,
    });
    const refreshInfo = (await introspection.json()) as { active: boolean; iat: number; exp: number };
    expect(refreshInfo.active).toBe(true);
    expect(refreshInfo.exp - refreshInfo.iat).toBeLessThanOrEqual(1800);
    expect(refreshInfo.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(1700);
  });

  it('ends the session on logout: the refresh token is refused afterwards', async () => {
    const tokens = await signIn(acmeWeb, 'signin@acme.test', 'correct-horse-5');

    const response = await logout(acmeWeb, tokens.refresh_token as string);
    expect(response.status).toBe(204);

    const refused = await refresh(acmeWeb, tokens.refresh_token as string);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('serves the login page as a private, unframable, script-free form', async () => {
    const { page } = await openLogin(acmeWeb);

    expect(page.status).toBe(200);
    expect(page.url.pathname).toMatch(/^\/realms\/shared\/login\/[\w-]+$/);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.html).not.toMatch(/<script/i);
    expect(Object.keys(formsOf(page)[0]?.fields ?? {}).sort()).toEqual(['csrf', 'password', 'username']);
  });

  it('answers 401 with the form again for a wrong password, the e-mail kept and the password not', async () => {
    const { browser, page } = await openLogin(acmeWeb);

    const failed = await submitLogin(browser, page, 'signin@acme.test', 'not-the-password');

    expect(failed.status).toBe(401);
    expect(textOf(failed)).toContain('Invalid e-mail or password');
    expect(formsOf(failed)[0]?.fields).toMatchObject({ username: 'signin@acme.test', password: '' });
    expect(failed.html).not.toContain('not-the-password');
  });

  it('refuses a login post without the page’s CSRF token with 403', async () => {
    const { browser, page } = await openLogin(acmeWeb);

    const refused = await browser.submit(page, {
      csrf: 'forged',
      username: 'signin@acme.test',
      password: 'correct-horse-5',
    });

    expect(refused.status).toBe(403);
    expect(refused.callback).toBeUndefined();
  });

  it('does not sign a user of Beta in through the client of Acme', async () => {
    const { browser, page } = await openLogin(acmeWeb);

    const failed = await submitLogin(browser, page, 'owner@beta.test', 'correct-horse-8');

    expect(failed.status).toBe(401);
    expect(failed.callback).toBeUndefined();
  });
});

describe('Sign-in: a dedicated realm', () => {
  const dedicatedWeb = seededClient('dedicated-web');
  const email = `signin-${randomUUID().slice(0, 8)}@dedicated.test`;
  const password = 'dedicated-horse-1';

  beforeAll(async () => {
    // A user of Dedicated Corp of our own, with a password set through the e-mailed link.
    const admin = await tokenFor('dedicated-admin');
    const roles = await call('GET', '/api/v2/roles', { token: admin });
    const technician = roles.body.items.find((role: { name: string }) => role.name === 'technician');
    const created = await call('POST', '/api/v2/users', {
      token: admin,
      body: { email, firstname: 'Dana', lastname: 'Dedicated', role_ids: [technician.id] },
    });
    expect(created.status, created.text).toBe(201);
    const link = await setPasswordLinkFor(email);
    expect(link.pathname).toBe('/realms/dedicated-corp/set-password');
    const browser = new BrowserSession();
    const set = await browser.submit(await browser.open(link), { password, password_confirm: password });
    expect(set.status).toBe(200);
  });

  it('signs the user in through the dedicated realm’s client', async () => {
    const tokens = await signIn(dedicatedWeb, email, password);

    expect(claimsOf(tokens.access_token)).toMatchObject({ iss: issuerOf('dedicated-corp') });
    const me = await call('GET', '/api/v2/me', { token: tokens.access_token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.email).toBe(email);
  });

  it('does not know the user or the client under /realms/shared', async () => {
    const { browser, page } = await openLogin(acmeWeb);
    const failed = await submitLogin(browser, page, email, password);
    expect(failed.status).toBe(401);

    const foreign = await authorization(seededClient('acme-web')).then(async ({ url }) => {
      const misplaced = new URL(url);
      misplaced.searchParams.set('client_id', 'dedicated-web');
      return new BrowserSession().open(misplaced);
    });
    expect(foreign.status).toBe(400);
    expect(foreign.callback).toBeUndefined();
    expect(formsOf(foreign)).toEqual([]);
  });
});
