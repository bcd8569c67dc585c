/**
 * Technicians and drivers write their own work items (API-DECISIONS.md, baseline role grants),
 * over HTTP in the Fleet Works workspace: the status of a case assigned to them and of a tour
 * they drive, and the location of the vehicle of a tour they are on. Someone else's item is 403
 * not_owner; a field beyond what a field worker reports, or a planning status, is 403 naming the
 * fields and the grant that would allow them. Each test makes its own users with the API.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, tokenFor } from '../support/api.ts';
import { createUser, roleId, tokenOfUser } from '../support/users.ts';

let admin: string;
let dispatcher: string;

beforeAll(async () => {
  [admin, dispatcher] = await Promise.all([tokenFor('fleet-admin'), tokenFor('fleet-dispatcher')]);
});

/** A new user of the workspace with this role, and an access token of theirs. */
async function fieldWorker(role: 'technician' | 'driver') {
  const user = await createUser(admin, { role_ids: [await roleId(admin, role)] });
  return { id: user.id as string, token: tokenOfUser(admin, user.id) };
}

async function created(path: string, body: Record<string, unknown>) {
  const response = await call('POST', path, { token: dispatcher, body });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const newCase = (body: Record<string, unknown> = {}) =>
  created('/api/v2/cases', { title: `Meter swap ${randomUUID().slice(0, 6)}`, ...body });
const newVehicle = () => created('/api/v2/vehicles', { name: `Van ${randomUUID().slice(0, 6)}` });
const newTour = (body: Record<string, unknown> = {}) =>
  created('/api/v2/tours', { date: '2026-06-11', ...body });

const patch = (path: string, token: string, body: Record<string, unknown>) =>
  call('PATCH', path, { token, body });
const report = (vehicleId: string, token: string) =>
  call('PUT', `/api/v2/vehicles/${vehicleId}/location`, {
    token,
    body: { latitude: 52.5602, longitude: 13.2877 },
  });

describe('Field work: cases', () => {
  it.each(['technician', 'driver'] as const)(
    'lets a %s move a case assigned to it through IN_PROGRESS, ON_HOLD and DONE',
    async (role) => {
      // Prepare
      const worker = await fieldWorker(role);
      const job = await newCase({ assignee_id: worker.id, status: 'SCHEDULED' });

      // Act
      const started = await patch(`/api/v2/cases/${job.id}`, worker.token, {
        status: 'IN_PROGRESS',
        lock_version: 0,
      });
      const paused = await patch(`/api/v2/cases/${job.id}`, worker.token, { status: 'ON_HOLD' });
      const done = await patch(`/api/v2/cases/${job.id}`, worker.token, { status: 'DONE', lock_version: 2 });

      // Assess
      expect([started.status, paused.status, done.status]).toEqual([200, 200, 200]);
      expect(started.body).toMatchObject({ status: 'IN_PROGRESS', lock_version: 1, title: job.title });
      expect(done.body).toMatchObject({ status: 'DONE', lock_version: 3 });
      const read = await call('GET', `/api/v2/cases/${job.id}`, { token: dispatcher });
      expect(read.body).toMatchObject({ status: 'DONE', assignee_id: worker.id });
    },
  );

  it("refuses a technician someone else's case with 403 not_owner and leaves it unchanged", async () => {
    // Prepare
    const [tina, tom] = await Promise.all([fieldWorker('technician'), fieldWorker('technician')]);
    const toms = await newCase({ assignee_id: tom.id });
    const nobodys = await newCase();

    // Act
    const responses = await Promise.all(
      [toms, nobodys].map((job) => patch(`/api/v2/cases/${job.id}`, tina.token, { status: 'DONE' })),
    );

    // Assess
    for (const response of responses) {
      expect(response.status).toBe(403);
      expect(response.body.type).toMatch(/\/access-denied$/);
      expect(response.body.data).toEqual({ reason: 'not_owner' });
    }
    const read = await call('GET', `/api/v2/cases/${toms.id}`, { token: dispatcher });
    expect(read.body).toMatchObject({ status: 'NEW', lock_version: 0 });
  });

  it('answers 404 for a case that does not exist', async () => {
    const tina = await fieldWorker('technician');

    const response = await patch(`/api/v2/cases/${randomUUID()}`, tina.token, { status: 'DONE' });

    expect(response.status).toBe(404);
  });

  it('refuses fields beyond the status with 403 naming them and cases:update', async () => {
    // Prepare
    const tina = await fieldWorker('technician');
    const job = await newCase({ assignee_id: tina.id });

    // Act
    const response = await patch(`/api/v2/cases/${job.id}`, tina.token, {
      status: 'DONE',
      title: 'Renamed by the technician',
      assignee_id: null,
    });

    // Assess
    expect(response.status).toBe(403);
    expect(response.body.data).toEqual({
      reason: 'missing_grant',
      required_grants: ['cases:update'],
      fields: ['title', 'assignee_id'],
    });
    expect(response.body.detail).toContain('`title` and `assignee_id` need cases:update');
    const read = await call('GET', `/api/v2/cases/${job.id}`, { token: dispatcher });
    expect(read.body).toMatchObject({
      status: 'NEW',
      title: job.title,
      assignee_id: tina.id,
      lock_version: 0,
    });
  });

  it.each(['NEW', 'SCHEDULED', 'CANCELLED'])(
    'leaves planning to dispatch: a technician setting %s gets 403 naming the status',
    async (status) => {
      // Prepare
      const tina = await fieldWorker('technician');
      const job = await newCase({ assignee_id: tina.id, status: 'IN_PROGRESS' });

      // Act
      const response = await patch(`/api/v2/cases/${job.id}`, tina.token, { status });

      // Assess
      expect(response.status).toBe(403);
      expect(response.body.data).toEqual({
        reason: 'missing_grant',
        required_grants: ['cases:update'],
        fields: ['status'],
      });
    },
  );

  it('accepts the current status sent back unchanged', async () => {
    const tina = await fieldWorker('technician');
    const job = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });

    const response = await patch(`/api/v2/cases/${job.id}`, tina.token, { status: 'SCHEDULED' });

    expect(response.status).toBe(200);
    expect(response.body.status).toBe('SCHEDULED');
  });

  it('still lets a dispatcher change any field of any case', async () => {
    const tina = await fieldWorker('technician');
    const job = await newCase({ assignee_id: tina.id });

    const response = await patch(`/api/v2/cases/${job.id}`, dispatcher, {
      title: 'Re-planned',
      status: 'CANCELLED',
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: 'Re-planned', status: 'CANCELLED' });
  });
});

