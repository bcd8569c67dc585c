/**
 * Devices over HTTP, in the Fleet Works workspace: the registry's field rules, lifecycle, setup
 * codes and SMS, intake secrets, telemetry intake and current state, the list's filters and the
 * bounding box, deletion of the telemetry history, events, grants and workspace isolation.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { adminToken, clientCredentialsToken } from '../support/admin.ts';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';
import { createUser } from '../support/users.ts';

let admin: string;
let dispatcher: string;
let technician: string;
let beta: string;
let workspaceId: string;

beforeAll(async () => {
  [admin, dispatcher, technician, beta] = await Promise.all([
    tokenFor('fleet-admin'),
    tokenFor('fleet-dispatcher'),
    tokenFor('fleet-technician'),
    tokenFor('beta-admin'),
  ]);
  workspaceId = JSON.parse(Buffer.from(dispatcher.split('.')[1] ?? '', 'base64url').toString()).tenant_id;
});

/** A workspace of its own, made through the admin plane, with an admin client's token. */
async function throwawayWorkspace() {
  const admin = await adminToken();
  const created = await call('POST', '/admin-v1/workspaces', {
    token: admin,
    body: {
      name: `Devices ${randomUUID().slice(0, 8)}`,
      owner: { email: `owner-${randomUUID().slice(0, 8)}@devices.test`, firstname: 'Dev', lastname: 'Owner' },
    },
  });
  expect(created.status, created.text).toBe(201);
  const client = await call('POST', `/admin-v1/workspaces/${created.body.id}/clients`, {
    token: admin,
    body: { roles: ['admin'] },
  });
  expect(client.status, client.text).toBe(201);
  const token = await clientCredentialsToken(
    created.body.realm,
    client.body.client_id,
    client.body.client_secret,
  );
  return { id: created.body.id as string, token, admin };
}

/** A word no other test uses, for models and searches. */
const unique = () => `u${randomUUID().slice(0, 8)}`;

