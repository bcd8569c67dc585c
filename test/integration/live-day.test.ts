/**
 * The live day over HTTP (API-DECISIONS.md, "The live day"): a technician's phone (a device with
 * their user_id) reports positions through the intake while their tour is on the road. Simulated
 * drives: approaching a case, staying, leaving marks one arrival and one departure on the tour's
 * stop (and the next stop EN_ROUTE with an eta); jitter along the arrival radius for 10 minutes
 * marks none or one arrival and no departure; a drive that falls behind its windows makes the
 * next stop late. Each test makes its own technician, cases and tour in the Fleet Works workspace.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, tokenFor } from '../support/api.ts';
import { createUser } from '../support/users.ts';

let admin: string;
let dispatcher: string;

beforeAll(async () => {
  [admin, dispatcher] = await Promise.all([tokenFor('fleet-admin'), tokenFor('fleet-dispatcher')]);
});

const origin = { latitude: 52.52, longitude: 13.405 };
const metresPerDegreeLat = 111_320;
const metresPerDegreeLon = metresPerDegreeLat * Math.cos((origin.latitude * Math.PI) / 180);
/** A place `east`/`north` metres from `from`. */
const offset = (from: typeof origin, east: number, north: number) => ({
  latitude: from.latitude + north / metresPerDegreeLat,
  longitude: from.longitude + east / metresPerDegreeLon,
});
const minute = 60_000;

/** A technician on the road: their phone, and a tour IN_PROGRESS through cases at `places`. */
async function onTheRoad(
  places: Array<{ place: typeof origin; windowEnd?: string }>,
  options: { shift?: boolean } = {},
) {
  const user = await createUser(admin, { firstname: 'Live', lastname: `Tech ${randomUUID().slice(0, 4)}` });
  const shift = options.shift
    ? await call('POST', '/api/v2/shifts', {
        token: dispatcher,
        body: {
          user_id: user.id,
          start: new Date(Date.now() - 2 * 3600_000).toISOString(),
          end: new Date(Date.now() + 6 * 3600_000).toISOString(),
          start_location: origin,
        },
      })
    : undefined;
  if (shift) expect(shift.status, shift.text).toBe(201);
  const device = await call('POST', '/api/v2/devices', { token: dispatcher, body: { user_id: user.id } });
  expect(device.status, device.text).toBe(201);
  const code = await call('POST', `/api/v2/devices/${device.body.id}/setup-codes`, { token: dispatcher });
  expect(code.status, code.text).toBe(200);
  const caseIds: string[] = [];
  for (const [index, { place, windowEnd }] of places.entries()) {
    const created = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: {
        title: `Live stop ${index + 1}`,
        duration: 'PT20M',
        assignee_id: user.id,
        location: place,
        ...(windowEnd
          ? {
              time_windows: [
                { start: new Date(Date.parse(windowEnd) - 3 * 3600_000).toISOString(), end: windowEnd },
              ],
            }
          : {}),
      },
    });
    expect(created.status, created.text).toBe(201);
    caseIds.push(created.body.id);
  }
  const tour = await call('POST', '/api/v2/tours', {
    token: dispatcher,
    body: {
      date: new Date().toISOString().slice(0, 10),
      driver_id: user.id,
      ...(shift ? { shift_id: shift.body.id } : {}),
      stops: caseIds.map((case_id) => ({ case_id })),
      status: 'IN_PROGRESS',
    },
  });
  expect(tour.status, tour.text).toBe(201);
  const secret = code.body.payload.intake_secret as string;
  const report = async (place: typeof origin, at: number) => {
    const response = await call('POST', `/api/v2/device-intake/${device.body.id}`, {
      headers: { authorization: `Bearer ${secret}` },
      body: { recorded_at: new Date(at).toISOString(), location: place },
    });
    expect(response.status, response.text).toBe(202);
  };
  const readTour = async () =>
    (await call('GET', `/api/v2/tours/${tour.body.id}`, { token: dispatcher })).body;
  return { caseIds, tourId: tour.body.id as string, shiftId: shift?.body.id as string, report, readTour };
}

/** Reports every 15 s from `start` along `path(t)` for `durationMs`. */
async function drive(
  report: (place: typeof origin, at: number) => Promise<void>,
  start: number,
  durationMs: number,
  path: (t: number) => typeof origin,
) {
  for (let t = 0; t <= durationMs; t += 15_000) await report(path(t), start + t);
}