describe('Field work: tours', () => {
  it('lets a driver start and finish the tour it drives', async () => {
    // Prepare
    const dirk = await fieldWorker('driver');
    const tour = await newTour({ driver_id: dirk.id });

    // Act
    const started = await patch(`/api/v2/tours/${tour.id}`, dirk.token, {
      status: 'IN_PROGRESS',
      lock_version: 0,
    });
    const done = await patch(`/api/v2/tours/${tour.id}`, dirk.token, { status: 'DONE' });

    // Assess
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: 'IN_PROGRESS', lock_version: 1 });
    expect(done.body).toMatchObject({ status: 'DONE', lock_version: 2 });
  });

  it("refuses a driver another driver's tour with 403 not_owner", async () => {
    const [dirk, dana] = await Promise.all([fieldWorker('driver'), fieldWorker('driver')]);
    const danas = await newTour({ driver_id: dana.id });

    const response = await patch(`/api/v2/tours/${danas.id}`, dirk.token, { status: 'IN_PROGRESS' });

    expect(response.status).toBe(403);
    expect(response.body.data).toEqual({ reason: 'not_owner' });
  });

  it('refuses a driver re-planning its tour: other fields and CANCELLED are 403 naming them', async () => {
    // Prepare
    const dirk = await fieldWorker('driver');
    const tour = await newTour({ driver_id: dirk.id });

    // Act
    const [replanned, cancelled] = await Promise.all([
      patch(`/api/v2/tours/${tour.id}`, dirk.token, { status: 'IN_PROGRESS', stops: [], date: '2026-06-12' }),
      patch(`/api/v2/tours/${tour.id}`, dirk.token, { status: 'CANCELLED' }),
    ]);

    // Assess
    expect(replanned.status).toBe(403);
    expect(replanned.body.data).toEqual({
      reason: 'missing_grant',
      required_grants: ['tours:update'],
      fields: ['date', 'stops'],
    });
    expect(cancelled.status).toBe(403);
    expect(cancelled.body.data).toMatchObject({ reason: 'missing_grant', fields: ['status'] });
    const read = await call('GET', `/api/v2/tours/${tour.id}`, { token: dispatcher });
    expect(read.body).toMatchObject({ status: 'PLANNED', lock_version: 0 });
  });
});

