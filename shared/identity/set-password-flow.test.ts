import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryUser } from '../../test/doubles/in-memory-accounts.ts';
import {
  type RunningIdentityServer,
  startTestIdentityServer,
} from '../../test/doubles/test-identity-server.ts';
import { BrowserSession, formsOf, type Page, textOf } from '../../test/support/browser-session.ts';

const invitee: MemoryUser = {
  id: 'user-ivy',
  workspaceId: 'ws-acme',
  email: 'ivy@acme.test',
  status: 'ACTIVE',
  firstname: 'Ivy',
  lastname: 'Invited',
  updatedAt: '2026-01-02T03:04:05Z',
};
const linkToken = `${'a'.repeat(36)}.${'b'.repeat(36)}.secret-secret-secret-secret`;

function expectPageHeaders(page: Page): void {
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('content-security-policy')).toBe(
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
}

describe('set-password page', () => {
  let dataDir: string;
  let running: RunningIdentityServer;
  const pageUrl = (query: Record<string, string>) =>
    `${running.issuer}/set-password?${new URLSearchParams(query).toString()}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fsm-set-password-'));
    running = await startTestIdentityServer({
      keyFile: join(dataDir, 'signing-key.json'),
      clients: [],
      users: [invitee],
    });
  });

  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    running.accounts.users.set(invitee.id, { ...invitee });
    running.accounts.links.clear();
    running.accounts.links.set(linkToken, invitee.id);
  });

  it('shows the form for a usable link, naming the account, with headers that keep the link private', async () => {
    const page = await new BrowserSession().open(
      pageUrl({ token: linkToken, continue: 'https://app.acme.test/x' }),
    );

    expect(page.status).toBe(200);
    expectPageHeaders(page);
    expect(textOf(page)).toContain('For ivy@acme.test');
    const [form] = formsOf(page);
    expect(form?.action.href).toBe(`${running.issuer}/set-password`);
    expect(form?.fields).toMatchObject({ token: linkToken, continue: 'https://app.acme.test', password: '' });
  });

  it('sets the password, spends the link and offers the way back to the origin of the link', async () => {
    const browser = new BrowserSession();
    const page = await browser.open(pageUrl({ token: linkToken, continue: 'https://app.acme.test' }));

    const done = await browser.submit(page, {
      password: 'brand-new-pass',
      password_confirm: 'brand-new-pass',
    });

    expect(done.status).toBe(200);
    expectPageHeaders(done);
    expect(textOf(done)).toContain('You can now sign in with ivy@acme.test.');
    expect(done.html).toContain('<a href="https://app.acme.test">Continue to https://app.acme.test</a>');
    expect(running.accounts.users.get(invitee.id)?.password).toBe('brand-new-pass');

    const reused = await browser.submit(page, {
      password: 'other-new-pass',
      password_confirm: 'other-new-pass',
    });
    expect(reused.status).toBe(410);
    expect(textOf(reused)).toContain('invalid, has expired or has already been used');
  });

  it.each([
    { title: 'too short', password: 'short', repeated: 'short', message: 'at least 8 characters' },
    { title: 'not repeated', password: 'long-enough-1', repeated: 'long-enough-2', message: 'do not match' },
  ])('answers 422 with the form and a message when the password is $title', async (example) => {
    const browser = new BrowserSession();
    const page = await browser.open(pageUrl({ token: linkToken }));

    const failed = await browser.submit(page, {
      password: example.password,
      password_confirm: example.repeated,
    });

    expect(failed.status).toBe(422);
    expect(textOf(failed)).toContain(example.message);
    expect(formsOf(failed)[0]?.fields).toMatchObject({
      token: linkToken,
      password: '',
      password_confirm: '',
    });
    expect(failed.html).not.toContain(example.password);
    expect(running.accounts.users.get(invitee.id)?.password).toBeUndefined();
  });

  it('answers 410 for an unknown or used link and 400 for a link without token', async () => {
    const unknown = await new BrowserSession().open(pageUrl({ token: `${linkToken}x` }));
    expect(unknown.status).toBe(410);
    expectPageHeaders(unknown);
    expect(formsOf(unknown)).toEqual([]);

    const missing = await new BrowserSession().open(`${running.issuer}/set-password`);
    expect(missing.status).toBe(400);
  });

  it('refuses a post whose CSRF token is not the one of the link with 403', async () => {
    const browser = new BrowserSession();
    const page = await browser.open(pageUrl({ token: linkToken }));

    const refused = await browser.submit(page, {
      csrf: 'forged',
      password: 'brand-new-pass',
      password_confirm: 'brand-new-pass',
    });

    expect(refused.status).toBe(403);
    expect(running.accounts.users.get(invitee.id)?.password).toBeUndefined();
  });

  it('drops a continue value that is not an http(s) origin', async () => {
    const page = await new BrowserSession().open(
      pageUrl({ token: linkToken, continue: 'javascript:alert(1)' }),
    );

    expect(page.status).toBe(200);
    expect(formsOf(page)[0]?.fields).not.toHaveProperty('continue');
  });
});
