/**
 * Shifts over HTTP, in the Fleet Works workspace: create with defaults, the rules between fields
 * and references as field-level 422s, one shift at a time per user, merge patch and lock_version,
 * the list's filters, order and totals, events to a webhook and the audit log, grants, and
 * workspace isolation; and the tours that name a shift. Each test uses days of one random far-off
 * year of its own and users created for this file, so it sees only its own shifts.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedWebhook, startReceiver } from '../doubles/webhook-receiver.ts';
import { baseUrl, call, claimsOf, eventually, problemType, tokenFor } from '../support/api.ts';
import { createUser, roleId } from '../support/users.ts';

let admin: string;
let dispatcher: string;
let technician: string;
let beta: string;
/** Users of this file: two technicians and a driver (shift workers), a dispatcher (not one). */
const people = { tech: '', tech2: '', driver: '', dispatcher: '' };
let vehicle: string;
let betaVehicle: string;
let betaUser: string;

const year = 2300 + Math.floor(Math.random() * 600);
let nextDay = 0;
/** Midnight (UTC) of a day of the test year no other test uses. */
function freshDay(): number {
  return Date.UTC(year, 0, 1) + nextDay++ * 86_400_000;
}
/** The instant `hours` after midnight of `day`, as the service answers it. */
const at = (day: number, hours: number) => new Date(day + hours * 3_600_000).toISOString();

const depot = { latitude: 52.5602, longitude: 13.2877 };

beforeAll(async () => {
  [admin, dispatcher, technician, beta] = await Promise.all([
    tokenFor('fleet-admin'),
    tokenFor('fleet-dispatcher'),
    tokenFor('fleet-technician'),
    tokenFor('beta-admin'),
  ]);
  const [tech, tech2, driver, office] = await Promise.all([
    createUser(admin),
    createUser(admin),
    createUser(admin, { role_ids: [await roleId(admin, 'driver')] }),
    createUser(admin, { role_ids: [await roleId(admin, 'dispatcher')] }),
  ]);
  Object.assign(people, { tech: tech.id, tech2: tech2.id, driver: driver.id, dispatcher: office.id });
  vehicle = (await createVehicle(dispatcher)).id;
  betaVehicle = (await createVehicle(beta)).id;
  betaUser = (await createUser(beta)).id;
});

