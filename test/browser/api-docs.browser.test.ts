/**
 * The API reference page in a real browser (the system's Chromium): it renders every published
 * operation from the served document, loads nothing from anywhere but the service, and breaks
 * none of its own Content-Security-Policy.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api.ts';

const chromiumPath = process.env.FSM_CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set FSM_CHROMIUM_PATH`;

describe('API reference page in a real browser', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!missing) browser = await chromium.launch({ executablePath: chromiumPath });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows every published operation, loading only the service’s own files', async (context) => {
    if (missing || !browser) {
      console.warn(`skipping the reference page test: ${missing}`);
      context.skip(missing);
      return;
    }
    // Prepare
    const document = (await (await fetch(`${baseUrl()}/api/v2/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    const page = await browser.newPage();
    const foreign: string[] = [];
    const violations: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl()) && !request.url().startsWith('data:'))
        foreign.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });

    // Act
    const response = await page.goto(`${baseUrl()}/api/v2/docs`);
    // Swagger UI virtualizes a long document (past about 125 operations it keeps only those near
    // the window in the page): scroll down a window at a time, as a reader would, collecting them.
    const operations = page.locator('.opblock .opblock-summary-operation-id');
    await operations.first().waitFor({ timeout: 20_000 });
    const seen = new Set<string>();
    for (let atBottom = false, rounds = 0; !atBottom && rounds < 500; rounds++) {
      for (const text of await operations.allTextContents()) seen.add(text.trim());
      // Evaluated in the page (a string: this file is compiled without the DOM's types).
      atBottom = await page.evaluate<boolean>(
        'const before = window.scrollY; window.scrollBy(0, window.innerHeight / 2); window.scrollY === before',
      );
      await page.waitForTimeout(30);
    }
    for (const text of await operations.allTextContents()) seen.add(text.trim());
    const shown = [...seen];
    await page.evaluate('window.scrollTo(0, 0)');

    // Assess
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain('API reference');
    expect(shown.sort()).toEqual([...operationIds].sort());
    await page.getByText('List areas').first().waitFor({ state: 'visible', timeout: 5_000 });
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);
});