describe('Field work: vehicle locations', () => {
  it('lets a driver report the vehicle of its tour while the tour is IN_PROGRESS, and only then', async () => {
    // Prepare
    const dirk = await fieldWorker('driver');
    const [van, otherVan] = await Promise.all([newVehicle(), newVehicle()]);
    const tour = await newTour({ driver_id: dirk.id, vehicle_id: van.id });

    // Act
    const beforeStart = await report(van.id, dirk.token);
    await patch(`/api/v2/tours/${tour.id}`, dirk.token, { status: 'IN_PROGRESS' });
    const onTheRoad = await report(van.id, dirk.token);
    const anotherVan = await report(otherVan.id, dirk.token);
    await patch(`/api/v2/tours/${tour.id}`, dirk.token, { status: 'DONE' });
    const afterwards = await report(van.id, dirk.token);

    // Assess
    expect(onTheRoad.status, onTheRoad.text).toBe(200);
    expect(onTheRoad.body.location).toMatchObject({ latitude: 52.5602, longitude: 13.2877 });
    for (const refused of [beforeStart, anotherVan, afterwards]) {
      expect(refused.status).toBe(403);
      expect(refused.body.data).toEqual({ reason: 'not_owner' });
    }
  });

  it('lets a technician who drives a tour report its vehicle too', async () => {
    const tina = await fieldWorker('technician');
    const van = await newVehicle();
    await newTour({ driver_id: tina.id, vehicle_id: van.id, status: 'IN_PROGRESS' });

    const response = await report(van.id, tina.token);

    expect(response.status, response.text).toBe(200);
  });

  it("refuses a driver the vehicle of someone else's tour in progress, and answers 404 for no vehicle", async () => {
    const [dirk, dana] = await Promise.all([fieldWorker('driver'), fieldWorker('driver')]);
    const van = await newVehicle();
    await newTour({ driver_id: dana.id, vehicle_id: van.id, status: 'IN_PROGRESS' });

    const [others, missing] = await Promise.all([
      report(van.id, dirk.token),
      report(randomUUID(), dirk.token),
    ]);

    expect(others.status).toBe(403);
    expect(others.body.data).toEqual({ reason: 'not_owner' });
    expect(missing.status).toBe(404);
  });
});

describe('Field work: the API reference', () => {
  it('says who may change what on cases, tours and vehicle locations', async () => {
    const document = (await call('GET', '/api/v2/openapi.json')).body;

    const caseUpdate = document.paths['/api/v2/cases/{case_id}'].patch;
    const tourUpdate = document.paths['/api/v2/tours/{tour_id}'].patch;
    const location = document.paths['/api/v2/vehicles/{vehicle_id}/location'].put;

    expect(caseUpdate['x-required-grants']).toEqual(['cases:update:own']);
    expect(caseUpdate.description).toContain('not_owner');
    expect(caseUpdate.description).toContain('`IN_PROGRESS`, `ON_HOLD` or `DONE`');
    expect(tourUpdate['x-required-grants']).toEqual(['tours:update:own']);
    expect(location['x-required-grants']).toEqual(['vehicles:location:update:own']);
    expect(location.description).toContain('IN_PROGRESS');
  });
});