async function createVehicle(token: string, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v2/vehicles', {
    token,
    body: { name: `Shift van ${randomUUID().slice(0, 6)}`, ...overrides },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

/** A body of an 8-hour shift from 06:00 of `day` (a fresh day unless given). */
function shiftBody(overrides: Record<string, unknown> = {}, day = freshDay()) {
  return { user_id: people.tech, start: at(day, 6), end: at(day, 14), start_location: depot, ...overrides };
}

async function createShift(overrides: Record<string, unknown> = {}, day?: number) {
  const response = await call('POST', '/api/v2/shifts', {
    token: dispatcher,
    body: shiftBody(overrides, day),
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const idsOf = (response: { body: { items: Array<{ id: string }> } }) =>
  response.body.items.map((item) => item.id);

describe('Shifts: create and read', () => {
  it('answers 201 with the shift in UTC, end_location = start_location, no breaks, lock_version 0', async () => {
    const day = freshDay();
    const response = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: {
        user_id: people.tech.toUpperCase(),
        start: new Date(day + 6 * 3_600_000).toISOString().replace('Z', '+00:00'),
        end: `${new Date(day).toISOString().slice(0, 10)}T16:00:00+02:00`,
        start_location: depot,
      },
    });

    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: people.tech,
      start: at(day, 6),
      end: at(day, 14),
      start_location: depot,
      end_location: depot,
      breaks: [],
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      lock_version: 0,
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/shifts/${response.body.id}`);
    const read = await call('GET', `/api/v2/shifts/${response.body.id}`, { token: admin });
    expect(read.body).toEqual(response.body);
  });

  it('keeps a vehicle, an end location and breaks, durations in their shortest form', async () => {
    const day = freshDay();
    const home = { latitude: 52.52, longitude: 13.405 };

    const shift = await createShift(
      {
        user_id: people.driver,
        vehicle_id: vehicle,
        end_location: home,
        breaks: [
          { earliest_start: at(day, 9), latest_end: at(day, 12), duration: 'PT45M' },
          {
            earliest_start: at(day, 11),
            latest_end: at(day, 14),
            duration: 'PT90M',
          },
        ],
      },
      day,
    );

    expect(shift).toMatchObject({
      user_id: people.driver,
      vehicle_id: vehicle,
      end_location: home,
      breaks: [
        { earliest_start: at(day, 9), latest_end: at(day, 12), duration: 'PT45M' },
        { earliest_start: at(day, 11), latest_end: at(day, 14), duration: 'PT1H30M' },
      ],
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expect((await call('GET', `/api/v2/shifts/${id}`, { token: admin })).status).toBe(404);
    }
  });
});

describe('Shifts: validation', () => {
  const day = Date.UTC(year, 11, 31);
  const brk = (overrides: Record<string, unknown>) => ({
    breaks: [{ earliest_start: at(day, 9), latest_end: at(day, 12), duration: 'PT30M', ...overrides }],
  });
  it.each([
    { title: 'no user_id', body: { user_id: undefined }, type: 'field-required', pointer: '#/user_id' },
    {
      title: 'no start_location',
      body: { start_location: undefined },
      type: 'field-required',
      pointer: '#/start_location',
    },
    { title: 'no start', body: { start: undefined }, type: 'field-required', pointer: '#/start' },
    {
      title: 'a start without seconds',
      body: { start: '2300-01-01T06:00Z' },
      type: 'validation-failed',
      pointer: '#/start',
    },
    {
      title: 'an end before the start',
      body: { end: at(day, 5) },
      type: 'validation-failed',
      pointer: '#/end',
    },
    {
      title: 'an end equal to the start',
      body: { end: at(day, 6) },
      type: 'validation-failed',
      pointer: '#/end',
    },
    {
      title: 'more than 24 hours',
      body: { end: at(day, 30.5) },
      type: 'validation-failed',
      pointer: '#/end',
    },
    {
      title: 'a latitude out of range',
      body: { start_location: { latitude: 91, longitude: 0 } },
      type: 'validation-failed',
      pointer: '#/start_location/latitude',
    },
    {
      title: 'an end location without longitude',
      body: { end_location: { latitude: 1 } },
      type: 'field-required',
      pointer: '#/end_location/longitude',
    },
    {
      title: 'a break starting before the shift',
      body: brk({ earliest_start: at(day, 5) }),
      type: 'validation-failed',
      pointer: '#/breaks/0/earliest_start',
    },
    {
      title: 'a break ending after the shift',
      body: brk({ latest_end: at(day, 15) }),
      type: 'validation-failed',
      pointer: '#/breaks/0/latest_end',
    },
    {
      title: 'a break ending before it may start',
      body: brk({ latest_end: at(day, 8) }),
      type: 'validation-failed',
      pointer: '#/breaks/0/latest_end',
    },
    {
      title: 'a break longer than its window',
      body: brk({ duration: 'PT3H1M' }),
      type: 'validation-failed',
      pointer: '#/breaks/0/duration',
    },
    {
      title: 'a break duration that is no ISO 8601 duration',
      body: brk({ duration: '30 minutes' }),
      type: 'validation-failed',
      pointer: '#/breaks/0/duration',
    },
    {
      title: 'a break of seconds',
      body: brk({ duration: 'PT30S' }),
      type: 'validation-failed',
      pointer: '#/breaks/0/duration',
    },
    {
      title: 'six breaks',
      body: { breaks: Array.from({ length: 6 }, () => brk({}).breaks[0]) },
      type: 'validation-failed',
      pointer: '#/breaks',
    },
    {
      title: 'an unknown key',
      body: { shift_name: 'early' },
      type: 'validation-failed',
      pointer: '#/shift_name',
    },
    {
      title: 'a read-only key',
      body: { lock_version: 0 },
      type: 'validation-failed',
      pointer: '#/lock_version',
    },
    {
      title: 'a malformed user_id',
      body: { user_id: 'lukas' },
      type: 'validation-failed',
      pointer: '#/user_id',
    },
  ])('refuses $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const response = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: { ...shiftBody({}, day), ...body },
    });

    expect(response.status, response.text).toBe(422);
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
    const entry = response.body.errors.find((error: { pointer: string }) => error.pointer === pointer);
    if (type !== 'validation-failed') expect(entry.type).toEqual(problemType(type));
  });

  it.each([
    { title: 'a user of no workspace', field: 'user_id', value: () => randomUUID() },
    { title: 'a user of another workspace', field: 'user_id', value: () => betaUser },
    {
      title: 'a user who is neither technician nor driver',
      field: 'user_id',
      value: () => people.dispatcher,
    },
    { title: 'an API client', field: 'user_id', value: () => String(claimsOf(dispatcher).sub) },
    { title: 'a vehicle of no workspace', field: 'vehicle_id', value: () => randomUUID() },
    { title: 'a vehicle of another workspace', field: 'vehicle_id', value: () => betaVehicle },
  ])('refuses $title with 422 at its pointer', async ({ field, value }) => {
    const response = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: shiftBody({ [field]: value() }),
    });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: `#/${field}` })]);
  });

  it('refuses a deactivated user and a vehicle out of service, together', async () => {
    const leaver = await createUser(admin);
    await call('POST', `/api/v2/users/${leaver.id}/deactivate`, { token: admin });
    const retired = await createVehicle(dispatcher, { is_active: false });

    const response = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: shiftBody({ user_id: leaver.id, vehicle_id: retired.id }),
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      '#/user_id',
      '#/vehicle_id',
    ]);
  });
});

