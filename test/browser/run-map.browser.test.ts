/**
 * An optimization run's map in a real browser (the system's Chromium): the SVG the service
 * draws renders each route as a visible coloured line through its numbered stops, with the
 * legend, and loads nothing from anywhere (no tiles, no fonts).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, eventually, tokenFor } from '../support/api.ts';
import { createUser } from '../support/users.ts';

const chromiumPath = process.env.FSM_CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set FSM_CHROMIUM_PATH`;

const day = Date.UTC(3950 + Math.floor(Math.random() * 40), 5, 1);
const at = (hours: number) => new Date(day + hours * 3_600_000).toISOString();
const depot = { latitude: 48.137, longitude: 11.575 };

/** A SUCCEEDED run of two technicians and six cases around Munich. */
async function plannedRun(): Promise<{ id: string; routes: number; stops: number; token: string }> {
  const [admin, dispatcher] = await Promise.all([tokenFor('plan-admin'), tokenFor('plan-dispatcher')]);
  const shiftIds: string[] = [];
  for (const name of ['Anna', 'Ben']) {
    const user = await createUser(admin, { firstname: name, lastname: 'Map' });
    const shift = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: { user_id: user.id, start: at(8), end: at(12), start_location: depot },
    });
    expect(shift.status, shift.text).toBe(201);
    shiftIds.push(shift.body.id);
  }
  const caseIds: string[] = [];
  for (let i = 0; i < 6; i++) {
    const angle = (i / 6) * 2 * Math.PI;
    const created = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: {
        title: `Map stop ${i + 1} ${randomUUID().slice(0, 4)}`,
        duration: 'PT40M',
        location: {
          latitude: depot.latitude + 0.03 * Math.sin(angle),
          longitude: depot.longitude + 0.05 * Math.cos(angle),
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    caseIds.push(created.body.id);
  }
  const run = await call('POST', '/api/v2/scheduling/optimization-runs', {
    token: dispatcher,
    body: { from: at(0), to: at(24), case_ids: caseIds, shift_ids: shiftIds, time_limit_seconds: 1 },
  });
  expect(run.status, run.text).toBe(202);
  const done = await eventually(async () => {
    const read = await call('GET', `/api/v2/scheduling/optimization-runs/${run.body.id}`, {
      token: dispatcher,
    });
    expect(read.body.status).toBe('SUCCEEDED');
    return read.body;
  }, 25_000);
  const stops = done.result.routes.reduce(
    (sum: number, route: { stops: unknown[] }) => sum + route.stops.length,
    0,
  );
  return { id: done.id, routes: done.result.routes.length, stops, token: dispatcher };
}

describe('Optimization run map in a real browser', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!missing) browser = await chromium.launch({ executablePath: chromiumPath });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('draws every route as a visible line through its numbered stops, with the legend, from nothing but the service', async (context) => {
    if (missing || !browser) {
      console.warn(`skipping the map test: ${missing}`);
      context.skip(missing);
      return;
    }
    // Prepare
    const run = await plannedRun();
    const page = await browser.newPage({ extraHTTPHeaders: { authorization: `Bearer ${run.token}` } });
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl())) foreign.push(request.url());
    });

    // Act
    const response = await page.goto(`${baseUrl()}/api/v2/scheduling/optimization-runs/${run.id}/map.svg`);

    // Assess
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('image/svg+xml');
    const routes = page.locator('g.route');
    expect(await routes.count()).toBe(run.routes);
    expect(await page.locator('g.route g.stop').count()).toBe(run.stops);
    for (let i = 0; i < run.routes; i++) {
      const line = routes.nth(i).locator('polyline');
      expect(await line.isVisible()).toBe(true);
      const box = await line.boundingBox();
      expect((box?.width ?? 0) + (box?.height ?? 0)).toBeGreaterThan(20);
    }
    // Each route's stops are numbered from 1, in driving order.
    const firstNumbers = await routes.first().locator('g.stop text').allTextContents();
    expect(firstNumbers).toEqual(firstNumbers.map((_, n) => String(n + 1)));
    const legend = await page.locator('g.legend').textContent();
    expect(legend).toMatch(/Map: \d+ stops, \d+\.\d km/);
    expect(legend).toContain('Every case is planned.');
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);
});
