import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { authorization, redirectUri, seededClient } from '../support/sign-in.ts';

/** The system's Chromium (never a downloaded one); .ci/run installs it when missing. */
const chromiumPath = process.env.FSM_CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set FSM_CHROMIUM_PATH`;

describe('Sign-in in a real browser', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!missing) browser = await chromium.launch({ executablePath: chromiumPath });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('signs browser@acme.test in on the login page and the code’s token works on the API', async (context) => {
    if (missing || !browser) {
      console.warn(`skipping the browser sign-in test: ${missing}`);
      context.skip(missing);
      return;
    }
    const flow = await authorization(seededClient('acme-web'));
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // No app listens at the redirect URI: answer it here and keep the URL with the code.
    let arrive: (url: URL) => void = () => {};
    const callback = new Promise<URL>((resolve) => {
      arrive = resolve;
    });
    await page.route(`${redirectUri}**`, async (route) => {
      arrive(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'signed in' });
    });

    await page.goto(flow.url.href);
    expect(await page.title()).toBe('Sign in');
    await page.getByLabel('E-mail').fill('browser@acme.test');
    await page.getByLabel('Password').fill('correct-horse-7');
    await page.getByRole('button', { name: 'Sign in' }).click();

    let timer: NodeJS.Timeout | undefined;
    const arrived = await Promise.race([
      callback,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), 10_000);
      }),
    ]);
    clearTimeout(timer);
    // A redirect the browser refuses (e.g. CSP form-action along the redirect chain) stops here.
    expect(arrived, `no redirect to the client; at ${page.url()}; ${violations.join(' ')}`).toBeDefined();
    const tokens = await flow.exchange(arrived as URL);
    const me = await call('GET', '/api/v2/me', { token: tokens.access_token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.email).toBe('browser@acme.test');
    expect(violations).toEqual([]);
    await page.close();
  });
});
