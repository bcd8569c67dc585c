import { beforeAll, describe, expect, it } from 'vitest';
import { call, tokenFor } from '../support/api.ts';
import { BrowserSession, formsOf, textOf } from '../support/browser-session.ts';
import { setPasswordLinkFor } from '../support/mailbox.ts';
import { seededClient, signIn } from '../support/sign-in.ts';
import { roleId, uniqueEmail } from '../support/users.ts';

const acmeWeb = seededClient('acme-web');

describe('Set-password page: from the invitation e-mail to the first sign-in', () => {
  let admin: string;

  beforeAll(async () => {
    admin = await tokenFor('acme-admin');
  });

  async function invite(origin?: string) {
    const email = uniqueEmail('invitee');
    const created = await call('POST', '/api/v2/users', {
      token: admin,
      headers: origin ? { origin } : {},
      body: { email, firstname: 'Ines', lastname: 'Invitee', role_ids: [await roleId(admin, 'technician')] },
    });
    expect(created.status, created.text).toBe(201);
    return { id: created.body.id as string, email, link: await setPasswordLinkFor(email) };
  }

  it('lets an invited user set a password through the mailed link and then sign in', async () => {
    const user = await invite('https://app.acme.test');
    expect(user.link.pathname).toBe('/realms/shared/set-password');
    expect(user.link.searchParams.get('continue')).toBe('https://app.acme.test');
    const before = await call('GET', `/api/v2/users/${user.id}`, { token: admin });
    expect(before.body.can_resend_set_password_email).toBe(true);

    const browser = new BrowserSession();
    const page = await browser.open(user.link);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(textOf(page)).toContain(`For ${user.email}`);
    const done = await browser.submit(page, { password: 'first-horse-1', password_confirm: 'first-horse-1' });
    expect(done.status).toBe(200);
    expect(textOf(done)).toContain(`You can now sign in with ${user.email}.`);
    expect(done.html).toContain('href="https://app.acme.test"');

    const tokens = await signIn(acmeWeb, user.email, 'first-horse-1');
    const me = await call('GET', '/api/v2/me', { token: tokens.access_token });
    expect(me.body).toMatchObject({ id: user.id, email: user.email });
    const after = await call('GET', `/api/v2/users/${user.id}`, { token: admin });
    expect(after.body.can_resend_set_password_email).toBe(false);
  });

  it('answers 410 when the link is opened again after use', async () => {
    const user = await invite();
    const browser = new BrowserSession();
    const page = await browser.open(user.link);
    await browser.submit(page, { password: 'first-horse-2', password_confirm: 'first-horse-2' });

    const reopened = await new BrowserSession().open(user.link);
    expect(reopened.status).toBe(410);
    expect(formsOf(reopened)).toEqual([]);
    const resubmitted = await browser.submit(page, {
      password: 'other-horse-2',
      password_confirm: 'other-horse-2',
    });
    expect(resubmitted.status).toBe(410);
  });

  it('shows the form again with 422 for a short or unrepeated password, and sets nothing', async () => {
    const user = await invite();
    const browser = new BrowserSession();
    const page = await browser.open(user.link);

    const short = await browser.submit(page, { password: 'short', password_confirm: 'short' });
    expect(short.status).toBe(422);
    expect(textOf(short)).toContain('at least 8 characters');
    const mismatch = await browser.submit(short, {
      password: 'long-enough-1',
      password_confirm: 'long-enough-2',
    });
    expect(mismatch.status).toBe(422);
    expect(textOf(mismatch)).toContain('do not match');

    // The link still works: nothing was spent.
    const done = await browser.submit(mismatch, {
      password: 'long-enough-1',
      password_confirm: 'long-enough-1',
    });
    expect(done.status).toBe(200);
  });
});
