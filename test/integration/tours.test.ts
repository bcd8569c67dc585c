/**
 * Tours over HTTP, in the Fleet Works workspace: CRUD, references (vehicle, driver, stop cases)
 * as field-level 422s, the list's filters, sorts and totals, what technicians and drivers see,
 * events and workspace isolation. List tests use days of one random far-off year, each test its
 * own, so they see only their own tours.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, claimsOf, eventually, problemType, tokenFor } from '../support/api.ts';
import { createUser, roleId, tokenOfUser, userIdByEmail } from '../support/users.ts';

let admin: string;
let dispatcher: string;
let driverClient: string;
let beta: string;
/** Seeded users: two drivers, a technician, and a driver who is also a dispatcher. */
const people = { driver: '', driver2: '', tech: '', mixed: '' };
const tokens = { driver: '', driver2: '', tech: '', mixed: '' };
let vehicle: string;

const year = 2200 + Math.floor(Math.random() * 700);
let nextDay = 0;
/** A day of the test year no other test uses (then `day(1)`, `day(2)` … after it). */
function days(count: number): string[] {
  const start = Date.UTC(year, 0, 1) + nextDay * 86_400_000;
  nextDay += count;
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

beforeAll(async () => {
  [admin, dispatcher, driverClient, beta] = await Promise.all([
    tokenFor('fleet-admin'),
    tokenFor('fleet-dispatcher'),
    tokenFor('fleet-driver'),
    tokenFor('beta-admin'),
  ]);
  for (const [name, email] of [
    ['driver', 'driver@fleet.test'],
    ['driver2', 'driver2@fleet.test'],
    ['tech', 'tech@fleet.test'],
    ['mixed', 'mixed@fleet.test'],
  ] as const) {
    people[name] = await userIdByEmail(admin, email);
    tokens[name] = tokenOfUser(admin, people[name]);
  }
  vehicle = (await createVehicle()).id;
});

async function createVehicle(overrides: Record<string, unknown> = {}, token = dispatcher) {
  const response = await call('POST', '/api/v2/vehicles', {
    token,
    body: { name: `Tour van ${randomUUID().slice(0, 6)}`, ...overrides },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

async function createCase(token = dispatcher): Promise<string> {
  const response = await call('POST', '/api/v2/cases', {
    token,
    body: { title: `Stop ${randomUUID().slice(0, 6)}` },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

async function createTour(body: Record<string, unknown> = {}, token = dispatcher) {
  const response = await call('POST', '/api/v2/tours', { token, body: { date: days(1)[0], ...body } });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const list = async (query: string, token = dispatcher) => {
  const response = await call('GET', `/api/v2/tours?${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body as {
    items: Array<{ id: string } & Record<string, any>>;
    page: { total_elements: number; total_pages: number };
  };
};
const idsOf = (page: { items: Array<{ id: string }> }) => page.items.map((tour) => tour.id);

describe('Tours: create and read', () => {
  it('answers 201 with status PLANNED, no stops, lock_version 0 and an absolute Location', async () => {
    const [date] = days(1);

    const response = await call('POST', '/api/v2/tours', { token: dispatcher, body: { date } });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      date,
      stops: [],
      status: 'PLANNED',
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      lock_version: 0,
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/tours/${response.body.id}`);
    const read = await call('GET', `/api/v2/tours/${response.body.id}`, { token: dispatcher });
    expect(read.body).toEqual(response.body);
  });

  it('keeps name, vehicle, driver and stops in their order, ids in lower case', async () => {
    const [first, second] = [await createCase(), await createCase()];

    const tour = await createTour({
      name: 'North loop',
      vehicle_id: vehicle.toUpperCase(),
      driver_id: people.driver,
      stops: [
        { case_id: second, planned_arrival: '2026-06-11T09:30:00+02:00' },
        { case_id: first.toUpperCase() },
      ],
      status: 'IN_PROGRESS',
    });

    expect(tour).toMatchObject({
      name: 'North loop',
      vehicle_id: vehicle,
      driver_id: people.driver,
      stops: [{ case_id: second, planned_arrival: '2026-06-11T07:30:00.000Z' }, { case_id: first }],
      status: 'IN_PROGRESS',
    });
    expect(tour.stops[1]).not.toHaveProperty('planned_arrival');
  });

  it.each([
    { title: 'missing date', body: {}, type: 'field-required', pointer: '#/date' },
    { title: 'blank date', body: { date: ' ' }, type: 'field-required', pointer: '#/date' },
    {
      title: 'a date that does not exist',
      body: { date: '2026-02-30' },
      type: 'validation-failed',
      pointer: '#/date',
    },
    {
      title: 'a date-time as date',
      body: { date: '2026-06-11T08:00:00Z' },
      type: 'validation-failed',
      pointer: '#/date',
    },
    {
      title: 'unknown status',
      body: { date: '2026-06-11', status: 'STARTED' },
      type: 'validation-failed',
      pointer: '#/status',
    },
    {
      title: 'stops as object',
      body: { date: '2026-06-11', stops: {} },
      type: 'field-type-invalid',
      pointer: '#/stops',
    },
    {
      title: 'a stop without case_id',
      body: { date: '2026-06-11', stops: [{}] },
      type: 'field-required',
      pointer: '#/stops/0/case_id',
    },
    {
      title: 'a case_id that is no uuid',
      body: { date: '2026-06-11', stops: [{ case_id: 'abc' }] },
      type: 'validation-failed',
      pointer: '#/stops/0/case_id',
    },
    {
      title: 'more than 200 stops',
      body: { date: '2026-06-11', stops: Array.from({ length: 201 }, () => ({ case_id: randomUUID() })) },
      type: 'validation-failed',
      pointer: '#/stops',
    },
    {
      title: 'vehicle_id no uuid',
      body: { date: '2026-06-11', vehicle_id: 'van' },
      type: 'validation-failed',
      pointer: '#/vehicle_id',
    },
  ])('rejects $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const response = await call('POST', '/api/v2/tours', { token: dispatcher, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expect((await call('GET', `/api/v2/tours/${id}`, { token: admin })).status).toBe(404);
    }
  });
});

describe('Tours: references', () => {
  it('reports every missing or foreign reference at its own pointer, in one 422', async () => {
    const known = await createCase();
    const foreignCase = await createCase(beta);
    const foreignVehicle = (await createVehicle({}, beta)).id;

    const response = await call('POST', '/api/v2/tours', {
      token: dispatcher,
      body: {
        date: '2026-06-11',
        vehicle_id: foreignVehicle,
        driver_id: randomUUID(),
        stops: [{ case_id: known }, { case_id: randomUUID() }, { case_id: known }, { case_id: foreignCase }],
      },
    });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('validation-failed'));
    expect(response.body.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      '#/driver_id',
      '#/stops/1/case_id',
      '#/stops/2/case_id',
      '#/stops/3/case_id',
      '#/vehicle_id',
    ]);
  });

  it('refuses a vehicle out of service, an API client and a deactivated user as driver', async () => {
    const retired = await createVehicle({ is_active: false });
    const gone = await createUser(admin, { role_ids: [await roleId(admin, 'driver')] });
    expect((await call('POST', `/api/v2/users/${gone.id}/deactivate`, { token: admin })).status).toBe(200);

    const responses = await Promise.all([
      call('POST', '/api/v2/tours', {
        token: dispatcher,
        body: { date: '2026-06-11', vehicle_id: retired.id },
      }),
      call('POST', '/api/v2/tours', {
        token: dispatcher,
        body: { date: '2026-06-11', driver_id: String(claimsOf(driverClient).sub) },
      }),
      call('POST', '/api/v2/tours', { token: dispatcher, body: { date: '2026-06-11', driver_id: gone.id } }),
    ]);

    expect(responses.map((r) => r.status)).toEqual([422, 422, 422]);
    expect(responses.map((r) => r.body.errors[0].pointer)).toEqual([
      '#/vehicle_id',
      '#/driver_id',
      '#/driver_id',
    ]);
  });

  it('checks only the references a patch sends: a tour keeps a vehicle deleted since', async () => {
    const doomed = await createVehicle();
    const tour = await createTour({ vehicle_id: doomed.id });
    await call('DELETE', `/api/v2/vehicles/${doomed.id}`, { token: dispatcher });

    const renamed = await call('PATCH', `/api/v2/tours/${tour.id}`, {
      token: dispatcher,
      body: { name: 'Kept' },
    });
    const rewritten = await call('PATCH', `/api/v2/tours/${tour.id}`, {
      token: dispatcher,
      body: { vehicle_id: doomed.id },
    });

    expect(renamed.status).toBe(200);
    expect(renamed.body.vehicle_id).toBe(doomed.id);
    expect(rewritten.status).toBe(422);
    expect(rewritten.body.errors[0].pointer).toBe('#/vehicle_id');
  });
});

describe('Tours: update and delete', () => {
  it('merges a patch: null clears, stops are replaced whole, lock_version increments, stale is 409', async () => {
    const [a, b] = [await createCase(), await createCase()];
    const tour = await createTour({
      name: 'Loop',
      vehicle_id: vehicle,
      driver_id: people.driver,
      stops: [{ case_id: a }],
    });

    const patched = await call('PATCH', `/api/v2/tours/${tour.id}`, {
      token: dispatcher,
      body: {
        name: null,
        driver_id: null,
        stops: [{ case_id: b }, { case_id: a }],
        status: 'DONE',
        lock_version: 0,
      },
    });
    const stale = await call('PATCH', `/api/v2/tours/${tour.id}`, {
      token: dispatcher,
      body: { status: 'CANCELLED', lock_version: 0 },
    });

    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      vehicle_id: vehicle,
      stops: [{ case_id: b }, { case_id: a }],
      status: 'DONE',
      lock_version: 1,
    });
    expect(patched.body).not.toHaveProperty('name');
    expect(patched.body).not.toHaveProperty('driver_id');
    expect(stale.status).toBe(409);
  });

  it.each([
    { body: { date: null }, type: 'field-required', pointer: '#/date' },
    { body: { stops: null }, type: 'field-required', pointer: '#/stops' },
    { body: { status: null }, type: 'field-required', pointer: '#/status' },
    { body: { name: '' }, type: 'field-required', pointer: '#/name' },
  ])('refuses $body with 422 $type', async ({ body, type, pointer }) => {
    const tour = await createTour();

    const response = await call('PATCH', `/api/v2/tours/${tour.id}`, { token: dispatcher, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors[0].pointer).toBe(pointer);
  });

  it('deletes with 204, then the tour is 404', async () => {
    const tour = await createTour();

    const removed = await call('DELETE', `/api/v2/tours/${tour.id}`, { token: dispatcher });
    const read = await call('GET', `/api/v2/tours/${tour.id}`, { token: dispatcher });

    expect([removed.status, read.status]).toEqual([204, 404]);
  });

  it('records tour.created, tour.updated with the previous values, and tour.deleted', async () => {
    const tour = await createTour({ driver_id: people.driver });
    await call('PATCH', `/api/v2/tours/${tour.id}`, {
      token: dispatcher,
      body: { driver_id: people.driver2 },
    });
    await call('DELETE', `/api/v2/tours/${tour.id}`, { token: dispatcher });

    const entries = await eventually(async () => {
      const response = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = response.body.items.filter(
        (entry: { resource: { id: string } }) => entry.resource.id === tour.id,
      );
      expect(found).toHaveLength(3);
      return found;
    });

    expect(entries.map((entry: { event_type: string }) => entry.event_type)).toEqual([
      'tour.deleted',
      'tour.updated',
      'tour.created',
    ]);
    expect(entries[1].data.previous_attributes).toEqual({ driver_id: people.driver });
    expect(entries[1].data.object).toMatchObject({ id: tour.id, driver_id: people.driver2 });
  });
});