describe('Shifts: one at a time per user', () => {
  it('refuses overlapping hours of the same user at #/start, naming the other shift', async () => {
    const day = freshDay();
    const early = await createShift({}, day);

    const overlapping = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: shiftBody({ start: at(day, 13), end: at(day, 20) }, day),
    });
    const adjacent = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: shiftBody({ start: at(day, 14), end: at(day, 20) }, day),
    });
    const colleague = await call('POST', '/api/v2/shifts', {
      token: dispatcher,
      body: shiftBody({ user_id: people.tech2 }, day),
    });

    expect(overlapping.status).toBe(422);
    expect(overlapping.body.errors).toEqual([
      expect.objectContaining({ pointer: '#/start', data: { shift_id: early.id } }),
    ]);
    expect([adjacent.status, colleague.status]).toEqual([201, 201]);
  });

  it('finds an overlap with a shift that started the day before, and checks a patch that moves the hours', async () => {
    const day = freshDay();
    const night = await createShift({ start: at(day, -4), end: at(day, 5) }, day);
    const morning = await createShift({ start: at(day, 6), end: at(day, 12) }, day);

    const moved = await call('PATCH', `/api/v2/shifts/${morning.id}`, {
      token: dispatcher,
      body: { start: at(day, 4) },
    });
    const renamed = await call('PATCH', `/api/v2/shifts/${morning.id}`, {
      token: dispatcher,
      body: { start_location: { latitude: 52 } },
    });

    expect(moved.status).toBe(422);
    expect(moved.body.errors[0]).toMatchObject({ pointer: '#/start', data: { shift_id: night.id } });
    expect(renamed.status).toBe(200);
  });
});

describe('Shifts: update and delete', () => {
  it('merges a patch, clears with null, increments lock_version and answers 409 on a stale one', async () => {
    const day = freshDay();
    const shift = await createShift(
      {
        vehicle_id: vehicle,
        breaks: [{ earliest_start: at(day, 9), latest_end: at(day, 12), duration: 'PT30M' }],
      },
      day,
    );

    const patched = await call('PATCH', `/api/v2/shifts/${shift.id}`, {
      token: dispatcher,
      body: { vehicle_id: null, breaks: null, end_location: { longitude: 13.5 }, lock_version: 0 },
    });
    const stale = await call('PATCH', `/api/v2/shifts/${shift.id}`, {
      token: dispatcher,
      body: { end: at(day, 15), lock_version: 0 },
    });

    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      breaks: [],
      start_location: depot,
      end_location: { latitude: depot.latitude, longitude: 13.5 },
      lock_version: 1,
    });
    expect(patched.body).not.toHaveProperty('vehicle_id');
    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
    expect(stale.body.data).toEqual({ current_lock_version: 1 });
  });

  it('checks the rules on the resulting shift: hours moved away from a break are 422 at the break', async () => {
    const day = freshDay();
    const shift = await createShift(
      { breaks: [{ earliest_start: at(day, 12), latest_end: at(day, 13.5), duration: 'PT30M' }] },
      day,
    );

    const shortened = await call('PATCH', `/api/v2/shifts/${shift.id}`, {
      token: dispatcher,
      body: { end: at(day, 13) },
    });
    const tooLong = await call('PATCH', `/api/v2/shifts/${shift.id}`, {
      token: dispatcher,
      body: { end: at(day, 31) },
    });

    expect(shortened.status).toBe(422);
    expect(shortened.body.errors).toEqual([expect.objectContaining({ pointer: '#/breaks/0/latest_end' })]);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ pointer: '#/end' })]);
  });

  it.each([
    { body: { start: null }, pointer: '#/start' },
    { body: { user_id: null }, pointer: '#/user_id' },
    { body: { start_location: null }, pointer: '#/start_location' },
    { body: { end_location: null }, pointer: '#/end_location' },
  ])('refuses $body with 422 at $pointer', async ({ body, pointer }) => {
    const shift = await createShift();

    const response = await call('PATCH', `/api/v2/shifts/${shift.id}`, { token: dispatcher, body });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe(pointer);
  });

  it('deletes with 204, then the shift is 404', async () => {
    const shift = await createShift();

    const removed = await call('DELETE', `/api/v2/shifts/${shift.id}`, { token: dispatcher });
    const read = await call('GET', `/api/v2/shifts/${shift.id}`, { token: dispatcher });
    const again = await call('DELETE', `/api/v2/shifts/${shift.id}`, { token: dispatcher });

    expect([removed.status, read.status, again.status]).toEqual([204, 404, 404]);
  });
});