describe('The live day: arrivals and departures from telemetry', () => {
  it('marks one arrival and one departure for a drive that approaches, stays and leaves, and heads for the next stop', async () => {
    // Prepare
    const first = offset(origin, 3000, 0);
    const second = offset(origin, 6000, 0);
    const day = await onTheRoad([{ place: first }, { place: second }]);
    const start = Date.now() - 40 * minute;

    // Act: 3 km east at 10 m/s (5 min), 8 minutes at the door, then 1.5 km on towards the next stop.
    await drive(day.report, start, 5 * minute, (t) => offset(origin, Math.min(3000, (t / 1000) * 10), 0));
    await drive(day.report, start + 5 * minute, 8 * minute, (t) =>
      offset(first, 10 * Math.sin(t / 20_000), 8),
    );
    await drive(day.report, start + 13 * minute, 3 * minute, (t) => offset(first, (t / 1000) * 10, 0));

    // Assess
    const tour = await day.readTour();
    const [done, next] = tour.stops;
    expect(done).toMatchObject({ case_id: day.caseIds[0], status: 'DONE' });
    const arrived = Date.parse(done.arrived_at);
    const departed = Date.parse(done.departed_at);
    // Within a report or two of reaching the door (5 min in) and of leaving the exit radius.
    expect(arrived - start).toBeGreaterThanOrEqual(4 * minute);
    expect(arrived - start).toBeLessThanOrEqual(6 * minute);
    expect(departed).toBeGreaterThan(arrived + 7 * minute);
    expect(next).toMatchObject({ case_id: day.caseIds[1], status: 'EN_ROUTE' });
    expect(Date.parse(next.eta)).toBeGreaterThan(Date.now() - minute);
  }, 120_000);

  it('marks none or one arrival and no departure for positions jittering along the radius for 10 minutes', async () => {
    // Prepare
    const site = offset(origin, 2000, 2000);
    const day = await onTheRoad([{ place: site }]);
    const start = Date.now() - 30 * minute;

    // Act: 150 m out, ±25 m in and out of the radius.
    await drive(day.report, start, 10 * minute, (t) => offset(site, 150 + 25 * Math.sin(t / 7_000), 0));

    // Assess
    const tour = await day.readTour();
    expect(['EN_ROUTE', 'ARRIVED']).toContain(tour.stops[0].status);
    expect(tour.stops[0].departed_at).toBeUndefined();
    const versions = tour.lock_version;
    await drive(day.report, start + 10 * minute + 15_000, 2 * minute, (t) =>
      offset(site, 150 + 25 * Math.sin(t / 7_000), 0),
    );
    const again = await day.readTour();
    expect(again.stops[0].arrived_at ?? null).toBe(tour.stops[0].arrived_at ?? null);
    expect(again.lock_version - versions).toBeLessThanOrEqual(1);
  }, 120_000);

  it('makes a stop late, with late_by, when the drive falls behind the end of its window', async () => {
    // Prepare: the second stop's window ends in 10 minutes; it is 30 km away.
    const far = offset(origin, 30_000, 0);
    const day = await onTheRoad([
      { place: offset(origin, 500, 0) },
      { place: far, windowEnd: new Date(Date.now() + 10 * minute).toISOString() },
    ]);

    // Act
    await day.report(origin, Date.now() - 30_000);

    // Assess
    await eventually(async () => {
      const tour = await day.readTour();
      expect(tour.stops[1]).toMatchObject({ late: true, late_by: expect.stringMatching(/^PT/) });
      expect(tour.stops[0]).toMatchObject({ status: 'EN_ROUTE', eta: expect.any(String) });
    });
  }, 60_000);
});

describe('The live day: the workspace’s arrival radius and dwell', () => {
  it('answers the defaults (150 m, PT2M), and marks arrivals by the radius and dwell the workspace set', async () => {
    // Prepare: the door is 300 m from where the technician parks, beyond the default radius.
    const defaults = await call('GET', '/api/v2/live-day/settings', { token: admin });
    expect(defaults.body).toMatchObject({ arrival_radius_m: 150, dwell: 'PT2M' });
    const changed = await call('PATCH', '/api/v2/live-day/settings', {
      token: admin,
      body: { arrival_radius_m: 400, dwell: 'PT1M' },
    });
    expect(changed.status, changed.text).toBe(200);
    try {
      const site = offset(origin, -2000, 1000);
      const day = await onTheRoad([{ place: site }]);
      const start = Date.now() - 20 * minute;

      // Act: parked 300 m from the door for 3 minutes.
      await drive(day.report, start, 3 * minute, () => offset(site, 300, 0));

      // Assess: arrived one dwell (a minute) after the first report within 400 m.
      const tour = await day.readTour();
      expect(tour.stops[0]).toMatchObject({ status: 'ARRIVED' });
      expect(Date.parse(tour.stops[0].arrived_at)).toBe(start);
    } finally {
      await call('PATCH', '/api/v2/live-day/settings', {
        token: admin,
        body: { arrival_radius_m: 150, dwell: 'PT2M' },
      });
    }
  }, 120_000);
});

