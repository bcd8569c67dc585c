/**
 * Vehicles over HTTP, in the Fleet Works workspace: CRUD, unique plates, location reports
 * (last-write-wins by recorded_at, no lock_version), grants, events and workspace isolation.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedWebhook, startReceiver } from '../doubles/webhook-receiver.ts';
import { baseUrl, call, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let dispatcher: string;
let driver: string;
let technician: string;
let beta: string;

beforeAll(async () => {
  [admin, dispatcher, driver, technician, beta] = await Promise.all([
    tokenFor('fleet-admin'),
    tokenFor('fleet-dispatcher'),
    tokenFor('fleet-driver'),
    tokenFor('fleet-technician'),
    tokenFor('beta-admin'),
  ]);
});

/** A plate no other test uses: `F-` and 6 random characters. */
const uniquePlate = () => `F-${randomUUID().slice(0, 6).toUpperCase()}`;

async function createVehicle(overrides: Record<string, unknown> = {}, token = dispatcher) {
  const response = await call('POST', '/api/v2/vehicles', {
    token,
    body: { name: `Van ${randomUUID().slice(0, 6)}`, license_plate: uniquePlate(), ...overrides },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

interface Entry {
  id: string;
  event_type: string;
  resource: { id: string };
  data: { object: Record<string, any>; previous_attributes?: Record<string, unknown> };
}

async function eventsOf(resourceId: string): Promise<Entry[]> {
  const response = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
  expect(response.status).toBe(200);
  return (response.body.items as Entry[]).filter((entry) => entry.resource.id === resourceId);
}

const report = (id: string, body: Record<string, unknown>, token = dispatcher) =>
  call('PUT', `/api/v2/vehicles/${id}/location`, { token, body });

/** The event stream's messages replayed after `lastEventId`, until the server drops the connection. */
async function replayedAfter(lastEventId: string) {
  const response = await fetch(`${baseUrl()}/api/v2/events/stream?lastEventId=${lastEventId}`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  return (await response.text())
    .split('\n\n')
    .map((block) => {
      const kind = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      return kind && data ? { kind, data: JSON.parse(data) } : undefined;
    })
    .filter((message) => message !== undefined);
}

describe('Vehicles: create and read', () => {
  it('answers 201 with defaults, lock_version 0, no location and an absolute Location', async () => {
    const plate = uniquePlate();
    const response = await call('POST', '/api/v2/vehicles', {
      token: dispatcher,
      body: { name: 'Van 12', license_plate: plate },
    });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Van 12',
      license_plate: plate,
      vehicle_type: 'OTHER',
      is_active: true,
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      lock_version: 0,
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/vehicles/${response.body.id}`);
    const read = await call('GET', `/api/v2/vehicles/${response.body.id}`, { token: technician });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
  });

  it('keeps every field sent and omits absent ones', async () => {
    const vehicle = await createVehicle({ vehicle_type: 'TRUCK', capacity_kg: 7500.5, is_active: false });

    expect(vehicle).toMatchObject({ vehicle_type: 'TRUCK', capacity_kg: 7500.5, is_active: false });
    const bike = await createVehicle({ license_plate: undefined, vehicle_type: 'BIKE' });
    expect(bike).not.toHaveProperty('license_plate');
    expect(bike).not.toHaveProperty('capacity_kg');
    expect(JSON.stringify(bike)).not.toContain('null');
  });

  it.each([
    { title: 'missing name', body: {}, type: 'field-required', pointer: '#/name' },
    { title: 'blank name', body: { name: '  ' }, type: 'field-required', pointer: '#/name' },
    {
      title: 'unknown vehicle_type',
      body: { name: 'x', vehicle_type: 'TANK' },
      type: 'validation-failed',
      pointer: '#/vehicle_type',
    },
    {
      title: 'negative capacity',
      body: { name: 'x', capacity_kg: -1 },
      type: 'validation-failed',
      pointer: '#/capacity_kg',
    },
    {
      title: 'capacity as string',
      body: { name: 'x', capacity_kg: '12' },
      type: 'field-type-invalid',
      pointer: '#/capacity_kg',
    },
    {
      title: 'plate over 32 characters',
      body: { name: 'x', license_plate: 'A'.repeat(33) },
      type: 'validation-failed',
      pointer: '#/license_plate',
    },
    {
      title: 'plate without letters or digits',
      body: { name: 'x', license_plate: '- -' },
      type: 'validation-failed',
      pointer: '#/license_plate',
    },
    {
      title: 'is_active as string',
      body: { name: 'x', is_active: 'yes' },
      type: 'field-type-invalid',
      pointer: '#/is_active',
    },
  ])('rejects $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const response = await call('POST', '/api/v2/vehicles', { token: dispatcher, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const response = await call('GET', `/api/v2/vehicles/${id}`, { token: admin });
      expect(response.status).toBe(404);
    }
  });
});

describe('Vehicles: license plates are unique per workspace', () => {
  it('refuses a plate another vehicle has, whatever its case, blanks and hyphens, naming the holder', async () => {
    const plate = uniquePlate();
    const holder = await createVehicle({ license_plate: plate });

    const response = await call('POST', '/api/v2/vehicles', {
      token: dispatcher,
      body: { name: 'Copy', license_plate: ` ${plate.replace('-', ' ').toLowerCase()}` },
    });

    expect(response.status).toBe(409);
    expect(response.body.type).toEqual(problemType('resource-conflict'));
    expect(response.body.errors).toEqual([
      expect.objectContaining({ pointer: '#/license_plate', data: { vehicle_id: holder.id } }),
    ]);
  });

  it('frees a plate when it is cleared, changed or its vehicle deleted', async () => {
    const [a, b, c] = [uniquePlate(), uniquePlate(), uniquePlate()];
    const cleared = await createVehicle({ license_plate: a });
    const changed = await createVehicle({ license_plate: b });
    const deleted = await createVehicle({ license_plate: c });

    await call('PATCH', `/api/v2/vehicles/${cleared.id}`, {
      token: dispatcher,
      body: { license_plate: null },
    });
    await call('PATCH', `/api/v2/vehicles/${changed.id}`, {
      token: dispatcher,
      body: { license_plate: uniquePlate() },
    });
    await call('DELETE', `/api/v2/vehicles/${deleted.id}`, { token: dispatcher });

    for (const plate of [a, b, c]) await createVehicle({ license_plate: plate });
  });

  it('lets a vehicle rewrite its own plate in another spelling', async () => {
    const plate = uniquePlate();
    const vehicle = await createVehicle({ license_plate: plate });

    const response = await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, {
      token: dispatcher,
      body: { license_plate: plate.toLowerCase() },
    });

    expect(response.status).toBe(200);
    expect(response.body.license_plate).toBe(plate.toLowerCase());
  });

  it('allows the same plate in another workspace', async () => {
    const plate = uniquePlate();
    await createVehicle({ license_plate: plate });

    const response = await call('POST', '/api/v2/vehicles', {
      token: beta,
      body: { name: 'Beta van', license_plate: plate },
    });

    expect(response.status).toBe(201);
  });
});

describe('Vehicles: update and delete', () => {
  it('merges a patch, clears with null, increments lock_version and answers 409 on a stale one', async () => {
    const vehicle = await createVehicle({ capacity_kg: 1200 });

    const patched = await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, {
      token: dispatcher,
      body: { capacity_kg: null, vehicle_type: 'VAN', lock_version: 0 },
    });
    const stale = await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, {
      token: dispatcher,
      body: { name: 'late', lock_version: 0 },
    });

    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: vehicle.name, vehicle_type: 'VAN', lock_version: 1 });
    expect(patched.body).not.toHaveProperty('capacity_kg');
    expect(stale.status).toBe(409);
  });

  it.each([
    { body: { name: null }, pointer: '#/name' },
    { body: { vehicle_type: null }, pointer: '#/vehicle_type' },
    { body: { is_active: null }, pointer: '#/is_active' },
    { body: { name: '' }, pointer: '#/name' },
  ])('refuses $body with 422 field-required', async ({ body, pointer }) => {
    const vehicle = await createVehicle();

    const response = await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('field-required'));
    expect(response.body.errors[0].pointer).toBe(pointer);
  });

  it('deletes with 204, then the vehicle is 404', async () => {
    const vehicle = await createVehicle();

    const removed = await call('DELETE', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher });
    const read = await call('GET', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher });
    const again = await call('DELETE', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher });

    expect([removed.status, read.status, again.status]).toEqual([204, 404, 404]);
  });

  it('records vehicle.created, vehicle.updated (with previous values) and vehicle.deleted', async () => {
    const vehicle = await createVehicle({ capacity_kg: 900 });
    await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher, body: { capacity_kg: 1000 } });
    await call('DELETE', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher });

    const entries = await eventually(async () => {
      const found = await eventsOf(vehicle.id);
      expect(found).toHaveLength(3);
      return found;
    });

    expect(entries.map((entry) => entry.event_type)).toEqual([
      'vehicle.deleted',
      'vehicle.updated',
      'vehicle.created',
    ]);
    expect(entries[1]?.data.previous_attributes).toEqual({ capacity_kg: 900 });
  });

  it('names in-service is_active in the vehicle, its events and the list filter, and refuses the old name', async () => {
    // Prepare
    const vehicle = await createVehicle();

    // Act
    const retired = await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, {
      token: dispatcher,
      body: { is_active: false },
    });
    const oldBody = await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, {
      token: dispatcher,
      body: { active: true },
    });
    const oldFilter = await call('GET', '/api/v2/vehicles?active=false', { token: dispatcher });

    // Assess
    expect(retired.body).toMatchObject({ is_active: false, lock_version: 1 });
    expect(retired.body).not.toHaveProperty('active');
    expect([oldBody.status, oldFilter.status]).toEqual([422, 422]);
    const updated = await eventually(async () => {
      const found = (await eventsOf(vehicle.id)).find((entry) => entry.event_type === 'vehicle.updated');
      expect(found).toBeDefined();
      return found;
    });
    expect(updated?.data.previous_attributes).toEqual({ is_active: true });
    expect(updated?.data.object).toMatchObject({ id: vehicle.id, is_active: false });
    expect(updated?.data.object).not.toHaveProperty('active');
  });
});

describe('Vehicles: location reports', () => {
  it('stores the report, answers the vehicle with it, and leaves lock_version and updated_at alone', async () => {
    const vehicle = await createVehicle();

    const response = await report(vehicle.id, {
      latitude: 52.5602,
      longitude: 13.2877,
      recorded_at: '2026-06-11T09:42:10+02:00',
      heading: 84,
      speed_kmh: 38.5,
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...vehicle,
      location: {
        latitude: 52.5602,
        longitude: 13.2877,
        recorded_at: '2026-06-11T07:42:10.000Z',
        heading: 84,
        speed_kmh: 38.5,
      },
    });
    const read = await call('GET', `/api/v2/vehicles/${vehicle.id}`, { token: driver });
    expect(read.body).toEqual(response.body);
  });

  it('ignores a report older than, or as old as, the stored one: 200 with the vehicle unchanged', async () => {
    const vehicle = await createVehicle();
    await report(vehicle.id, { latitude: 52, longitude: 13, recorded_at: '2026-06-11T08:00:00Z' });

    const older = await report(vehicle.id, {
      latitude: 48,
      longitude: 11,
      recorded_at: '2026-06-11T07:59:59Z',
    });
    const same = await report(vehicle.id, {
      latitude: 48,
      longitude: 11,
      recorded_at: '2026-06-11T08:00:00Z',
    });
    const newer = await report(vehicle.id, {
      latitude: 53,
      longitude: 10,
      recorded_at: '2026-06-11T08:00:01Z',
    });

    expect(older.status).toBe(200);
    expect(older.body.location).toMatchObject({ latitude: 52, longitude: 13 });
    expect(same.body.location).toMatchObject({ latitude: 52, longitude: 13 });
    expect(newer.body.location).toEqual({
      latitude: 53,
      longitude: 10,
      recorded_at: '2026-06-11T08:00:01.000Z',
    });
  });

  it('dates a report without recorded_at at its arrival', async () => {
    const vehicle = await createVehicle();
    const before = Date.now();

    const response = await report(vehicle.id, { latitude: 1, longitude: 2 });

    expect(Date.parse(response.body.location.recorded_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('never conflicts with an edit: a PATCH with the lock_version read before the report succeeds', async () => {
    const vehicle = await createVehicle();
    await report(vehicle.id, { latitude: 1, longitude: 2, recorded_at: '2026-06-11T08:00:00Z' });

    const patched = await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, {
      token: dispatcher,
      body: { name: 'Renamed', lock_version: vehicle.lock_version },
    });

    expect(patched.status).toBe(200);
    expect(patched.body.location).toMatchObject({ latitude: 1, longitude: 2 });
  });

  it('keeps the newest of concurrent reports, whatever order they arrive in', async () => {
    const vehicle = await createVehicle();
    const times = Array.from({ length: 10 }, (_, i) => `2026-06-11T08:00:${String(i).padStart(2, '0')}Z`);

    await Promise.all(
      [...times]
        .reverse()
        .map((recorded_at, i) => report(vehicle.id, { latitude: i, longitude: 0, recorded_at })),
    );

    const read = await call('GET', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher });
    expect(read.body.location.recorded_at).toBe('2026-06-11T08:00:09.000Z');
  });

  it.each([
    { title: 'latitude out of range', body: { latitude: 91, longitude: 0 }, pointer: '#/latitude' },
    { title: 'longitude out of range', body: { latitude: 0, longitude: -181 }, pointer: '#/longitude' },
    { title: 'missing latitude', body: { longitude: 0 }, pointer: '#/latitude' },
    { title: 'heading above 360', body: { latitude: 0, longitude: 0, heading: 361 }, pointer: '#/heading' },
    { title: 'negative speed', body: { latitude: 0, longitude: 0, speed_kmh: -3 }, pointer: '#/speed_kmh' },
    {
      title: 'recorded_at not a date-time',
      body: { latitude: 0, longitude: 0, recorded_at: 'noon' },
      pointer: '#/recorded_at',
    },
    {
      title: 'recorded_at an hour ahead',
      body: { latitude: 0, longitude: 0, recorded_at: new Date(Date.now() + 3_600_000).toISOString() },
      pointer: '#/recorded_at',
    },
  ])('rejects $title with 422 at $pointer', async ({ body, pointer }) => {
    const vehicle = await createVehicle();

    const response = await report(vehicle.id, body);

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  });

  it('answers 404 for an unknown vehicle', async () => {
    const response = await report(randomUUID(), { latitude: 0, longitude: 0 });

    expect(response.status).toBe(404);
  });

  it('keeps location reports off webhooks and the audit log, and streams each accepted one as VEHICLE_LOCATION_UPDATED:V1', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await call('POST', '/api/v2/webhook-endpoints', {
        token: admin,
        body: { display_name: 'Tracker', endpoint_url: receiver.url, subscriptions: ['vehicle.*'] },
      });
      expect(endpoint.status).toBe(201);
      const vehicle = await createVehicle();
      const ofVehicle = (r: ReceivedWebhook) => r.json?.data?.object?.id === vehicle.id;
      await receiver.waitFor(1, ofVehicle);
      const start = await eventually(async () => {
        const [created] = await eventsOf(vehicle.id);
        if (!created) throw new Error('no audit entry yet');
        return created.id;
      });
      await report(vehicle.id, { latitude: 52, longitude: 13, recorded_at: '2026-06-11T08:00:00Z' });
      await report(vehicle.id, { latitude: 53, longitude: 14, recorded_at: '2026-06-11T08:01:00Z' });
      await report(vehicle.id, { latitude: 0, longitude: 0, recorded_at: '2026-06-11T07:00:00Z' });

      const streamed = await eventually(async () => {
        const found = (await replayedAfter(start)).filter(
          (message) =>
            message.kind === 'VEHICLE_LOCATION_UPDATED:V1' && message.data.vehicleId === vehicle.id,
        );
        if (found.length < 2) throw new Error('not replayed yet');
        return found;
      });
      // Give a delivery the time to show up, were one sent.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await call('DELETE', `/api/v2/webhook-endpoints/${endpoint.body.id}`, { token: admin });
      const catalog = await call('GET', '/api/v2/webhooks/event-types', { token: admin });

      expect(streamed.map((message) => message.data.location)).toEqual([
        expect.objectContaining({ latitude: 52, longitude: 13 }),
        expect.objectContaining({ latitude: 53, longitude: 14 }),
      ]);
      expect(streamed[0]?.data).toMatchObject({ businessId: `vehicle:${vehicle.id}` });
      expect(receiver.received.filter(ofVehicle).map((r) => r.json.type)).toEqual(['vehicle.created']);
      expect((await eventsOf(vehicle.id)).map((e) => e.event_type)).toEqual(['vehicle.created']);
      const types = catalog.body.items.map((item: { type: string }) => item.type);
      expect(types).not.toContain('vehicle.location_updated');
      expect(
        catalog.body.items.find((item: { type: string }) => item.type === 'vehicle.updated').description,
      ).toContain('VEHICLE_LOCATION_UPDATED:V1');
    } finally {
      await receiver.stop();
    }
  });

  it('deletes the location with its vehicle', async () => {
    const vehicle = await createVehicle();
    await report(vehicle.id, { latitude: 1, longitude: 1 });

    await call('DELETE', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher });
    const late = await report(vehicle.id, { latitude: 2, longitude: 2 });

    expect(late.status).toBe(404);
  });
});

describe('Vehicles: list', () => {
  it('pages by name (numbers by value) with totals, each item with its location', async () => {
    const prefix = `Sort ${randomUUID().slice(0, 4)}`;
    const names = ['Van 10', 'Van 2', 'van 1'].map((name) => `${prefix} ${name}`);
    for (const name of names) await createVehicle({ name });

    const all: any[] = [];
    for (let page = 0; ; page++) {
      const response = await call('GET', `/api/v2/vehicles?size=50&page=${page}`, { token: technician });
      expect(response.status).toBe(200);
      all.push(...response.body.items);
      if (page + 1 >= response.body.page.total_pages) {
        expect(all).toHaveLength(response.body.page.total_elements);
        break;
      }
    }
    const ours = all.filter((vehicle) => vehicle.name.startsWith(prefix)).map((vehicle) => vehicle.name);
    expect(ours).toEqual([`${prefix} van 1`, `${prefix} Van 2`, `${prefix} Van 10`]);
  });

  it('filters by is_active, counting from the segment', async () => {
    const inactive = await createVehicle({ is_active: false });
    const active = await createVehicle();

    const list = (q: string) =>
      call('GET', `/api/v2/vehicles?size=100&sort=created_at:desc&${q}`, { token: admin });
    // Other files create vehicles in Fleet Works meanwhile: the counts are compared from three
    // reads between which the whole list's total did not move (read before and after them).
    const settledReads = async () => {
      for (let attempt = 1; ; attempt++) {
        const before = await list('');
        const reads = [await list('is_active=false'), await list('is_active=true'), await list('')] as const;
        if (reads[2].body.page.total_elements === before.body.page.total_elements || attempt === 10) {
          return reads;
        }
      }
    };
    const [onlyInactive, onlyActive, everyone] = await settledReads();

    const ids = (response: { body: { items: Array<{ id: string }> } }) =>
      response.body.items.map((v) => v.id);
    expect(ids(onlyInactive)).toContain(inactive.id);
    expect(ids(onlyInactive)).not.toContain(active.id);
    expect(ids(onlyActive)).toContain(active.id);
    expect(ids(onlyActive)).not.toContain(inactive.id);
    expect(onlyInactive.body.items.every((v: { is_active: boolean }) => !v.is_active)).toBe(true);
    expect(onlyActive.body.page.total_elements + onlyInactive.body.page.total_elements).toBe(
      everyone.body.page.total_elements,
    );
  });

  it('moves a vehicle between the active and inactive lists when it is taken out of service', async () => {
    const vehicle = await createVehicle();

    await call('PATCH', `/api/v2/vehicles/${vehicle.id}`, { token: dispatcher, body: { is_active: false } });
    const response = await call('GET', '/api/v2/vehicles?is_active=false&size=100&sort=updated_at:desc', {
      token: admin,
    });

    expect(response.body.items.map((v: { id: string }) => v.id)).toContain(vehicle.id);
  });

  it('sorts by license_plate with vehicles without a plate last', async () => {
    const response = await call('GET', '/api/v2/vehicles?size=100&sort=license_plate:asc', { token: admin });

    const plates = response.body.items.map((v: { license_plate?: string }) => v.license_plate ?? null);
    const firstMissing = plates.indexOf(null);
    if (firstMissing !== -1) expect(plates.slice(firstMissing).every((p: unknown) => p === null)).toBe(true);
  });

  it('rejects an unknown sort key and a non-boolean is_active with 422', async () => {
    for (const query of ['sort=id:asc', 'is_active=yes']) {
      const response = await call('GET', `/api/v2/vehicles?${query}`, { token: admin });
      expect(response.status, query).toBe(422);
    }
  });
});

describe('Vehicles: access', () => {
  it('lets technicians and drivers read but not write, naming the missing grant', async () => {
    const vehicle = await createVehicle();

    for (const token of [driver, technician]) {
      expect((await call('GET', '/api/v2/vehicles', { token })).status).toBe(200);
      const attempts = await Promise.all([
        call('POST', '/api/v2/vehicles', { token, body: { name: 'x' } }),
        call('PATCH', `/api/v2/vehicles/${vehicle.id}`, { token, body: { name: 'x' } }),
        call('DELETE', `/api/v2/vehicles/${vehicle.id}`, { token }),
      ]);
      for (const response of attempts) {
        expect(response.status).toBe(403);
        expect(response.body.data).toMatchObject({
          reason: 'missing_grant',
          required_grants: ['vehicles:update'],
        });
      }
      // They report only the vehicle of a tour they drive (field-work.test.ts).
      const reported = await report(vehicle.id, { latitude: 0, longitude: 0 }, token);
      expect(reported.status).toBe(403);
      expect(reported.body.data).toEqual({ reason: 'not_owner' });
    }
  });

  it('never shows a vehicle of another workspace', async () => {
    const vehicle = await createVehicle();

    const responses = await Promise.all([
      call('GET', `/api/v2/vehicles/${vehicle.id}`, { token: beta }),
      call('PATCH', `/api/v2/vehicles/${vehicle.id}`, { token: beta, body: { name: 'stolen' } }),
      call('DELETE', `/api/v2/vehicles/${vehicle.id}`, { token: beta }),
      report(vehicle.id, { latitude: 0, longitude: 0 }, beta),
    ]);
    const list = await call('GET', '/api/v2/vehicles?size=100&sort=created_at:desc', { token: beta });

    expect(responses.map((response) => response.status)).toEqual([404, 404, 404, 404]);
    expect(list.body.items.map((v: { id: string }) => v.id)).not.toContain(vehicle.id);
  });

  it('answers 401 without a token', async () => {
    expect((await call('GET', '/api/v2/vehicles')).status).toBe(401);
  });
});
