import { beforeAll, describe, expect, it } from 'vitest';
import { call, tokenFor } from '../support/api.ts';
import { BrowserSession, textOf } from '../support/browser-session.ts';
import { setPasswordLinkFor } from '../support/mailbox.ts';
import { openLogin, refresh, seededClient, signIn, submitLogin } from '../support/sign-in.ts';
import { createUser } from '../support/users.ts';

const acmeWeb = seededClient('acme-web');
const blockedMessage =
  'This account is blocked after too many failed sign-ins. Ask an administrator to unblock it.';

async function userIdOf(token: string, email: string): Promise<string> {
  const response = await call('GET', `/api/v2/users?status=ALL&search=${encodeURIComponent(email)}`, {
    token,
  });
  const user = response.body.items.find((item: { email: string }) => item.email === email);
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
}

describe('Sign-in: brute-force protection at the login page', () => {
  let admin: string;

  beforeAll(async () => {
    admin = await tokenFor('acme-admin');
  });

  it('blocks lockout@acme.test after 10 consecutive failures, until an admin unblocks', async () => {
    const userId = await userIdOf(admin, 'lockout@acme.test');
    // One interaction keeps the form: a failed post shows the form of the same interaction again.
    let { browser, page } = await openLogin(acmeWeb);
    for (let attempt = 1; attempt <= 10; attempt++) {
      page = await submitLogin(browser, page, 'lockout@acme.test', `wrong-password-${attempt}`);
      expect(page.status, `attempt ${attempt}`).toBe(401);
      expect(textOf(page)).toContain('Invalid e-mail or password');
    }

    const eleventh = await submitLogin(browser, page, 'lockout@acme.test', 'correct-horse-6');
    expect(eleventh.status).toBe(403);
    expect(eleventh.callback).toBeUndefined();
    expect(textOf(eleventh)).toContain(blockedMessage);
    const blocked = await call('GET', `/api/v2/users/${userId}`, { token: admin });
    expect(blocked.body.status).toBe('BLOCKED');

    const unblocked = await call('POST', `/api/v2/users/${userId}/unblock`, { token: admin });
    expect(unblocked.status, unblocked.text).toBe(200);
    expect(unblocked.body.status).toBe('ACTIVE');
    const tokens = await signIn(acmeWeb, 'lockout@acme.test', 'correct-horse-6');
    expect((await call('GET', '/api/v2/me', { token: tokens.access_token })).body.email).toBe(
      'lockout@acme.test',
    );
  });
});

describe('Sign-in: deactivated users', () => {
  let admin: string;

  beforeAll(async () => {
    admin = await tokenFor('acme-admin');
  });

  it('refuses a deactivated user with the right password, refuses their access token and their refresh', async () => {
    // Our own user: created through the API, password set through the e-mailed link.
    const user = await createUser(admin);
    const browser = new BrowserSession();
    const link = await setPasswordLinkFor(user.email);
    await browser.submit(await browser.open(link), {
      password: 'leaving-horse-1',
      password_confirm: 'leaving-horse-1',
    });
    const tokens = await signIn(acmeWeb, user.email, 'leaving-horse-1');
    expect((await call('GET', '/api/v2/me', { token: tokens.access_token })).status).toBe(200);

    const deactivated = await call('POST', `/api/v2/users/${user.id}/deactivate`, { token: admin });
    expect(deactivated.status, deactivated.text).toBe(200);

    const me = await call('GET', '/api/v2/me', { token: tokens.access_token });
    expect(me.status).toBe(401);
    const refused = await refresh(acmeWeb, tokens.refresh_token as string);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
    const { browser: again, page } = await openLogin(acmeWeb);
    const failed = await submitLogin(again, page, user.email, 'leaving-horse-1');
    expect(failed.status).toBe(403);
    expect(textOf(failed)).toContain('This account is deactivated.');
  });
});