describe('Tours: list', () => {
  it('orders by date, tours of one day in creation order, and pages with totals', async () => {
    const [d1, d2, d3] = days(3);
    const van = (await createVehicle()).id;
    const created = [];
    for (const date of [d3, d1, d2, d1]) created.push((await createTour({ date, vehicle_id: van })).id);

    const first = await list(`vehicle_id=${van}&size=3`);
    const second = await list(`vehicle_id=${van}&size=3&page=1`);
    const backwards = await list(`vehicle_id=${van}&sort=date:desc`);

    expect([...idsOf(first), ...idsOf(second)]).toEqual([created[1], created[3], created[2], created[0]]);
    expect(first.page).toMatchObject({ total_elements: 4, total_pages: 2 });
    expect(idsOf(backwards)).toEqual([created[0], created[2], created[3], created[1]]);
  });

  it('filters by date_from and date_to, both inclusive', async () => {
    const [d1, d2, d3, d4] = days(4);
    const tours: Record<string, string> = {};
    for (const date of [d1, d2, d3, d4] as string[]) tours[date] = (await createTour({ date })).id;

    const middle = await list(`date_from=${d2}&date_to=${d3}`);
    const from = await list(`date_from=${d4}&date_to=${d4}`);

    expect(idsOf(middle)).toEqual([tours[d2 as string], tours[d3 as string]]);
    expect(middle.page.total_elements).toBe(2);
    expect(idsOf(from)).toEqual([tours[d4 as string]]);
  });

  it('sorts a date range by updated_at and created_at too', async () => {
    const [d1, d2] = days(2);
    const early = await createTour({ date: d2 });
    const late = await createTour({ date: d1 });
    await call('PATCH', `/api/v2/tours/${early.id}`, { token: dispatcher, body: { name: 'touched' } });

    const byChange = await list(`date_from=${d1}&date_to=${d2}&sort=updated_at:desc`);
    const byCreation = await list(`date_from=${d1}&date_to=${d2}&sort=created_at:asc`);

    expect(idsOf(byChange)).toEqual([early.id, late.id]);
    expect(idsOf(byCreation)).toEqual([early.id, late.id]);
  });

  it('filters by status, and a status change moves the tour', async () => {
    const [date] = days(1);
    const planned = await createTour({ date });
    const started = await createTour({ date, status: 'IN_PROGRESS' });

    const before = await list(`date_from=${date}&date_to=${date}&status=IN_PROGRESS`);
    await call('PATCH', `/api/v2/tours/${planned.id}`, {
      token: dispatcher,
      body: { status: 'IN_PROGRESS' },
    });
    const after = await list(`date_from=${date}&date_to=${date}&status=IN_PROGRESS`);
    const planning = await list(`date_from=${date}&date_to=${date}&status=PLANNED`);

    expect(idsOf(before)).toEqual([started.id]);
    expect(idsOf(after)).toEqual([planned.id, started.id].sort());
    expect(planning.items).toEqual([]);
  });

  it("serves a driver's tours with totals from counters, across statuses and pages", async () => {
    const driver = await createUser(admin, { role_ids: [await roleId(admin, 'driver')] });
    const dates = days(5);
    const ids = [];
    for (const [i, date] of dates.entries()) {
      ids.push((await createTour({ date, driver_id: driver.id, status: i % 2 ? 'DONE' : 'PLANNED' })).id);
    }
    await createTour({ date: dates[0], driver_id: people.driver2 });

    const page0 = await list(`driver_id=${driver.id}&size=2`);
    const page2 = await list(`driver_id=${driver.id}&size=2&page=2`);
    const done = await list(`driver_id=${driver.id}&status=DONE`);
    const inRange = await list(`driver_id=${driver.id}&date_from=${dates[1]}&date_to=${dates[2]}`);
    const byChange = await list(`driver_id=${driver.id}&sort=updated_at:desc&size=2`);

    expect(idsOf(page0)).toEqual(ids.slice(0, 2));
    expect(page0.page).toMatchObject({ total_elements: 5, total_pages: 3 });
    expect(idsOf(page2)).toEqual(ids.slice(4));
    expect(idsOf(done)).toEqual([ids[1], ids[3]]);
    expect(done.page.total_elements).toBe(2);
    expect(idsOf(inRange)).toEqual([ids[1], ids[2]]);
    expect(inRange.page.total_elements).toBe(2);
    expect(idsOf(byChange)).toEqual([ids[4], ids[3]]);
    expect(byChange.page.total_elements).toBe(5);
  });

  it('follows a tour to its new driver and vehicle', async () => {
    const [date] = days(1);
    const [van1, van2] = [(await createVehicle()).id, (await createVehicle()).id];
    const tour = await createTour({ date, driver_id: people.driver, vehicle_id: van1 });

    await call('PATCH', `/api/v2/tours/${tour.id}`, {
      token: dispatcher,
      body: { driver_id: people.driver2, vehicle_id: van2 },
    });

    expect(idsOf(await list(`vehicle_id=${van1}`))).toEqual([]);
    expect((await list(`vehicle_id=${van1}`)).page.total_elements).toBe(0);
    expect(idsOf(await list(`vehicle_id=${van2}`))).toEqual([tour.id]);
    expect(idsOf(await list(`driver_id=${people.driver}&date_from=${date}&date_to=${date}`))).toEqual([]);
    expect(idsOf(await list(`driver_id=${people.driver2}&date_from=${date}&date_to=${date}`))).toEqual([
      tour.id,
    ]);
  });

  it('combines driver_id and vehicle_id', async () => {
    const [date] = days(1);
    const van = (await createVehicle()).id;
    const both = await createTour({ date, driver_id: people.driver2, vehicle_id: van });
    await createTour({ date, driver_id: people.driver2, vehicle_id: vehicle });
    await createTour({ date, driver_id: people.driver, vehicle_id: van });

    const page = await list(`driver_id=${people.driver2}&vehicle_id=${van}`);

    expect(idsOf(page)).toEqual([both.id]);
    expect(page.page.total_elements).toBe(1);
  });

  it.each([
    'date_from=2026-06-12&date_to=2026-06-11',
    'date_from=2026-13-01',
    'status=STARTED',
    'driver_id=me',
    'sort=name:asc',
    'sort=date:asc,created_at:desc',
  ])('rejects %s with 422', async (query) => {
    const response = await call('GET', `/api/v2/tours?${query}`, { token: dispatcher });

    expect(response.status).toBe(422);
  });
});

