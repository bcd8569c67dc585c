/**
 * Offline sync for field apps over HTTP (API-DECISIONS.md, "Offline sync for field apps"): a
 * technician's scope pulled whole and then by cursor — assign, reassign, unassign and a case
 * moving out of the 14-day window send evicts and whole records; deletes; cursors of another
 * user, forged or past the 30-day horizon; pages cut by count and by bytes — and pushes applied
 * exactly once, merged by field, refused per mutation. Each test makes its own technicians in the
 * Fleet Works workspace, so their scopes hold only what the test gives them.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, claimsOf, eventually, problemType, tokenFor } from '../support/api.ts';
import { directTable } from '../support/direct-table.ts';
import { SyncDevice } from '../support/sync-device.ts';
import { createUser, roleId, tokenOfUser } from '../support/users.ts';

let admin: string;
let dispatcher: string;

beforeAll(async () => {
  [admin, dispatcher] = await Promise.all([tokenFor('fleet-admin'), tokenFor('fleet-dispatcher')]);
});

const dayMs = 24 * 3600 * 1000;
/** 10:00 UTC, `days` from today. */
const at = (days: number) => `${new Date(Date.now() + days * dayMs).toISOString().slice(0, 10)}T10:00:00Z`;
const dayAfter = (start: string) => new Date(Date.parse(start) + 3600_000).toISOString();

async function technician() {
  const user = await createUser(admin, { role_ids: [await roleId(admin, 'technician')] });
  const token = tokenOfUser(admin, user.id);
  return { id: user.id as string, token, device: new SyncDevice(token) };
}