async function createDevice(body: Record<string, unknown> = {}, token = dispatcher) {
  const response = await call('POST', '/api/v2/devices', { token, body });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

async function secretOf(deviceId: string): Promise<string> {
  const response = await call('POST', `/api/v2/devices/${deviceId}/setup-codes`, { token: dispatcher });
  expect(response.status, response.text).toBe(200);
  return response.body.payload.intake_secret as string;
}

const intake = (deviceId: string, secret: string | undefined, body: unknown) =>
  call('POST', `/api/v2/device-intake/${deviceId}`, {
    body,
    ...(secret === undefined ? {} : { headers: { authorization: `Bearer ${secret}` } }),
  });

/** A device with a secret that reported `location` (recorded now unless given). */
async function locatedDevice(latitude: number, longitude: number, body: Record<string, unknown> = {}) {
  const device = await createDevice({ kind: 'TRACKING_DEVICE', ...body });
  const secret = await secretOf(device.id);
  const response = await intake(device.id, secret, { location: { latitude, longitude } });
  expect(response.status, response.text).toBe(202);
  return { device, secret };
}

const ids = (response: { body: { items: Array<{ id: string }> } }) =>
  response.body.items.map((item) => item.id);
const pointerOf = (response: { body: { errors?: Array<{ pointer: string }> } }) =>
  response.body.errors?.map((error) => error.pointer);

describe('Devices: registry', () => {
  it('creates with defaults: SERVICE_APP, UNKNOWN platform, PROVISIONED, increasing natural_id, absolute Location', async () => {
    const first = await call('POST', '/api/v2/devices', { token: dispatcher, body: {} });
    const second = await createDevice({ kind: 'TRACKING_DEVICE' });

    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toMatch(
      new RegExp(`^https?://[^/]+/api/v2/devices/${first.body.id}$`),
    );
    expect(first.body).toMatchObject({
      kind: 'SERVICE_APP',
      platform: 'UNKNOWN',
      provisioning_state: 'PROVISIONED',
      has_location: false,
      lock_version: 0,
    });
    expect(first.body).not.toHaveProperty('current_state');
    expect(second.natural_id).toBeGreaterThan(first.body.natural_id);
  });

  it('never assigns one natural_id twice, also under concurrent creates', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, () => createDevice()));
    const numbers = created.map((device) => device.natural_id);
    expect(new Set(numbers).size).toBe(12);
  });

  it('refuses provisioning_state and natural_id on create and update with 422 naming the field', async () => {
    const create = await call('POST', '/api/v2/devices', {
      token: dispatcher,
      body: { provisioning_state: 'DISABLED' },
    });
    const device = await createDevice();
    const update = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { natural_id: 7 },
    });

    expect(create.status).toBe(422);
    expect(pointerOf(create)).toEqual(['#/provisioning_state']);
    expect(update.status).toBe(422);
    expect(pointerOf(update)).toEqual(['#/natural_id']);
  });

  it('enforces every length limit and the enums', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ device_model: 'm'.repeat(129) }, '#/device_model'],
      [{ device_identity_id: 'i'.repeat(256) }, '#/device_identity_id'],
      [{ connection_profile: 'c'.repeat(129) }, '#/connection_profile'],
      [{ description: 'd'.repeat(2049) }, '#/description'],
      [{ kind: 'DRONE' }, '#/kind'],
      [{ platform: 'WINDOWS' }, '#/platform'],
    ];
    for (const [body, pointer] of cases) {
      const response = await call('POST', '/api/v2/devices', { token: dispatcher, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(pointerOf(response)).toEqual([pointer]);
    }
    const longest = await call('POST', '/api/v2/devices', {
      token: dispatcher,
      body: {
        device_model: 'm'.repeat(128),
        device_identity_id: 'i'.repeat(255),
        description: 'd'.repeat(2048),
      },
    });
    expect(longest.status).toBe(201);
  });

  it('normalises phone numbers to E.164 and refuses national numbers', async () => {
    const device = await createDevice({ phone_number: '+49 (151) 1234-5678' });
    const national = await call('POST', '/api/v2/devices', {
      token: dispatcher,
      body: { phone_number: '0151 12345678' },
    });

    expect(device.phone_number).toBe('+4915112345678');
    expect(national.status).toBe(422);
    expect(pointerOf(national)).toEqual(['#/phone_number']);
  });

  it('merge-patches: null clears the clearable strings, null kind or platform is 422, blank is field-required', async () => {
    const device = await createDevice({
      device_model: 'Coban TK103',
      connection_profile: 'gt06',
      phone_number: '+4915112345678',
      description: 'spare unit',
    });
    const cleared = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { device_model: null, connection_profile: null, phone_number: null, description: null },
    });
    const nullKind = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { kind: null },
    });
    const nullPlatform = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { platform: null },
    });
    const blank = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { device_model: '  ' },
    });

    expect(cleared.status).toBe(200);
    for (const field of ['device_model', 'connection_profile', 'phone_number', 'description']) {
      expect(cleared.body).not.toHaveProperty(field);
    }
    expect(cleared.body.lock_version).toBe(1);
    expect(nullKind.status).toBe(422);
    expect(pointerOf(nullKind)).toEqual(['#/kind']);
    expect(nullPlatform.status).toBe(422);
    expect(blank.status).toBe(422);
    expect(blank.body.type).toEqual(problemType('field-required'));
  });

  it('fixes device_identity_id once set: the same value passes, another or null is 422', async () => {
    const device = await createDevice();
    const set = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { device_identity_id: '356307042441013' },
    });
    const same = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { device_identity_id: '356307042441013', description: 'ok' },
    });
    const other = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { device_identity_id: '356307042441014' },
    });
    const cleared = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { device_identity_id: null },
    });

    expect(set.status).toBe(200);
    expect(same.status).toBe(200);
    expect(other.status).toBe(422);
    expect(pointerOf(other)).toEqual(['#/device_identity_id']);
    expect(cleared.status).toBe(422);
  });

  it('names the vehicle and the user a device speaks for, refusing ones of no workspace of its own with 422', async () => {
    // Prepare
    const van = await call('POST', '/api/v2/vehicles', {
      token: dispatcher,
      body: { name: `Van ${randomUUID().slice(0, 6)}` },
    });
    const me = { body: await createUser(admin) };
    expect(van.status).toBe(201);

    // Act
    const tracker = await createDevice({ kind: 'TRACKING_DEVICE', vehicle_id: van.body.id });
    const phone = await createDevice({ user_id: me.body.id });
    const foreign = await call('POST', '/api/v2/devices', {
      token: dispatcher,
      body: { vehicle_id: randomUUID(), user_id: randomUUID() },
    });
    const cleared = await call('PATCH', `/api/v2/devices/${tracker.id}`, {
      token: dispatcher,
      body: { vehicle_id: null },
    });

    // Assess
    expect(tracker.vehicle_id).toBe(van.body.id);
    expect(phone.user_id).toBe(me.body.id);
    expect(foreign.status).toBe(422);
    expect(pointerOf(foreign)?.sort()).toEqual(['#/user_id', '#/vehicle_id']);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).not.toHaveProperty('vehicle_id');
  });

  it('answers 409 resource-conflict for a stale lock_version', async () => {
    const device = await createDevice();
    const stale = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { description: 'x', lock_version: 5 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
  });

  it('lets technicians read but not write devices', async () => {
    const device = await createDevice();
    const read = await call('GET', `/api/v2/devices/${device.id}`, { token: technician });
    const write = await call('POST', '/api/v2/devices', { token: technician, body: {} });
    const setup = await call('POST', `/api/v2/devices/${device.id}/setup-codes`, { token: technician });

    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
    expect(write.body.data.required_grants).toEqual(['devices:update']);
    expect(setup.status).toBe(403);
  });

  it('deactivates and activates (PROVISIONED ↔ DISABLED), keeping the current state', async () => {
    const { device } = await locatedDevice(10, 10);
    const off = await call('POST', `/api/v2/devices/${device.id}/deactivate`, { token: dispatcher });
    const again = await call('POST', `/api/v2/devices/${device.id}/deactivate`, { token: dispatcher });
    const state = await call('GET', `/api/v2/devices/${device.id}/current-state`, { token: dispatcher });
    const on = await call('POST', `/api/v2/devices/${device.id}/activate`, { token: dispatcher });

    expect(off.status).toBe(200);
    expect(off.body.provisioning_state).toBe('DISABLED');
    expect(again.body.lock_version).toBe(off.body.lock_version);
    expect(state.body.location).toEqual({ latitude: 10, longitude: 10 });
    expect(on.body.provisioning_state).toBe('PROVISIONED');
  });

  it('records device.created, device.updated and device.deleted, and lists them in the event catalog', async () => {
    const device = await createDevice();
    await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: dispatcher,
      body: { description: 'moved' },
    });
    await call('DELETE', `/api/v2/devices/${device.id}`, { token: dispatcher });

    const types = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = (log.body.items as Array<{ event_type: string; resource: { id: string } }>)
        .filter((entry) => entry.resource.id === device.id)
        .map((entry) => entry.event_type);
      if (found.length < 3) throw new Error(`only ${found.join(', ')}`);
      return found;
    });
    const catalog = await call('GET', '/api/v2/webhooks/event-types', { token: admin });
    const names = JSON.stringify(catalog.body);

    expect(types.sort()).toEqual(['device.created', 'device.deleted', 'device.updated']);
    for (const name of ['device.created', 'device.updated', 'device.deleted']) expect(names).toContain(name);
  });
});