describe('Shifts: list', () => {
  it('filters by overlap with [from, to), by user_ids, and orders by start with totals', async () => {
    const day = freshDay();
    freshDay();
    const late = await createShift({ start: at(day, 20), end: at(day, 30) }, day);
    const early = await createShift({ user_id: people.tech2, start: at(day, 6), end: at(day, 10) }, day);
    const driver = await createShift({ user_id: people.driver, start: at(day, 8), end: at(day, 16) }, day);
    const list = (query: string) => call('GET', `/api/v2/shifts?${query}`, { token: admin });
    const window = (from: number, to: number) => `from=${at(day, from)}&to=${at(day, to)}`;

    const [whole, nextMorning, touching, users, descending, byCreation, paged] = await Promise.all([
      list(window(0, 48)),
      list(window(25, 26)),
      list(window(10, 20)),
      list(`${window(0, 48)}&user_ids=${people.tech}&user_ids=${people.driver}`),
      list(`${window(0, 48)}&sort=start:desc`),
      list(`${window(0, 48)}&sort=created_at:asc`),
      list(`${window(0, 48)}&size=2&page=1`),
    ]);

    expect(idsOf(whole)).toEqual([early.id, driver.id, late.id]);
    expect(whole.body.page).toEqual({ size: 20, total_elements: 3, total_pages: 1, number: 0 });
    expect(idsOf(nextMorning)).toEqual([late.id]);
    // Ends exactly at `from` (early) and starts exactly at `to` (late): no overlap.
    expect(idsOf(touching)).toEqual([driver.id]);
    expect(idsOf(users)).toEqual([driver.id, late.id]);
    expect(users.body.page.total_elements).toBe(2);
    expect(idsOf(descending)).toEqual([late.id, driver.id, early.id]);
    expect(idsOf(byCreation)).toEqual([late.id, early.id, driver.id]);
    expect(idsOf(paged)).toEqual([late.id]);
    expect(paged.body.page).toEqual({ size: 2, total_elements: 3, total_pages: 2, number: 1 });
  });

  it('counts a user’s shifts from its counter, and lists every shift of the workspace without filters', async () => {
    const worker = await createUser(admin, { role_ids: [await roleId(admin, 'driver')] });
    const first = await createShift({ user_id: worker.id });
    const second = await createShift({ user_id: worker.id });

    const mine = await call('GET', `/api/v2/shifts?user_ids=${worker.id}`, { token: admin });
    const all = await call('GET', '/api/v2/shifts?size=100&sort=created_at:desc', { token: admin });

    expect(idsOf(mine)).toEqual([first.id, second.id]);
    expect(mine.body.page.total_elements).toBe(2);
    expect(idsOf(all).slice(0, 2)).toEqual([second.id, first.id]);
  });

  it.each([
    'to=2300-01-01T00:00:00Z&from=2300-01-02T00:00:00Z',
    'from=2300-01-01T00:00:00Z&to=2300-01-01T00:00:00Z',
    'from=tomorrow',
    'user_ids=lukas',
    'user_id=019cad9d-67a0-77f5-96b9-283bd392bece',
    'sort=end:asc',
  ])('refuses %s with 422', async (query) => {
    const response = await call('GET', `/api/v2/shifts?${query}`, { token: admin });

    expect(response.status, response.text).toBe(422);
  });
});