describe('Tours: what technicians and drivers see', () => {
  it('shows a driver only the tours they drive, and any other tour as missing', async () => {
    const [date] = days(1);
    const mine = await createTour({ date, driver_id: people.driver });
    const theirs = await createTour({ date, driver_id: people.driver2 });
    const nobodys = await createTour({ date });

    const everything = await list(`date_from=${date}&date_to=${date}`, tokens.driver);
    const unfiltered = await list('size=100&sort=created_at:desc', tokens.driver);
    const asked = await list(`driver_id=${people.driver2}`, tokens.driver);
    const reads = await Promise.all(
      [mine, theirs, nobodys].map((tour) =>
        call('GET', `/api/v2/tours/${tour.id}`, { token: tokens.driver }),
      ),
    );

    expect(idsOf(everything)).toEqual([mine.id]);
    expect(unfiltered.items.every((tour) => tour.driver_id === people.driver)).toBe(true);
    expect(idsOf(unfiltered)).toContain(mine.id);
    expect(asked.items).toEqual([]);
    expect(asked.page.total_elements).toBe(0);
    expect(reads.map((r) => r.status)).toEqual([200, 404, 404]);
  });

  it('applies the same to technicians who drive, but not to a driver who also dispatches', async () => {
    const [date] = days(1);
    const techTour = await createTour({ date, driver_id: people.tech });
    const other = await createTour({ date, driver_id: people.driver });

    const tech = await list(`date_from=${date}&date_to=${date}`, tokens.tech);
    const mixed = await list(`date_from=${date}&date_to=${date}`, tokens.mixed);

    expect(idsOf(tech)).toEqual([techTour.id]);
    expect(idsOf(mixed)).toEqual([techTour.id, other.id]);
  });

  it('lets drivers and technicians read but not plan tours, naming the missing grant', async () => {
    const tour = await createTour({ driver_id: people.driver });

    const attempts = await Promise.all([
      call('POST', '/api/v2/tours', { token: tokens.driver, body: { date: '2026-06-11' } }),
      // Their own tour's status is theirs to report (field-work.test.ts), its stops are not.
      call('PATCH', `/api/v2/tours/${tour.id}`, { token: tokens.driver, body: { stops: [] } }),
      call('DELETE', `/api/v2/tours/${tour.id}`, { token: tokens.tech }),
    ]);

    for (const response of attempts) {
      expect(response.status).toBe(403);
      expect(response.body.data).toMatchObject({
        reason: 'missing_grant',
        required_grants: ['tours:update'],
      });
    }
  });
});

describe('Tours: isolation', () => {
  it('never shows a tour of another workspace', async () => {
    const tour = await createTour();

    const responses = await Promise.all([
      call('GET', `/api/v2/tours/${tour.id}`, { token: beta }),
      call('PATCH', `/api/v2/tours/${tour.id}`, { token: beta, body: { name: 'stolen' } }),
      call('DELETE', `/api/v2/tours/${tour.id}`, { token: beta }),
    ]);
    const betaList = await list(`date_from=${tour.date}&date_to=${tour.date}`, beta);

    expect(responses.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(betaList.items).toEqual([]);
  });
});