describe('Devices: setup and intake', () => {
  it('issues a setup payload per kind, never shown again in reads', async () => {
    const app = await createDevice({ kind: 'SERVICE_APP' });
    const thirdParty = await createDevice({ kind: 'THIRD_PARTY_APP' });
    const tracker = await createDevice({ kind: 'TRACKING_DEVICE', connection_profile: 'teltonika' });

    const codes = await Promise.all(
      [app, thirdParty, tracker].map((device) =>
        call('POST', `/api/v2/devices/${device.id}/setup-codes`, { token: dispatcher }),
      ),
    );
    const read = await call('GET', `/api/v2/devices/${tracker.id}?include=current_state`, {
      token: dispatcher,
    });

    expect(codes.map((code) => code.body.type)).toEqual([
      'ENROLLMENT_LINK',
      'INTAKE_URL',
      'CONNECTION_PROFILE',
    ]);
    for (const [index, code] of codes.entries()) {
      expect(code.body.device_id).toBe([app, thirdParty, tracker][index]?.id);
      expect(Date.parse(code.body.expires_at)).toBeGreaterThan(Date.now());
      expect(code.body.payload.intake_url).toMatch(/\/api\/v2\/device-intake\//);
    }
    expect(codes[0]?.body.payload.enrollment_link).toContain(app.id);
    expect(codes[2]?.body.payload).toMatchObject({ port: 5027 });
    expect(read.text).not.toContain(codes[2]?.body.payload.intake_secret);
  });

  it('accepts telemetry with the secret (202) and moves the current state', async () => {
    const device = await createDevice({ kind: 'THIRD_PARTY_APP' });
    const secret = await secretOf(device.id);
    const accepted = await intake(device.id, secret, {
      location: { latitude: 52.52, longitude: 13.405 },
      connectivity: 'ONLINE',
      battery_level: 77,
    });
    const state = await call('GET', `/api/v2/devices/${device.id}/current-state`, { token: technician });
    const embedded = await call('GET', `/api/v2/devices/${device.id}?include=current_state`, {
      token: technician,
    });

    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.body.has_updated_current_state).toBe(true);
    expect(state.body).toMatchObject({
      device_id: device.id,
      status: { connectivity: 'ONLINE' },
      location: { latitude: 52.52, longitude: 13.405 },
      battery_level: 77,
    });
    expect(Date.parse(state.body.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(embedded.body.current_state).toMatchObject({
      last_received_at: state.body.last_seen_at,
      location: { latitude: 52.52, longitude: 13.405 },
    });
    expect(embedded.body.has_location).toBe(true);
  });

  it('never moves the location backwards: an older report is history only', async () => {
    const device = await createDevice({ kind: 'TRACKING_DEVICE' });
    const secret = await secretOf(device.id);
    await intake(device.id, secret, {
      recorded_at: '2026-01-01T10:00:00Z',
      location: { latitude: 1, longitude: 1 },
    });
    const older = await intake(device.id, secret, {
      recorded_at: '2026-01-01T09:00:00Z',
      location: { latitude: 2, longitude: 2 },
    });
    const state = await call('GET', `/api/v2/devices/${device.id}/current-state`, { token: dispatcher });

    expect(older.status).toBe(202);
    expect(older.body.has_updated_current_state).toBe(false);
    expect(state.body.location).toEqual({ latitude: 1, longitude: 1 });
    expect(state.body.location_recorded_at).toBe('2026-01-01T10:00:00.000Z');
  });

  it('refuses a missing, malformed, wrong or foreign secret with 401, WWW-Authenticate and data.reason', async () => {
    const device = await createDevice({ kind: 'TRACKING_DEVICE' });
    const other = await createDevice({ kind: 'TRACKING_DEVICE' });
    const otherSecret = await secretOf(other.id);
    await secretOf(device.id);
    const userToken = await call('POST', `/api/v2/device-intake/${device.id}`, {
      token: dispatcher,
      body: {},
    });

    for (const [response, reason] of [
      [await intake(device.id, undefined, {}), 'token_missing'],
      [await intake(device.id, 'not-a-secret', {}), 'token_invalid'],
      [await intake(device.id, otherSecret, {}), 'token_invalid'],
      [await intake(randomUUID(), otherSecret, {}), 'token_invalid'],
      [userToken, 'token_invalid'],
    ] as const) {
      expect(response.status, response.text).toBe(401);
      expect(response.body.type).toEqual(problemType('authentication-required'));
      expect(response.body.data?.reason, response.text).toBe(reason);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('checks the secret before the body: a bad body without a valid secret is 401, with one 422', async () => {
    const device = await createDevice({ kind: 'TRACKING_DEVICE' });
    const secret = await secretOf(device.id);
    const stranger = await intake(device.id, 'x', { battery_level: 101 });
    const bad = await intake(device.id, secret, {
      battery_level: 101,
      location: { latitude: 91, longitude: 0 },
    });
    const future = await intake(device.id, secret, {
      recorded_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    const notJson = await call('POST', `/api/v2/device-intake/${device.id}`, {
      raw: '{',
      headers: { authorization: `Bearer ${secret}` },
    });

    expect(stranger.status).toBe(401);
    expect(bad.status).toBe(422);
    expect(pointerOf(bad)?.sort()).toEqual(['#/battery_level', '#/location/latitude']);
    expect(future.status).toBe(422);
    expect(pointerOf(future)).toEqual(['#/recorded_at']);
    expect(notJson.status).toBe(400);
  });

  it('refuses the previous secret once a new setup code or a rotation was issued', async () => {
    const device = await createDevice({ kind: 'TRACKING_DEVICE' });
    const first = await secretOf(device.id);
    const second = await secretOf(device.id);
    const withFirst = await intake(device.id, first, {});
    const withSecond = await intake(device.id, second, {});
    const again = await intake(device.id, second, {});
    const rotated = await call('POST', `/api/v2/devices/${device.id}/rotate-intake-secret`, {
      token: dispatcher,
    });
    const afterRotation = await intake(device.id, second, {});

    expect(withFirst.status).toBe(401);
    expect(withSecond.status).toBe(202);
    expect(again.status).toBe(202);
    expect(rotated.status).toBe(204);
    expect(rotated.text).toBe('');
    expect(afterRotation.status).toBe(401);
  });

  it('refuses intake of a deactivated device with 403 and accepts it again after activation', async () => {
    const device = await createDevice({ kind: 'TRACKING_DEVICE' });
    const secret = await secretOf(device.id);
    // A device that reported before is known to the intake: deactivation still counts at once.
    expect((await intake(device.id, secret, {})).status).toBe(202);
    await call('POST', `/api/v2/devices/${device.id}/deactivate`, { token: dispatcher });
    const refused = await intake(device.id, secret, {});
    await call('POST', `/api/v2/devices/${device.id}/activate`, { token: dispatcher });
    const accepted = await intake(device.id, secret, {});

    expect(refused.status).toBe(403);
    expect(refused.body.data.reason).toBe('resource_locked');
    expect(accepted.status).toBe(202);
  });

  it('refuses intake in a deactivated workspace with 403 tenant-disabled and in a billing-locked one with 402, like every workspace operation', async () => {
    // A workspace of its own: the seeded ones serve every other test.
    const workspace = await throwawayWorkspace();
    const created = await call('POST', '/api/v2/devices', {
      token: workspace.token,
      body: { kind: 'TRACKING_DEVICE' },
    });
    const codes = await call('POST', `/api/v2/devices/${created.body.id}/setup-codes`, {
      token: workspace.token,
    });
    const secret = codes.body.payload.intake_secret as string;
    const report = () => intake(created.body.id, secret, { connectivity: 'ONLINE' });
    const state = (action: string) =>
      call('POST', `/admin-v1/workspaces/${workspace.id}/${action}`, { token: workspace.admin });
    // A device that reported before is known to the intake: the workspace's state still counts at once.
    expect((await report()).status).toBe(202);

    await state('deactivate');
    const whileInactive = await report();
    const wrongSecret = await intake(created.body.id, 'not-the-secret', {});
    const apiWhileInactive = await call('GET', '/api/v2/devices', { token: workspace.token });
    await state('activate');
    const afterActivation = await report();
    await state('billing-lock');
    const whileLocked = await report();
    const apiWhileLocked = await call('GET', '/api/v2/devices', { token: workspace.token });
    await state('billing-unlock');
    const afterUnlock = await report();

    expect(whileInactive.status).toBe(403);
    expect(whileInactive.body).toMatchObject({
      type: problemType('tenant-disabled'),
      data: { reason: 'TENANT_INACTIVE' },
    });
    expect(whileInactive.body.data).toEqual(apiWhileInactive.body.data);
    // The credential is judged first: a caller without the secret learns nothing of the workspace.
    expect(wrongSecret.status).toBe(401);
    expect(afterActivation.status).toBe(202);
    expect(whileLocked.status).toBe(402);
    expect(whileLocked.body).toMatchObject({
      type: problemType('tenant-billing-locked'),
      data: { reason: 'BILLING_LOCKED' },
    });
    expect(whileLocked.body.data).toEqual(apiWhileLocked.body.data);
    expect(afterUnlock.status).toBe(202);
    const current = await call('GET', `/api/v2/devices/${created.body.id}/current-state`, {
      token: workspace.token,
    });
    expect(current.body.status).toMatchObject({ connectivity: 'ONLINE' });
  });

  it('sends a setup SMS to app devices only, the link in the SMS and never in the answer', async () => {
    const app = await createDevice({ kind: 'SERVICE_APP', phone_number: '+4915199990001' });
    const tracker = await createDevice({ kind: 'TRACKING_DEVICE', phone_number: '+4915199990002' });
    const noPhone = await createDevice({ kind: 'SERVICE_APP' });

    const sent = await call('POST', `/api/v2/devices/${app.id}/setup-sms`, { token: dispatcher });
    const wrongKind = await call('POST', `/api/v2/devices/${tracker.id}/setup-sms`, { token: dispatcher });
    const missing = await call('POST', `/api/v2/devices/${noPhone.id}/setup-sms`, { token: dispatcher });

    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ device_id: app.id, sent_to: '+4915199990001' });
    expect(sent.text).not.toMatch(/secret|enroll/i);
    expect(wrongKind.status).toBe(422);
    expect(missing.status).toBe(422);
    const dir = join(inject('dataDir'), 'sms');
    const message = await eventually(async () => {
      const files = await readdir(dir);
      const texts = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')));
      const found = texts.find((text) => text.includes('+4915199990001') && text.includes(app.id));
      if (!found) throw new Error('no SMS yet');
      return found;
    });
    const secret = decodeURIComponent(/#secret=(\S+)/.exec(message)?.[1] ?? '');
    expect((await intake(app.id, secret, {})).status).toBe(202);
  });
});

describe('Devices: current states', () => {
  it('reads states in bulk for visible devices only, others silently absent', async () => {
    const { device } = await locatedDevice(20, 20);
    const silent = await createDevice();
    const foreign = await call('POST', '/api/v2/devices', { token: beta, body: {} });
    const query = [device.id, silent.id, foreign.body.id, randomUUID()]
      .map((id) => `device_ids=${id}`)
      .join('&');
    const response = await call('GET', `/api/v2/devices/current-states?${query}`, { token: dispatcher });

    expect(response.status).toBe(200);
    expect(response.body.items.map((item: { device_id: string }) => item.device_id)).toEqual([
      device.id,
      silent.id,
    ]);
    // What a silent device has not reported is omitted, never null.
    expect(response.body.items[1]).toEqual({ device_id: silent.id, status: {} });
    expect(response.text).not.toContain('null');
  });

  it('bounds the bulk read: none or more than 100 ids, or comma-separated ids, are 422', async () => {
    const many = Array.from({ length: 101 }, () => `device_ids=${randomUUID()}`).join('&');
    for (const query of ['', many, `device_ids=${randomUUID()},${randomUUID()}`]) {
      const response = await call('GET', `/api/v2/devices/current-states?${query}`, { token: dispatcher });
      expect(response.status, query.slice(0, 40)).toBe(422);
    }
  });
});

describe('Devices: list', () => {
  it('filters by kind, model substring (case-insensitive), search and has_location, with totals', async () => {
    const word = unique();
    const tracker = await createDevice({ kind: 'TRACKING_DEVICE', device_model: `Teltonika ${word}X` });
    const app = await createDevice({
      kind: 'SERVICE_APP',
      device_model: `Pixel ${word}Y`,
      description: `spare ${word}`,
    });
    const { device: located } = await locatedDevice(30, 30, { device_model: `Queclink ${word}Z` });

    const byModel = await call('GET', `/api/v2/devices?model=${word.toUpperCase()}`, { token: dispatcher });
    const byModelAndKind = await call('GET', `/api/v2/devices?model=${word}&kind=SERVICE_APP`, {
      token: dispatcher,
    });
    const bySearch = await call('GET', `/api/v2/devices?search=${word}`, { token: dispatcher });
    const byLocation = await call('GET', `/api/v2/devices?model=${word}&has_location=true`, {
      token: dispatcher,
    });
    const withoutLocation = await call('GET', `/api/v2/devices?model=${word}&has_location=false`, {
      token: dispatcher,
    });
    const none = await call('GET', `/api/v2/devices?model=${word}nothing`, { token: dispatcher });

    expect(ids(byModel)).toEqual([tracker.id, app.id, located.id]);
    expect(byModel.body.page.total_elements).toBe(3);
    expect(ids(byModelAndKind)).toEqual([app.id]);
    expect(ids(bySearch).sort()).toEqual([tracker.id, app.id, located.id].sort());
    expect(ids(byLocation)).toEqual([located.id]);
    expect(ids(withoutLocation)).toEqual([tracker.id, app.id]);
    expect(none.body.items).toEqual([]);
    expect(none.body.page.total_elements).toBe(0);
  });

  it('sorts by natural_id, device_model and kind, and pages with totals', async () => {
    const word = unique();
    const created = [];
    for (const [kind, model] of [
      ['TRACKING_DEVICE', `${word} b`],
      ['SERVICE_APP', `${word} c`],
      ['THIRD_PARTY_APP', `${word} a`],
    ] as const) {
      created.push(await createDevice({ kind, device_model: model }));
    }
    const list = async (sort: string, extra = '') =>
      ids(await call('GET', `/api/v2/devices?model=${word}&sort=${sort}${extra}`, { token: dispatcher }));

    expect(await list('natural_id:desc')).toEqual(created.map((device) => device.id).reverse());
    expect(await list('device_model:asc')).toEqual([created[2]?.id, created[0]?.id, created[1]?.id]);
    expect(await list('kind:asc')).toEqual([created[1]?.id, created[2]?.id, created[0]?.id]);
    const page = await call('GET', `/api/v2/devices?model=${word}&size=2&page=1`, { token: dispatcher });
    expect(page.body.items).toHaveLength(1);
    expect(page.body.page).toMatchObject({ size: 2, total_elements: 3, total_pages: 2, number: 1 });
  });

  it('filters by updated_from (inclusive) and updated_to (exclusive)', async () => {
    const word = unique();
    const before = await createDevice({ device_model: word });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const after = await createDevice({ device_model: word });
    const from = encodeURIComponent(after.updated_at);

    const since = await call('GET', `/api/v2/devices?model=${word}&updated_from=${from}`, {
      token: dispatcher,
    });
    const until = await call('GET', `/api/v2/devices?model=${word}&updated_to=${from}`, {
      token: dispatcher,
    });
    const all = await call('GET', `/api/v2/devices?updated_from=${encodeURIComponent(before.updated_at)}`, {
      token: dispatcher,
    });

    expect(ids(since)).toEqual([after.id]);
    expect(ids(until)).toEqual([before.id]);
    expect(ids(all)).toEqual(expect.arrayContaining([before.id, after.id]));
  });

  it('filters by a bounding box on the latest location, with the current state embedded on request', async () => {
    const { device: inside } = await locatedDevice(-33.87, 151.21);
    const { device: outside, secret } = await locatedDevice(-33.87, 151.5);
    const { device: moved, secret: movedSecret } = await locatedDevice(-37.81, 144.96);
    await intake(moved.id, movedSecret, { location: { latitude: -33.8, longitude: 151.1 } });
    await intake(outside.id, secret, {
      recorded_at: '2020-01-01T00:00:00Z',
      location: { latitude: -33.85, longitude: 151.2 },
    });

    const box = 'min_lat=-34&min_lon=151&max_lat=-33.7&max_lon=151.3';
    const response = await call('GET', `/api/v2/devices?${box}&include=current_state`, { token: dispatcher });

    expect(response.status).toBe(200);
    expect(ids(response).sort()).toEqual([inside.id, moved.id].sort());
    expect(response.body.page.total_elements).toBe(2);
    const embedded = response.body.items.find((item: { id: string }) => item.id === moved.id);
    expect(embedded.current_state.location).toEqual({ latitude: -33.8, longitude: 151.1 });
  });

  it('handles a box crossing the antimeridian (min_lon > max_lon)', async () => {
    const { device: east } = await locatedDevice(-17.5, 179.5);
    const { device: west } = await locatedDevice(-17.5, -179.5);
    const { device: away } = await locatedDevice(-17.5, 170);

    const response = await call('GET', '/api/v2/devices?min_lat=-18&min_lon=179&max_lat=-17&max_lon=-179', {
      token: dispatcher,
    });

    expect(ids(response).sort()).toEqual([east.id, west.id].sort());
    expect(ids(response)).not.toContain(away.id);
  });

  it('needs all four box values and min_lat ≤ max_lat, and checks the ranges', async () => {
    const partial = await call('GET', '/api/v2/devices?min_lat=1&max_lon=2', { token: dispatcher });
    const reversed = await call('GET', '/api/v2/devices?min_lat=5&min_lon=0&max_lat=4&max_lon=1', {
      token: dispatcher,
    });
    const outOfRange = await call('GET', '/api/v2/devices?min_lat=-91&min_lon=0&max_lat=4&max_lon=181', {
      token: dispatcher,
    });

    expect(partial.status).toBe(422);
    expect(partial.body.errors.map((error: { parameter: string }) => error.parameter).sort()).toEqual([
      'max_lat',
      'min_lon',
    ]);
    expect(reversed.status).toBe(422);
    expect(pointerOf(reversed)).toEqual(['#/query/min_lat']);
    expect(outOfRange.status).toBe(422);
    expect(pointerOf(outOfRange)?.sort()).toEqual(['#/query/max_lon', '#/query/min_lat']);
  });
});

describe('Devices: isolation and deletion', () => {
  it("keeps devices apart: another workspace's ids are 404 and its lists do not show them", async () => {
    const word = unique();
    const device = await createDevice({ device_model: word });
    const read = await call('GET', `/api/v2/devices/${device.id}`, { token: beta });
    const patch = await call('PATCH', `/api/v2/devices/${device.id}`, {
      token: beta,
      body: { description: 'x' },
    });
    const setup = await call('POST', `/api/v2/devices/${device.id}/setup-codes`, { token: beta });
    const state = await call('GET', `/api/v2/devices/${device.id}/current-state`, { token: beta });
    const list = await call('GET', `/api/v2/devices?model=${word}`, { token: beta });

    for (const response of [read, patch, setup, state]) expect(response.status).toBe(404);
    expect(list.body.items).toEqual([]);
  });

  it("refuses a secret used on another workspace's device", async () => {
    const device = await createDevice({ kind: 'TRACKING_DEVICE' });
    const secret = await secretOf(device.id);
    const foreign = await call('POST', '/api/v2/devices', { token: beta, body: { kind: 'TRACKING_DEVICE' } });

    const response = await intake(foreign.body.id, secret, {});
    expect(response.status).toBe(401);
  });

  it('deletes the device, its state and secret at once, and its whole telemetry history after', async () => {
    const device = await createDevice({ kind: 'TRACKING_DEVICE' });
    const secret = await secretOf(device.id);
    for (let i = 0; i < 20; i++) {
      const response = await intake(device.id, secret, {
        recorded_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        location: { latitude: i, longitude: i },
      });
      expect(response.status).toBe(202);
    }
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: inject('dynamodbEndpoint'),
        region: 'eu-central-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    const points = async () =>
      (
        await db.send(
          new QueryCommand({
            TableName: 'fsm',
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `T#${workspaceId}#DEVICE_POINT#${device.id}` },
            Select: 'COUNT',
          }),
        )
      ).Count ?? 0;
    expect(await points()).toBe(20);

    const deleted = await call('DELETE', `/api/v2/devices/${device.id}`, { token: dispatcher });
    const read = await call('GET', `/api/v2/devices/${device.id}`, { token: dispatcher });
    const after = await intake(device.id, secret, {});

    expect(deleted.status).toBe(204);
    expect(read.status).toBe(404);
    expect(after.status).toBe(401);
    // FSM_DEVICE_PURGE_STEP=7 in the test stack: three steps, each its own outbox event.
    await eventually(async () => {
      const left = await points();
      if (left !== 0) throw new Error(`${left} points left`);
    });
  });
});
