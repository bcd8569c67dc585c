/**
 * Cases (work orders) over HTTP in the seeded workspace "Case Works": create, read, merge-patch
 * update, delete, references that must name records of the workspace, the scheduled window,
 * lock_version, grants, "technicians and drivers read theirs", tenancy and the events each
 * change records.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, eventually, problemType, tokenFor } from '../support/api.ts';
import { tokenOfUser, userIdByEmail } from '../support/users.ts';

let admin: string;
let dispatcher: string;
let technicianClient: string;
let driverClient: string;
let beta: string;
let area: { id: string };
let tina: string;
let tom: string;
let dirk: string;
let tinaToken: string;
let dirkToken: string;

beforeAll(async () => {
  [admin, dispatcher, technicianClient, driverClient, beta] = await Promise.all([
    tokenFor('cases-admin'),
    tokenFor('cases-dispatcher'),
    tokenFor('cases-technician'),
    tokenFor('cases-driver'),
    tokenFor('beta-admin'),
  ]);
  [tina, tom, dirk] = await Promise.all([
    userIdByEmail(admin, 'tina.tech@cases.test'),
    userIdByEmail(admin, 'tom.tech@cases.test'),
    userIdByEmail(admin, 'dirk.driver@cases.test'),
  ]);
  tinaToken = tokenOfUser(admin, tina);
  dirkToken = tokenOfUser(admin, dirk);
  const created = await call('POST', '/api/v2/areas', {
    token: admin,
    body: { name: 'Pankow', color: '#3366ff' },
  });
  expect(created.status).toBe(201);
  area = created.body;
});

const newCase = (overrides: Record<string, unknown> = {}) => ({
  title: `Boiler service ${randomUUID().slice(0, 8)}`,
  ...overrides,
});

async function createCase(overrides: Record<string, unknown> = {}, token = admin) {
  const response = await call('POST', '/api/v2/cases', { token, body: newCase(overrides) });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const window = { scheduled_start: '2026-03-04T08:00:00Z', scheduled_end: '2026-03-04T10:00:00Z' };

/** What a case without optional values answers: duration and schedule_lock always (PT1H and NONE unless set). */
const alwaysAnswered = [
  'created_at',
  'duration',
  'id',
  'lock_version',
  'priority',
  'schedule_lock',
  'status',
  'title',
  'updated_at',
].sort();