async function newCase(body: Record<string, unknown> = {}) {
  const start = (body.scheduled_start as string | undefined) ?? at(1);
  const response = await call('POST', '/api/v2/cases', {
    token: dispatcher,
    body: {
      title: `Boiler ${randomUUID().slice(0, 6)}`,
      scheduled_start: start,
      scheduled_end: dayAfter(start),
      ...body,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

async function patchCase(id: string, body: Record<string, unknown>) {
  const response = await call('PATCH', `/api/v2/cases/${id}`, { token: dispatcher, body });
  expect(response.status, response.text).toBe(200);
  return response.body as Record<string, any>;
}

async function comment(caseId: string, body: string, token = dispatcher) {
  const response = await call('POST', '/api/v2/comments', {
    token,
    body: { target_type: 'core:case', target_id: caseId, body_markdown: body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

/** A full pull of a new installation of the user: what their scope holds now. */
async function fullCopy(token: string) {
  const device = new SyncDevice(token);
  await device.sync();
  return device.copy;
}

/** Pulls until the device's copy satisfies `check` (writes reach the change log from the stream). */
async function syncUntil(device: SyncDevice, check: (copy: Map<string, Record<string, any>>) => void) {
  await eventually(async () => {
    await device.sync();
    check(device.copy);
  });
}

const has = (copy: Map<string, unknown>, type: string, id: string) => copy.has(`${type}#${id}`);

describe('Offline sync: pull', () => {
  it('sends a full pull of the scope: assigned cases of the window with their comments, and the catalogs', async () => {
    // Prepare
    const tina = await technician();
    const today = await newCase({ assignee_id: tina.id, scheduled_start: at(0) });
    const lastWeek = await newCase({ assignee_id: tina.id, scheduled_start: at(-6) });
    const tooFar = await newCase({ assignee_id: tina.id, scheduled_start: at(20) });
    const someoneElses = await newCase({ scheduled_start: at(0) });
    const note = await comment(today.id, 'Gate code 4711.');
    const area = await call('POST', '/api/v2/areas', {
      token: admin,
      body: { name: `North ${randomUUID().slice(0, 6)}`, color: '#112233' },
    });
    expect(area.status, area.text).toBe(201);

    // Act
    await syncUntil(tina.device, (copy) => expect(has(copy, 'comment', note.id)).toBe(true));
    const tag = await call('POST', '/api/v2/tags', {
      token: admin,
      body: { name: `gas-${randomUUID().slice(0, 6)}`, color: '#445566' },
    });
    expect(tag.status, tag.text).toBe(201);
    await syncUntil(tina.device, (copy) => expect(has(copy, 'tag', tag.body.id)).toBe(true));

    // Assess
    const copy = tina.device.copy;
    expect(copy.get(`case#${today.id}`)).toMatchObject({ id: today.id, title: today.title, lock_version: 0 });
    expect(has(copy, 'case', lastWeek.id)).toBe(true);
    expect(has(copy, 'case', tooFar.id)).toBe(false);
    expect(has(copy, 'case', someoneElses.id)).toBe(false);
    expect(copy.get(`comment#${note.id}`)).toMatchObject({ body_markdown: 'Gate code 4711.' });
    expect(copy.get(`area#${area.body.id}`)).toMatchObject({ name: area.body.name });
    expect(copy.get(`tag#${tag.body.id}`)).toMatchObject({ name: tag.body.name, usage_count: 0 });
  });

  it('sends the custom-object instances of the types the user reads, and their changes and deletes', async () => {
    // Prepare
    const tina = await technician();
    const define = async (slug: string, access: 'STANDARD' | 'PROTECTED') => {
      const response = await call('POST', '/api/v2/custom-objects/definitions', {
        token: admin,
        body: {
          slug,
          title: 'Meter',
          type: 'object',
          access_class: access,
          properties: { serial: { type: 'string' } },
        },
      });
      expect(response.status, response.text).toBe(201);
      return slug;
    };
    const [open, closed] = await Promise.all([
      define(`meter_${randomUUID().slice(0, 8)}`, 'STANDARD'),
      define(`vault_${randomUUID().slice(0, 8)}`, 'PROTECTED'),
    ]);
    const create = async (slug: string, serial: string) => {
      const response = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
        token: admin,
        body: { data: { serial } },
      });
      expect(response.status, response.text).toBe(201);
      return response.body.data.id as string;
    };
    const [meter, secret] = await Promise.all([create(open, 'M-1'), create(closed, 'S-1')]);
    await syncUntil(tina.device, (copy) => expect(has(copy, 'custom_object', meter)).toBe(true));

    // Act
    const edited = await call('PATCH', `/api/v2/custom-objects/instances/${open}/${meter}`, {
      token: admin,
      body: { data: { serial: 'M-2' } },
    });
    expect(edited.status, edited.text).toBe(200);
    await syncUntil(tina.device, (copy) =>
      expect(copy.get(`custom_object#${meter}`)).toMatchObject({ data: { serial: 'M-2' }, lock_version: 1 }),
    );
    const removed = await call('DELETE', `/api/v2/custom-objects/instances/${open}/${meter}`, {
      token: admin,
    });

    // Assess
    expect(removed.status).toBe(204);
    await syncUntil(tina.device, (copy) => expect(has(copy, 'custom_object', meter)).toBe(false));
    expect(tina.device.copy.get(`custom_object#${secret}`)).toBeUndefined();
    expect(has(await fullCopy(tina.token), 'custom_object', secret)).toBe(false);
  });

  it('sends evict to the technician a case leaves and the case whole, with its comments, to the one it enters', async () => {
    // Prepare
    const [tina, tom] = await Promise.all([technician(), technician()]);
    const job = await newCase({ assignee_id: tina.id });
    const note = await comment(job.id, 'Bring the long ladder.');
    await syncUntil(tina.device, (copy) => expect(has(copy, 'comment', note.id)).toBe(true));
    await tom.device.sync();

    // Act
    await patchCase(job.id, { assignee_id: tom.id });

    // Assess
    await syncUntil(tina.device, (copy) => expect(has(copy, 'case', job.id)).toBe(false));
    expect(has(tina.device.copy, 'comment', note.id)).toBe(false);
    await syncUntil(tom.device, (copy) => expect(copy.get(`case#${job.id}`)?.assignee_id).toBe(tom.id));
    expect(tom.device.copy.get(`comment#${note.id}`)).toMatchObject({
      body_markdown: 'Bring the long ladder.',
    });
  });

  it('evicts a case that is unassigned or moved out of the 14-day window, and sends it again when it comes back', async () => {
    // Prepare
    const tina = await technician();
    const [unassigned, moved] = await Promise.all([
      newCase({ assignee_id: tina.id }),
      newCase({ assignee_id: tina.id }),
    ]);
    await syncUntil(tina.device, (copy) => expect(has(copy, 'case', moved.id)).toBe(true));

    // Act
    await patchCase(unassigned.id, { assignee_id: null });
    const away = at(20);
    await patchCase(moved.id, { scheduled_start: away, scheduled_end: dayAfter(away) });

    // Assess
    await syncUntil(tina.device, (copy) => {
      expect(has(copy, 'case', unassigned.id)).toBe(false);
      expect(has(copy, 'case', moved.id)).toBe(false);
    });
    const back = at(3);
    await patchCase(moved.id, { scheduled_start: back, scheduled_end: dayAfter(back) });
    await syncUntil(tina.device, (copy) =>
      expect(copy.get(`case#${moved.id}`)?.scheduled_start).toBe(new Date(back).toISOString()),
    );
  });

  it('sends delete for a deleted case and every later change of a record once, as it is now', async () => {
    // Prepare
    const tina = await technician();
    const [doomed, edited] = await Promise.all([
      newCase({ assignee_id: tina.id }),
      newCase({ assignee_id: tina.id }),
    ]);
    await syncUntil(tina.device, (copy) => expect(has(copy, 'case', edited.id)).toBe(true));

    // Act
    const deleted = await call('DELETE', `/api/v2/cases/${doomed.id}`, { token: dispatcher });
    for (const title of ['One', 'Two', 'Three']) await patchCase(edited.id, { title });

    // Assess
    expect(deleted.status).toBe(204);
    await eventually(async () => {
      const page = await tina.device.pullPage();
      expect(page.status).toBe(200);
      const ofEdited = page.body.changes.filter((change: any) => change.id === edited.id);
      const ofDoomed = page.body.changes.filter((change: any) => change.id === doomed.id);
      expect(ofDoomed).toEqual([{ type: 'case', id: doomed.id, op: 'delete' }]);
      expect(ofEdited).toHaveLength(1);
      expect(ofEdited[0]).toMatchObject({ op: 'upsert', version: 3, data: { title: 'Three' } });
    });
  });

  it('pages a full pull by limit, each page under the limit and 1 MB, with has_more until the last', async () => {
    // Prepare
    const tina = await technician();
    const description = 'x'.repeat(9_000);
    const cases: Array<Record<string, any>> = [];
    for (let batch = 0; batch < 6; batch++) {
      cases.push(
        ...(await Promise.all(
          Array.from({ length: 25 }, () => newCase({ assignee_id: tina.id, description })),
        )),
      );
    }
    await eventually(async () => {
      await tina.device.sync();
      expect(cases.every((job) => has(tina.device.copy, 'case', job.id))).toBe(true);
    }, 20_000);

    // Act
    const device = new SyncDevice(tina.token);
    const pages = await device.sync({ limit: 1000 });
    const small = await new SyncDevice(tina.token).sync({ limit: 40 });

    // Assess
    const sizes = pages.map((page) => Buffer.byteLength(JSON.stringify(page)));
    expect(pages.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1024 * 1024);
    expect(pages.slice(0, -1).every((page) => page.has_more)).toBe(true);
    expect(small.every((page) => page.changes.length <= 40)).toBe(true);
    expect(cases.every((job) => has(device.copy, 'case', job.id))).toBe(true);
  });

  it('refuses a cursor of another user with 409 resync_required, and a forged one with 422 at #/cursor', async () => {
    // Prepare
    const [tina, tom] = await Promise.all([technician(), technician()]);
    await tina.device.sync();

    // Act
    const theirs = await tom.device.pullPage({ cursor: tina.device.cursor as string });
    const otherInstallation = await new SyncDevice(tina.token).pullPage({
      cursor: tina.device.cursor as string,
    });
    const forged = await tina.device.pullPage({ cursor: `${tina.device.cursor}x` });

    // Assess
    for (const refused of [theirs, otherInstallation]) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        type: problemType('resource-conflict'),
        data: { reason: 'resync_required' },
      });
    }
    expect(forged.status).toBe(422);
    expect(forged.body.errors).toEqual([expect.objectContaining({ pointer: '#/cursor' })]);
  });

  it('asks for a full pull (resync_required) once a cursor is past the 30-day horizon of deletes', async () => {
    // Prepare: a cursor as the service would have issued it 31 days ago.
    const tina = await technician();
    await tina.device.sync();
    const old = await resealed(tina.device.cursor as string, (cursor) => ({
      ...cursor,
      issuedAt: Date.now() - 31 * dayMs,
    }));

    // Act
    const response = await tina.device.pullPage({ cursor: old });

    // Assess
    expect(response.status).toBe(409);
    expect(response.body.data).toEqual({ reason: 'resync_required' });
  });

  it('moves the window with the calendar: a pull on a later day evicts the days that left and sends the days that entered', async () => {
    // Prepare: the device last pulled three days ago (its cursor says so).
    const tina = await technician();
    const left = await newCase({ assignee_id: tina.id, scheduled_start: at(-9) });
    const entered = await newCase({ assignee_id: tina.id, scheduled_start: at(13) });
    await syncUntil(tina.device, (copy) => expect(has(copy, 'case', entered.id)).toBe(true));
    const threeDaysAgo = new Date(Date.now() - 3 * dayMs).toISOString().slice(0, 10);
    const cursor = await resealed(tina.device.cursor as string, (c) => ({ ...c, day: threeDaysAgo }));

    // Act
    const response = await tina.device.pullPage({ cursor });

    // Assess
    expect(response.status).toBe(200);
    const ops = Object.fromEntries(response.body.changes.map((change: any) => [change.id, change.op]));
    expect(ops[left.id]).toBe('evict');
    expect(ops[entered.id]).toBe('upsert');
  });
});

/** The cursor changed and signed again with the workspace's key, as the service would have issued it. */
async function resealed(cursor: string, change: (cursor: Record<string, any>) => Record<string, any>) {
  const table = directTable();
  const { tenant_id } = claimsOf(admin);
  const { Item } = await table.send(
    new GetCommand({ TableName: 'fsm', Key: { pk: `T#${tenant_id}`, sk: 'SYNC_CURSOR_KEY' } }),
  );
  table.destroy();
  const key = Buffer.from(String(Item?.secret), 'base64');
  const payload = Buffer.from(
    JSON.stringify(change(JSON.parse(Buffer.from(cursor.split('.')[0] as string, 'base64url').toString()))),
  ).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}

describe('Offline sync: push', () => {
  it('applies a mutation once: the same push again answers duplicate with the stored result', async () => {
    // Prepare
    const tina = await technician();
    const job = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });
    const mutations = [
      {
        id: 1,
        type: 'case',
        record_id: job.id,
        op: 'update',
        base_version: 0,
        data: { status: 'IN_PROGRESS' },
      },
    ];

    // Act
    const first = await tina.device.push(mutations as never);
    const again = await tina.device.push(mutations as never);

    // Assess
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ last_mutation_id: 1, results: [{ id: 1, status: 'applied', version: 1 }] });
    expect(again.body).toEqual({
      last_mutation_id: 1,
      results: [{ id: 1, status: 'duplicate', original_status: 'applied', version: 1 }],
    });
    const read = await call('GET', `/api/v2/cases/${job.id}`, { token: dispatcher });
    expect(read.body).toMatchObject({ status: 'IN_PROGRESS', lock_version: 1 });
  });

  it('refuses a gap with 409 mutation_gap naming last_mutation_id, applying nothing of that push', async () => {
    // Prepare
    const tina = await technician();
    const job = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });
    await tina.device.push([
      { id: 1, type: 'case', record_id: job.id, op: 'update', data: { status: 'IN_PROGRESS' } },
    ] as never);

    // Act
    const response = await tina.device.push([
      { id: 3, type: 'case', record_id: job.id, op: 'update', data: { status: 'DONE' } },
    ] as never);

    // Assess
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      type: problemType('resource-conflict'),
      data: { reason: 'mutation_gap', last_mutation_id: 1 },
    });
    const read = await call('GET', `/api/v2/cases/${job.id}`, { token: dispatcher });
    expect(read.body.status).toBe('IN_PROGRESS');
  });

  it('merges by field: a field only the device changed applies, one both changed keeps the server value as a conflict', async () => {
    // Prepare: the device edited version 0; meanwhile dispatch renamed the case and put it on hold.
    const tina = await technician();
    const job = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });
    await patchCase(job.id, { title: 'Renamed by dispatch' });
    const renamed = await call('GET', `/api/v2/cases/${job.id}`, { token: dispatcher });
    const conflicted = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });
    await patchCase(conflicted.id, { status: 'ON_HOLD' });

    // Act
    const response = await tina.device.push([
      {
        id: 1,
        type: 'case',
        record_id: job.id,
        op: 'update',
        base_version: 0,
        data: { status: 'IN_PROGRESS' },
      },
      {
        id: 2,
        type: 'case',
        record_id: conflicted.id,
        op: 'update',
        base_version: 0,
        data: { status: 'DONE' },
      },
    ] as never);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.results).toEqual([
      { id: 1, status: 'merged', version: renamed.body.lock_version + 1 },
      {
        id: 2,
        status: 'merged',
        version: 1,
        conflicts: [{ field: 'status', yours: 'DONE', theirs: 'ON_HOLD' }],
      },
    ]);
    const [one, two] = await Promise.all(
      [job.id, conflicted.id].map((id) => call('GET', `/api/v2/cases/${id}`, { token: dispatcher })),
    );
    expect(one?.body).toMatchObject({ title: 'Renamed by dispatch', status: 'IN_PROGRESS' });
    expect(two?.body).toMatchObject({ status: 'ON_HOLD', lock_version: 1 });
  });

  it('reports a refused mutation with its problem document and still applies the ones after it', async () => {
    // Prepare
    const tina = await technician();
    const job = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });
    const commentId = uuidv7();

    // Act
    const response = await tina.device.push([
      { id: 1, type: 'case', record_id: job.id, op: 'update', data: { title: 'Not a technician’s field' } },
      {
        id: 2,
        type: 'comment',
        record_id: commentId,
        op: 'create',
        data: { target_type: 'core:case', target_id: job.id, body_markdown: 'Written in the basement.' },
      },
      { id: 3, type: 'case', record_id: job.id, op: 'update', data: { status: 'IN_PROGRESS' } },
    ] as never);

    // Assess
    expect(response.status, response.text).toBe(200);
    const [refused, created, started] = response.body.results;
    expect(refused).toMatchObject({
      id: 1,
      status: 'rejected',
      problem: { type: problemType('access-denied'), status: 403 },
    });
    expect(created).toEqual({ id: 2, status: 'applied', version: 0 });
    expect(started).toMatchObject({ id: 3, status: 'applied' });
    const posted = await call('GET', `/api/v2/comments/${commentId}`, { token: dispatcher });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ id: commentId, body_markdown: 'Written in the basement.' });
  });

  it('applies each mutation once when an installation pushes the same mutations twice at once', async () => {
    // Prepare: four status flips, each a change of the case (applied twice, they would move it on).
    const tina = await technician();
    const job = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });
    const mutations = ['IN_PROGRESS', 'ON_HOLD', 'IN_PROGRESS', 'ON_HOLD'].map((status, index) => ({
      id: index + 1,
      type: 'case',
      record_id: job.id,
      op: 'update',
      data: { status },
    }));

    // Act
    const answers = await Promise.all([
      tina.device.push(mutations as never),
      tina.device.push(mutations as never),
    ]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    for (const answer of answers) expect(answer.body.last_mutation_id).toBe(4);
    const statuses = answers.flatMap((answer) =>
      answer.body.results.map((r: any) => r.original_status ?? r.status),
    );
    expect(new Set(statuses)).toEqual(new Set(['applied']));
    const read = await call('GET', `/api/v2/cases/${job.id}`, { token: dispatcher });
    expect(read.body).toMatchObject({ status: 'ON_HOLD', lock_version: 4 });
  });

  it('sends last_mutation_id with every pull page', async () => {
    // Prepare
    const tina = await technician();
    const job = await newCase({ assignee_id: tina.id, status: 'SCHEDULED' });
    await tina.device.push([
      { id: 1, type: 'case', record_id: job.id, op: 'update', data: { status: 'IN_PROGRESS' } },
    ] as never);

    // Act
    const page = await tina.device.pullPage();

    // Assess
    expect(page.body.last_mutation_id).toBe(1);
  });
});
