/**
 * The day board in a real browser (the system's Chromium): a shift of today with its tour's
 * stops renders as a lane with a visible planned bar per stop, the now line inside the day and a
 * legend, and the page loads nothing from anywhere but the service.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, tokenFor } from '../support/api.ts';
import { createUser } from '../support/users.ts';

const chromiumPath = process.env.FSM_CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set FSM_CHROMIUM_PATH`;

const hour = 3_600_000;
const iso = (ms: number) => new Date(Math.round(ms / 60_000) * 60_000).toISOString();

/** A shift around now (four hours before and after) with a tour of today holding three stops. */
async function dayOnTheRoad() {
  const [admin, dispatcher] = await Promise.all([tokenFor('fleet-admin'), tokenFor('fleet-dispatcher')]);
  const user = await createUser(admin, { firstname: 'Board', lastname: `Tech ${randomUUID().slice(0, 4)}` });
  const now = Date.now();
  const depot = { latitude: 52.52, longitude: 13.405 };
  const shift = await call('POST', '/api/v2/shifts', {
    token: dispatcher,
    body: { user_id: user.id, start: iso(now - 4 * hour), end: iso(now + 4 * hour), start_location: depot },
  });
  expect(shift.status, shift.text).toBe(201);
  const stops = [];
  for (const offset of [-2, 0, 2]) {
    const job = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: { title: `Board stop ${offset}`, duration: 'PT45M', assignee_id: user.id },
    });
    expect(job.status, job.text).toBe(201);
    stops.push({ case_id: job.body.id, planned_arrival: iso(now + offset * hour) });
  }
  const tour = await call('POST', '/api/v2/tours', {
    token: dispatcher,
    body: {
      date: iso(now).slice(0, 10),
      driver_id: user.id,
      shift_id: shift.body.id,
      stops,
      status: 'IN_PROGRESS',
    },
  });
  expect(tour.status, tour.text).toBe(201);
  return { date: iso(now).slice(0, 10), token: dispatcher, label: 'Board Tech' };
}

describe('Day board in a real browser', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!missing) browser = await chromium.launch({ executablePath: chromiumPath });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('draws the shift as a lane with its stops as visible bars, the now line and the legend, from nothing but the service', async (context) => {
    if (missing || !browser) {
      console.warn(`skipping the day board test: ${missing}`);
      context.skip(missing);
      return;
    }
    // Prepare
    const day = await dayOnTheRoad();
    const page = await browser.newPage({ extraHTTPHeaders: { authorization: `Bearer ${day.token}` } });
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl())) foreign.push(request.url());
    });

    // Act
    const response = await page.goto(`${baseUrl()}/api/v2/scheduling/board.svg?date=${day.date}`);

    // Assess
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('image/svg+xml');
    const lane = page.locator('g.lane', { hasText: day.label });
    expect(await lane.count()).toBe(1);
    const bars = lane.locator('g.stop rect.planned');
    expect(await bars.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      const box = await bars.nth(i).boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(5);
    }
    // In driving order, left to right.
    const lefts = await Promise.all([0, 1, 2].map(async (i) => (await bars.nth(i).boundingBox())?.x ?? 0));
    expect([...lefts].sort((a, b) => a - b)).toEqual(lefts);
    expect(await page.locator('rect.now').isVisible()).toBe(true);
    expect(await page.locator('g.legend').textContent()).toContain('Red line: now');
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);
});