describe('Cases: create', () => {
  it('answers 201 with the full case, its defaults, lock_version 0 and an absolute Location', async () => {
    // Act
    const response = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: {
        title: 'Annual boiler service',
        description: 'Gas boiler in the basement.',
        external_id: 'SAP-4711',
        area_id: area.id.toUpperCase(),
        assignee_id: tina,
        scheduled_start: '2026-03-04T09:00:00+01:00',
        scheduled_end: '2026-03-04T11:00:00+01:00',
        address: { street: 'Florastraße 12', postal_code: '13187', city: 'Berlin', country: 'de' },
        location: { latitude: 52.5638, longitude: 13.4107 },
      },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Annual boiler service',
      description: 'Gas boiler in the basement.',
      status: 'NEW',
      priority: 'NORMAL',
      external_id: 'SAP-4711',
      area_id: area.id,
      assignee_id: tina,
      scheduled_start: '2026-03-04T08:00:00.000Z',
      scheduled_end: '2026-03-04T10:00:00.000Z',
      address: { street: 'Florastraße 12', postal_code: '13187', city: 'Berlin', country: 'DE' },
      location: { latitude: 52.5638, longitude: 13.4107 },
      duration: 'PT1H',
      schedule_lock: 'NONE',
      lock_version: 0,
      created_at: expect.stringMatching(/Z$/),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/cases/${response.body.id}`);
    // created_at is the instant of the (UUIDv7) id.
    expect(Date.parse(response.body.created_at)).toBe(
      Number.parseInt(response.body.id.replace(/-/g, '').slice(0, 12), 16),
    );
  });

  it('omits absent optional values instead of sending null', async () => {
    const created = await createCase({ address: {} });

    expect(Object.keys(created).sort()).toEqual(alwaysAnswered);
  });

  it.each([
    { title: 'missing title', body: { description: 'x' }, type: 'field-required', pointer: '#/title' },
    { title: 'null title', body: { title: null }, type: 'field-required', pointer: '#/title' },
    { title: 'blank title', body: { title: '  ' }, type: 'field-required', pointer: '#/title' },
    {
      title: 'title of 256 characters',
      body: { title: 'x'.repeat(256) },
      type: 'validation-failed',
      pointer: '#/title',
    },
    {
      title: 'unknown status',
      body: { title: 'x', status: 'OPEN' },
      type: 'validation-failed',
      pointer: '#/status',
    },
    {
      title: 'null priority',
      body: { title: 'x', priority: null },
      type: 'field-required',
      pointer: '#/priority',
    },
    { title: 'number as title', body: { title: 5 }, type: 'field-type-invalid', pointer: '#/title' },
    {
      title: 'end before start',
      body: { title: 'x', scheduled_start: '2026-03-04T10:00:00Z', scheduled_end: '2026-03-04T08:00:00Z' },
      type: 'validation-failed',
      pointer: '#/scheduled_end',
    },
    {
      title: 'end equal to start',
      body: {
        title: 'x',
        scheduled_start: '2026-03-04T10:00:00Z',
        scheduled_end: '2026-03-04T11:00:00+01:00',
      },
      type: 'validation-failed',
      pointer: '#/scheduled_end',
    },
    {
      title: 'a start without end',
      body: { title: 'x', scheduled_start: '2026-03-04T10:00:00Z' },
      type: 'field-required',
      pointer: '#/scheduled_end',
    },
    {
      title: 'country that is no ISO 3166-1 code',
      body: { title: 'x', address: { country: 'Germany' } },
      type: 'validation-failed',
      pointer: '#/address/country',
    },
    {
      title: 'longitude out of range',
      body: { title: 'x', location: { latitude: 0, longitude: 180.5 } },
      type: 'validation-failed',
      pointer: '#/location/longitude',
    },
    {
      title: 'unknown area',
      body: { title: 'x', area_id: randomUUID() },
      type: 'validation-failed',
      pointer: '#/area_id',
    },
    {
      title: 'unknown assignee',
      body: { title: 'x', assignee_id: randomUUID() },
      type: 'validation-failed',
      pointer: '#/assignee_id',
    },
  ])('rejects $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const response = await call('POST', '/api/v2/cases', { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer })]);
  });

  it('rejects references to an area and a user of another workspace, and to a service account', async () => {
    // Prepare
    const foreignArea = await call('POST', '/api/v2/areas', {
      token: beta,
      body: { name: 'Foreign', color: '#fff' },
    });
    const betaUsers = await call('GET', '/api/v2/users?size=1', { token: beta });
    const serviceAccount = (await call('GET', '/api/v2/me', { token: technicianClient })).body.id;

    // Act
    const foreign = await call('POST', '/api/v2/cases', {
      token: admin,
      body: newCase({ area_id: foreignArea.body.id, assignee_id: betaUsers.body.items[0].id }),
    });
    const service = await call('POST', '/api/v2/cases', {
      token: admin,
      body: newCase({ assignee_id: serviceAccount }),
    });

    // Assess
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '#/area_id',
      '#/assignee_id',
    ]);
    expect(service.status).toBe(422);
    expect(service.body.errors[0].pointer).toBe('#/assignee_id');
  });

  it('rejects a deactivated user as assignee', async () => {
    // Prepare
    const user = await call('POST', '/api/v2/users', {
      token: admin,
      body: {
        email: `leaver-${randomUUID().slice(0, 8)}@cases.test`,
        firstname: 'Lea',
        lastname: 'Leaver',
        role_ids: [
          (await call('GET', '/api/v2/roles', { token: admin })).body.items.find(
            (r: any) => r.name === 'technician',
          ).id,
        ],
      },
    });
    await call('POST', `/api/v2/users/${user.body.id}/deactivate`, { token: admin });

    // Act
    const response = await call('POST', '/api/v2/cases', {
      token: admin,
      body: newCase({ assignee_id: user.body.id }),
    });

    // Assess
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: '#/assignee_id' })]);
  });
});

describe('Cases: read', () => {
  it('returns the case by id, in any letter case', async () => {
    const created = await createCase({ priority: 'URGENT' });

    const response = await call('GET', `/api/v2/cases/${created.id.toUpperCase()}`, { token: dispatcher });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
  });

  it('answers 404 not-found for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const response = await call('GET', `/api/v2/cases/${id}`, { token: admin });
      expect(response.status).toBe(404);
      expect(response.body.type).toEqual(problemType('not-found'));
    }
  });

  it('never shows a case of another workspace, which looks exactly like a missing one', async () => {
    const created = await createCase();

    const read = await call('GET', `/api/v2/cases/${created.id}`, { token: beta });
    const patch = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: beta,
      body: { title: 'stolen' },
    });
    const remove = await call('DELETE', `/api/v2/cases/${created.id}`, { token: beta });
    const list = await call('GET', '/api/v2/cases?size=100', { token: beta });

    expect([read.status, patch.status, remove.status]).toEqual([404, 404, 404]);
    expect(list.body.items.map((c: { id: string }) => c.id)).not.toContain(created.id);
    expect((await call('GET', `/api/v2/cases/${created.id}`, { token: admin })).body.title).toBe(
      created.title,
    );
  });
});

describe('Cases: update (JSON Merge Patch)', () => {
  it('changes only the fields sent and increments lock_version', async () => {
    const created = await createCase({ description: 'keep me', ...window });

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { status: 'SCHEDULED', priority: 'HIGH' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...created,
      status: 'SCHEDULED',
      priority: 'HIGH',
      lock_version: 1,
      updated_at: expect.any(String),
    });
    expect(response.body.updated_at > created.updated_at).toBe(true);
  });

  it('clears clearable fields with null', async () => {
    const created = await createCase({
      description: 'temporary',
      external_id: 'ERP-1',
      area_id: area.id,
      assignee_id: tina,
      ...window,
      address: { city: 'Berlin' },
      location: { latitude: 1, longitude: 2 },
    });

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: {
        description: null,
        external_id: null,
        area_id: null,
        assignee_id: null,
        scheduled_start: null,
        scheduled_end: null,
        address: null,
        location: null,
      },
    });

    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(alwaysAnswered);
  });

  it('merges address and location line by line', async () => {
    const created = await createCase({
      address: { street: 'Florastraße 12', postal_code: '13187', city: 'Berlin', country: 'DE' },
      location: { latitude: 52.5, longitude: 13.4 },
    });

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { address: { street: 'Florastraße 14', postal_code: null }, location: { longitude: 13.5 } },
    });

    expect(response.status).toBe(200);
    expect(response.body.address).toEqual({ street: 'Florastraße 14', city: 'Berlin', country: 'DE' });
    expect(response.body.location).toEqual({ latitude: 52.5, longitude: 13.5 });
  });

  it('checks the scheduled window on the merged case', async () => {
    const created = await createCase(window);

    const before = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { scheduled_end: '2026-03-04T07:00:00Z' },
    });
    const half = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { scheduled_start: null },
    });
    const moved = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { scheduled_start: '2026-03-04T09:30:00Z' },
    });

    expect(before.status).toBe(422);
    expect(before.body.errors).toEqual([expect.objectContaining({ pointer: '#/scheduled_end' })]);
    expect(half.status).toBe(422);
    expect(half.body.errors).toEqual([
      expect.objectContaining({
        pointer: '#/scheduled_start',
        type: expect.stringMatching(/field-required$/),
      }),
    ]);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ scheduled_start: '2026-03-04T09:30:00.000Z', lock_version: 1 });
  });

  it('needs both coordinates after the merge', async () => {
    const created = await createCase();

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { location: { latitude: 52.5 } },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: '#/location/longitude' })]);
  });

  it('checks references only when they are sent', async () => {
    // Prepare
    const doomed = await call('POST', '/api/v2/areas', {
      token: admin,
      body: { name: 'Doomed', color: '#000' },
    });
    const created = await createCase({ area_id: doomed.body.id });
    await call('DELETE', `/api/v2/areas/${doomed.body.id}`, { token: admin });

    // Act
    const other = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { title: 'Renamed' },
    });
    const again = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { area_id: doomed.body.id },
    });
    const reassigned = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { assignee_id: tom },
    });

    // Assess
    expect(other.status).toBe(200);
    expect(other.body.area_id).toBe(doomed.body.id);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([expect.objectContaining({ pointer: '#/area_id' })]);
    expect(reassigned.status).toBe(200);
    expect(reassigned.body.assignee_id).toBe(tom);
  });

  it.each([
    { title: 'null title', body: { title: null }, type: 'field-required', pointer: '#/title' },
    { title: 'null status', body: { status: null }, type: 'field-required', pointer: '#/status' },
    {
      title: 'blank description',
      body: { description: ' ' },
      type: 'field-required',
      pointer: '#/description',
    },
    {
      title: 'unknown priority',
      body: { priority: 'CRITICAL' },
      type: 'validation-failed',
      pointer: '#/priority',
    },
    {
      title: 'string as lock_version',
      body: { lock_version: '0' },
      type: 'field-type-invalid',
      pointer: '#/lock_version',
    },
  ])('rejects $title with 422 $type and changes nothing', async ({ body, type, pointer }) => {
    const created = await createCase({ description: 'unchanged' });

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors[0].pointer).toBe(pointer);
    expect((await call('GET', `/api/v2/cases/${created.id}`, { token: admin })).body).toEqual(created);
  });

  it('accepts application/json as an alias of application/merge-patch+json', async () => {
    const created = await createCase();

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { priority: 'LOW' },
      contentType: 'application/json',
    });

    expect(response.status).toBe(200);
    expect(response.body.priority).toBe('LOW');
  });

  it('writes when lock_version matches and answers 409 resource-conflict when it is stale', async () => {
    const created = await createCase();

    const first = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { title: 'A', lock_version: 0 },
    });
    const stale = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { title: 'B', lock_version: 0 },
    });
    const blind = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { title: 'C', lock_version: null },
    });

    expect(first.status).toBe(200);
    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
    expect(blind.status).toBe(200);
    expect(blind.body).toMatchObject({ title: 'C', lock_version: 2 });
  });

  it('answers 404 for an unknown case', async () => {
    const response = await call('PATCH', `/api/v2/cases/${randomUUID()}`, {
      token: admin,
      body: { title: 'x' },
    });

    expect(response.status).toBe(404);
  });
});

describe('Cases: schedule locks', () => {
  it('locks what a case has, refuses a lock without it (422 at #/schedule_lock) and a write taking it away (422 at the field)', async () => {
    const open = await createCase();
    const assigned = await createCase({ assignee_id: tina, ...window });

    const noAssignee = await call('PATCH', `/api/v2/cases/${open.id}`, {
      token: dispatcher,
      body: { schedule_lock: 'ASSIGNEE' },
    });
    const noStart = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: newCase({ assignee_id: tina, schedule_lock: 'ASSIGNEE_AND_TIME' }),
    });
    const locked = await call('PATCH', `/api/v2/cases/${assigned.id}`, {
      token: dispatcher,
      body: { schedule_lock: 'ASSIGNEE_AND_TIME' },
    });
    const unassigned = await call('PATCH', `/api/v2/cases/${assigned.id}`, {
      token: dispatcher,
      body: { assignee_id: null, scheduled_start: null, scheduled_end: null },
    });
    const cleared = await call('PATCH', `/api/v2/cases/${assigned.id}`, {
      token: dispatcher,
      body: { schedule_lock: null },
    });
    const unlocked = await call('PATCH', `/api/v2/cases/${assigned.id}`, {
      token: dispatcher,
      body: { schedule_lock: 'NONE', assignee_id: null },
    });

    expect(noAssignee.status, noAssignee.text).toBe(422);
    expect(noAssignee.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/schedule_lock']);
    expect(noStart.status, noStart.text).toBe(422);
    expect(noStart.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/schedule_lock']);
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body.schedule_lock).toBe('ASSIGNEE_AND_TIME');
    expect(unassigned.status, unassigned.text).toBe(422);
    expect(unassigned.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/assignee_id',
      '#/scheduled_start',
    ]);
    expect(cleared.status).toBe(422);
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.body).toMatchObject({ schedule_lock: 'NONE' });
    expect(unlocked.body.assignee_id).toBeUndefined();
  });
});

describe('Cases: delete', () => {
  it('answers 204 without body, and 404 afterwards', async () => {
    const created = await createCase();

    const removed = await call('DELETE', `/api/v2/cases/${created.id}`, { token: dispatcher });
    const again = await call('DELETE', `/api/v2/cases/${created.id}`, { token: dispatcher });
    const read = await call('GET', `/api/v2/cases/${created.id}`, { token: dispatcher });

    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect([again.status, read.status]).toEqual([404, 404]);
  });
});

describe('Cases: grants', () => {
  it.each([
    ['technician', () => technicianClient],
    ['driver', () => driverClient],
  ])(
    'lets a %s read but not create, delete or edit a case beyond its status, naming cases:update',
    async (_role, token) => {
      const created = await createCase();

      const writes = await Promise.all([
        call('POST', '/api/v2/cases', { token: token(), body: newCase() }),
        call('PATCH', `/api/v2/cases/${created.id}`, { token: token(), body: { title: 'x' } }),
        call('DELETE', `/api/v2/cases/${created.id}`, { token: token() }),
      ]);
      const list = await call('GET', '/api/v2/cases', { token: token() });

      for (const response of writes) {
        expect(response.status).toBe(403);
        expect(response.body.data).toMatchObject({
          reason: 'missing_grant',
          required_grants: ['cases:update'],
        });
      }
      expect(list.status).toBe(200);
    },
  );

  it('answers 401 without a token', async () => {
    expect((await call('GET', '/api/v2/cases')).status).toBe(401);
  });
});

describe('Cases: technicians and drivers read theirs', () => {
  it('shows a technician only the cases assigned to it, in list and read', async () => {
    // Prepare
    const mine = await createCase({ assignee_id: tina });
    const toms = await createCase({ assignee_id: tom });
    const nobodys = await createCase();

    // Act
    const list = await call('GET', '/api/v2/cases?size=100', { token: tinaToken });
    const own = await call('GET', `/api/v2/cases/${mine.id}`, { token: tinaToken });
    const others = await Promise.all(
      [toms, nobodys].map((c) => call('GET', `/api/v2/cases/${c.id}`, { token: tinaToken })),
    );
    const asked = await call('GET', `/api/v2/cases?assignee_id=${tom}`, { token: tinaToken });

    // Assess
    const ids = list.body.items.map((c: { id: string }) => c.id);
    expect(ids).toContain(mine.id);
    expect(list.body.items.every((c: { assignee_id: string }) => c.assignee_id === tina)).toBe(true);
    expect(list.body.page.total_elements).toBe(ids.length);
    expect(own.status).toBe(200);
    expect(others.map((r) => r.status)).toEqual([404, 404]);
    expect(asked.body).toEqual({
      items: [],
      page: { size: 20, total_elements: 0, total_pages: 0, number: 0 },
    });
  });

  it('shows a driver its own cases, and a field-work service account none', async () => {
    const dirks = await createCase({ assignee_id: dirk });

    const driver = await call('GET', '/api/v2/cases', { token: dirkToken });
    const service = await call('GET', '/api/v2/cases', { token: technicianClient });

    expect(driver.body.items.map((c: { id: string }) => c.id)).toEqual([dirks.id]);
    expect(service.body.items).toEqual([]);
    expect(service.body.page.total_elements).toBe(0);
  });

  it('shows a dispatcher every case', async () => {
    const toms = await createCase({ assignee_id: tom });

    const read = await call('GET', `/api/v2/cases/${toms.id}`, { token: dispatcher });

    expect(read.status).toBe(200);
  });
});

describe('Cases: events', () => {
  it('records case.created, case.updated with the changed keys and case.deleted, the case as object', async () => {
    // Act
    const created = await createCase({ external_id: 'ERP-1' });
    await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: admin,
      body: { external_id: 'ERP-2', priority: 'HIGH' },
    });
    await call('DELETE', `/api/v2/cases/${created.id}`, { token: admin });

    // Assess
    const entries = await eventually(async () => {
      const response = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = response.body.items.filter(
        (e: { resource: { id: string } }) => e.resource.id === created.id,
      );
      expect(found).toHaveLength(3);
      return found;
    });
    expect(entries.map((e: { event_type: string }) => e.event_type)).toEqual([
      'case.deleted',
      'case.updated',
      'case.created',
    ]);
    expect(entries[2].resource).toEqual({ type: 'case', id: created.id });
    expect(entries[2].data.object).toEqual(created);
    expect(entries[1].data.previous_attributes).toEqual({ external_id: 'ERP-1', priority: 'NORMAL' });
    expect(entries[1].data.object).toMatchObject({ external_id: 'ERP-2', priority: 'HIGH', lock_version: 1 });
  });

  it('offers case.created, case.updated and case.deleted to webhook subscriptions', async () => {
    const response = await call('GET', '/api/v2/webhooks/event-types', { token: admin });

    const types = response.body.items.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['case.created', 'case.updated', 'case.deleted']));
  });
});