describe('Shifts: events, access and isolation', () => {
  it('sends shift.created, shift.updated and shift.deleted to a webhook and records them in the audit log', async () => {
    const receiver = await startReceiver();
    const since = new Date(Date.now() - 1000).toISOString();
    try {
      const endpoint = await call('POST', '/api/v2/webhook-endpoints', {
        token: admin,
        body: { display_name: 'Shifts', endpoint_url: receiver.url, subscriptions: ['shift.*'] },
      });
      expect(endpoint.status, endpoint.text).toBe(201);
      const shift = await createShift();
      await call('PATCH', `/api/v2/shifts/${shift.id}`, { token: dispatcher, body: { vehicle_id: vehicle } });
      await call('DELETE', `/api/v2/shifts/${shift.id}`, { token: dispatcher });

      const ofShift = (r: ReceivedWebhook) => r.json?.data?.object?.id === shift.id;
      const received = await receiver.waitFor(3, ofShift);
      await call('DELETE', `/api/v2/webhook-endpoints/${endpoint.body.id}`, { token: admin });

      const byType = Object.fromEntries(received.map((r) => [r.json.type, r.json.data]));
      expect(Object.keys(byType).sort()).toEqual(['shift.created', 'shift.deleted', 'shift.updated']);
      expect(byType['shift.created'].object).toEqual(shift);
      expect(byType['shift.updated'].object).toMatchObject({ vehicle_id: vehicle, lock_version: 1 });
      expect(byType['shift.updated'].previous_attributes).toEqual({ vehicle_id: null });
      const audit = await eventually(async () => {
        const response = await call('GET', `/api/v2/audit-logs?size=100&created_from=${since}`, {
          token: admin,
        });
        const found = response.body.items.filter((entry: any) => entry.resource.id === shift.id);
        expect(found).toHaveLength(3);
        return found;
      });
      expect(audit.map((entry: { event_type: string }) => entry.event_type)).toEqual([
        'shift.deleted',
        'shift.updated',
        'shift.created',
      ]);
    } finally {
      await receiver.stop();
    }
  });

  it('answers 403 naming scheduling:read or scheduling:update to a technician', async () => {
    const shift = await createShift();

    const attempts = await Promise.all([
      call('GET', '/api/v2/shifts', { token: technician }),
      call('GET', `/api/v2/shifts/${shift.id}`, { token: technician }),
      call('POST', '/api/v2/shifts', { token: technician, body: shiftBody() }),
      call('PATCH', `/api/v2/shifts/${shift.id}`, { token: technician, body: { end: shift.end } }),
      call('DELETE', `/api/v2/shifts/${shift.id}`, { token: technician }),
    ]);

    expect(attempts.map((response) => response.status)).toEqual([403, 403, 403, 403, 403]);
    expect(attempts.map((response) => response.body.data.required_grants)).toEqual([
      ['scheduling:read'],
      ['scheduling:read'],
      ['scheduling:update'],
      ['scheduling:update'],
      ['scheduling:update'],
    ]);
  });

  it('never shows, changes or deletes a shift of another workspace', async () => {
    const shift = await createShift();

    const responses = await Promise.all([
      call('GET', `/api/v2/shifts/${shift.id}`, { token: beta }),
      call('PATCH', `/api/v2/shifts/${shift.id}`, { token: beta, body: { end: shift.end } }),
      call('DELETE', `/api/v2/shifts/${shift.id}`, { token: beta }),
    ]);
    const list = await call('GET', `/api/v2/shifts?user_ids=${people.tech}`, { token: beta });

    expect(responses.map((response) => response.status)).toEqual([404, 404, 404]);
    expect(list.body.items).toEqual([]);
    expect((await call('GET', `/api/v2/shifts/${shift.id}`, { token: admin })).body).toEqual(shift);
  });
});

describe('Tours: the shift they are driven in', () => {
  it('names a shift of the workspace, lists the tours of a shift, and clears it with null', async () => {
    const shift = await createShift();
    const date = shift.start.slice(0, 10);
    const create = (token: string, body: Record<string, unknown>) =>
      call('POST', '/api/v2/tours', { token, body });

    const first = await create(dispatcher, { date, shift_id: shift.id.toUpperCase() });
    const second = await create(dispatcher, { date, shift_id: shift.id, status: 'DONE' });
    const other = await create(dispatcher, { date });
    const unknown = await create(dispatcher, { date, shift_id: randomUUID() });
    const foreign = await create(beta, { date, shift_id: shift.id });
    const ofShift = (query = '') =>
      call('GET', `/api/v2/tours?shift_id=${shift.id}${query}`, { token: admin });
    const [both, done] = [await ofShift(), await ofShift('&status=DONE')];
    await call('PATCH', `/api/v2/tours/${first.body.id}`, { token: dispatcher, body: { shift_id: null } });
    const after = await ofShift();

    expect([first.status, second.status, other.status]).toEqual([201, 201, 201]);
    expect(first.body.shift_id).toBe(shift.id);
    expect(other.body).not.toHaveProperty('shift_id');
    for (const refused of [unknown, foreign]) {
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '#/shift_id' })]);
    }
    expect(idsOf(both)).toEqual([first.body.id, second.body.id]);
    expect(both.body.page.total_elements).toBe(2);
    expect(idsOf(done)).toEqual([second.body.id]);
    expect(idsOf(after)).toEqual([second.body.id]);
  });
});