describe('The live day: a REPAIR run re-plans the rest of a day that drifted', () => {
  const runs = '/api/v2/scheduling/optimization-runs';
  const runOnceIt = async (id: string, done: (run: Record<string, any>) => boolean) =>
    eventually(async () => {
      const run = await call('GET', `${runs}/${id}`, { token: dispatcher });
      expect(done(run.body), JSON.stringify(run.body)).toBe(true);
      return run.body as Record<string, any>;
    }, 30_000);

  it('keeps the stop already done first, moves only the stop that would miss its window, and applies to the tour on the road', async () => {
    // Prepare: A (3 km east) is done; B (6 km east) comes next in the plan, but C, a kilometre
    // north of A, must start within 25 minutes: after B's 20 minutes of work it could not.
    const a = offset(origin, 3000, 0);
    const b = offset(origin, 6000, 0);
    const c = offset(a, 0, 1000);
    const day = await onTheRoad(
      [{ place: a }, { place: b }, { place: c, windowEnd: new Date(Date.now() + 25 * minute).toISOString() }],
      { shift: true },
    );
    const start = Date.now() - 30 * minute;
    await drive(day.report, start, 5 * minute, (t) => offset(origin, Math.min(3000, (t / 1000) * 10), 0));
    await drive(day.report, start + 5 * minute, 8 * minute, () => offset(a, 5, 5));
    await drive(day.report, start + 13 * minute, 3 * minute, (t) =>
      offset(a, 0, Math.min(400, (t / 1000) * 5)),
    );
    expect((await day.readTour()).stops[0]).toMatchObject({ status: 'DONE' });

    // Act
    const created = await call('POST', runs, {
      token: dispatcher,
      body: { mode: 'REPAIR', shift_ids: [day.shiftId] },
    });
    expect(created.status, created.text).toBe(202);
    expect(created.body).toMatchObject({ mode: 'REPAIR', shift_ids: [day.shiftId] });
    const run = await runOnceIt(created.body.id, (body) => body.status === 'SUCCEEDED');
    // Meanwhile the van is stuck 20 km away: the live day rewrites the ETAs (a new tour version),
    // which is no conflict for the repair.
    const before = (await day.readTour()).lock_version;
    await day.report(offset(origin, -20_000, 0), Date.now() - 1000);
    await eventually(async () => expect((await day.readTour()).lock_version).toBeGreaterThan(before));
    const applied = await call('POST', `${runs}/${run.id}/apply`, { token: dispatcher });
    expect(applied.status, applied.text).toBe(202);
    const after = await runOnceIt(created.body.id, (body) => body.application?.status !== 'APPLYING');

    // Assess
    const [caseA, caseB, caseC] = day.caseIds;
    expect(run.result.routes).toHaveLength(1);
    expect(run.result.routes[0].stops.map((stop: { case_id: string }) => stop.case_id)).toEqual([
      caseC,
      caseB,
    ]);
    expect(run.result.unassigned).toEqual([]);
    expect(run.summary).toMatchObject({ assigned: 2, reordered: 1, reassigned: 0 });
    expect(after.application.status, JSON.stringify(after.application)).toBe('APPLIED');
    const tour = await day.readTour();
    expect(tour.status).toBe('IN_PROGRESS');
    expect(tour.stops.map((stop: { case_id: string }) => stop.case_id)).toEqual([caseA, caseC, caseB]);
    expect(tour.stops[0]).toMatchObject({
      status: 'DONE',
      arrived_at: expect.any(String),
      departed_at: expect.any(String),
    });
    const scheduled = await call('GET', `/api/v2/cases/${caseC}`, { token: dispatcher });
    expect(Date.parse(scheduled.body.scheduled_start)).toBeLessThanOrEqual(Date.now() + 25 * minute);
  }, 120_000);

  it('asks a REPAIR run for its shifts, and any other run for its horizon (422 at the pointer)', async () => {
    const repair = await call('POST', runs, { token: dispatcher, body: { mode: 'REPAIR' } });
    const plan = await call('POST', runs, { token: dispatcher, body: { to: new Date().toISOString() } });
    expect(repair.status, repair.text).toBe(422);
    expect(repair.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(['#/shift_ids']);
    expect(plan.status, plan.text).toBe(422);
    expect(plan.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(['#/from']);
  });
});

describe('The live day: a case’s ETA for the customer', () => {
  it('answers the eta of a stop on the road, the technician’s first name and the position’s age; 404 off the road', async () => {
    // Prepare
    const day = await onTheRoad([{ place: offset(origin, 4000, 0) }]);
    await day.report(origin, Date.now() - 20_000);
    const planned = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: { title: 'Not on the road' },
    });

    // Act
    const eta = await eventually(async () => {
      const response = await call('GET', `/api/v2/cases/${day.caseIds[0]}/eta`, { token: dispatcher });
      expect(response.status, response.text).toBe(200);
      return response;
    });
    const none = await call('GET', `/api/v2/cases/${planned.body.id}/eta`, { token: dispatcher });

    // Assess
    expect(eta.body).toMatchObject({ status: 'EN_ROUTE', technician: { first_name: 'Live' } });
    expect(Date.parse(eta.body.eta)).toBeGreaterThan(Date.now());
    expect(eta.body.position_age).toMatch(/^PT\d+S$/);
    expect(none.status).toBe(404);
  }, 60_000);
});
