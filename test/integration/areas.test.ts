import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let beta: string;

beforeAll(async () => {
  [admin, beta] = await Promise.all([tokenFor('acme-admin'), tokenFor('beta-admin')]);
});

const newArea = (overrides: Record<string, unknown> = {}) => ({
  name: `Area ${randomUUID().slice(0, 8)}`,
  color: '#1a2b3c',
  zip_ranges: [{ from: '10115', to: '10999' }],
  ...overrides,
});

async function createArea(overrides: Record<string, unknown> = {}, token = admin) {
  const response = await call('POST', '/api/v2/areas', { token, body: newArea(overrides) });
  expect(response.status).toBe(201);
  return response.body as Record<string, any>;
}

describe('Areas: create', () => {
  it('answers 201 with the full area, lock_version 0 and an absolute Location', async () => {
    const response = await call('POST', '/api/v2/areas', {
      token: admin,
      body: newArea({ name: 'Berlin Mitte', description: 'Inner city' }),
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Berlin Mitte',
      description: 'Inner city',
      color: '#1a2b3c',
      zip_ranges: [{ from: '10115', to: '10999' }],
      lock_version: 0,
    });
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/areas/${response.body.id}`);
  });

  it('omits absent optional values instead of sending null', async () => {
    const area = await createArea();

    expect(area).not.toHaveProperty('description');
    expect(JSON.stringify(area)).not.toContain('null');
  });

  it.each([
    { title: 'missing name', body: { color: '#fff' }, type: 'field-required', pointer: '#/name' },
    { title: 'null name', body: { name: null, color: '#fff' }, type: 'field-required', pointer: '#/name' },
    { title: 'blank name', body: { name: '   ', color: '#fff' }, type: 'field-required', pointer: '#/name' },
    {
      title: 'number as name',
      body: { name: 5, color: '#fff' },
      type: 'field-type-invalid',
      pointer: '#/name',
    },
    {
      title: 'object for zip_ranges',
      body: { name: 'x', color: '#fff', zip_ranges: {} },
      type: 'field-type-invalid',
      pointer: '#/zip_ranges',
    },
    {
      title: 'control characters in the name',
      body: { name: 'a\u0000b', color: '#fff' },
      type: 'validation-failed',
      pointer: '#/name',
    },
    {
      title: 'colour that is not hex',
      body: { name: 'x', color: 'blue' },
      type: 'validation-failed',
      pointer: '#/color',
    },
    {
      title: 'zip range running backwards',
      body: { name: 'x', color: '#fff', zip_ranges: [{ from: '20000', to: '10000' }] },
      type: 'validation-failed',
      pointer: '#/zip_ranges/0/to',
    },
    {
      title: 'blank zip code',
      body: { name: 'x', color: '#fff', zip_ranges: [{ from: '', to: '10000' }] },
      type: 'field-required',
      pointer: '#/zip_ranges/0/from',
    },
  ])('rejects $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const response = await call('POST', '/api/v2/areas', { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await call('POST', '/api/v2/areas', { token: admin, raw: '{"name": "x",' });

    expect(response.status).toBe(400);
    expect(response.body.type).toEqual(problemType('invalid-json'));
  });

  it('answers 415 for a body that is not JSON by media type', async () => {
    const response = await call('POST', '/api/v2/areas', {
      token: admin,
      raw: 'name=x',
      contentType: 'text/plain',
    });

    expect(response.status).toBe(415);
    expect(response.body.type).toEqual(problemType('unsupported-media-type'));
  });
});

describe('Areas: read', () => {
  it('returns the area by id', async () => {
    const area = await createArea();

    const response = await call('GET', `/api/v2/areas/${area.id}`, { token: admin });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(area);
  });

  it('answers 404 not-found for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const response = await call('GET', `/api/v2/areas/${id}`, { token: admin });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({
        type: problemType('not-found'),
        title: 'Resource not found',
        status: 404,
      });
    }
  });

  it('never shows an area of another workspace, which looks exactly like a missing one', async () => {
    const area = await createArea();

    const read = await call('GET', `/api/v2/areas/${area.id}`, { token: beta });
    const patch = await call('PATCH', `/api/v2/areas/${area.id}`, { token: beta, body: { name: 'stolen' } });
    const remove = await call('DELETE', `/api/v2/areas/${area.id}`, { token: beta });
    const list = await call('GET', '/api/v2/areas?size=100', { token: beta });

    expect([read.status, patch.status, remove.status]).toEqual([404, 404, 404]);
    expect(list.body.items.map((a: { id: string }) => a.id)).not.toContain(area.id);
    expect((await call('GET', `/api/v2/areas/${area.id}`, { token: admin })).body.name).toBe(area.name);
  });
});

describe('Areas: update (JSON Merge Patch)', () => {
  it('changes only the fields sent and increments lock_version', async () => {
    const area = await createArea({ description: 'keep me' });

    const response = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { name: 'Renamed' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Renamed',
      description: 'keep me',
      color: area.color,
      lock_version: 1,
    });
    expect(response.body.updated_at >= area.updated_at).toBe(true);
  });

  it('clears the description with null', async () => {
    const area = await createArea({ description: 'temporary' });

    const response = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { description: null },
    });

    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('description');
  });

  it('accepts application/json as an alias of application/merge-patch+json', async () => {
    const area = await createArea();

    const response = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { color: '#abcdef' },
      contentType: 'application/json',
    });

    expect(response.status).toBe(200);
    expect(response.body.color).toBe('#abcdef');
  });

  it('answers 415 for other patch media types', async () => {
    const area = await createArea();

    const response = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { color: '#abcdef' },
      contentType: 'application/json-patch+json',
    });

    expect(response.status).toBe(415);
  });

  it.each([
    { title: 'null name', body: { name: null }, type: 'field-required', pointer: '#/name' },
    {
      title: 'blank description',
      body: { description: ' ' },
      type: 'field-required',
      pointer: '#/description',
    },
    {
      title: '1.5 as lock_version',
      body: { lock_version: 1.5 },
      type: 'field-type-invalid',
      pointer: '#/lock_version',
    },
    {
      title: 'string as lock_version',
      body: { lock_version: '0' },
      type: 'field-type-invalid',
      pointer: '#/lock_version',
    },
    { title: 'null colour', body: { color: null }, type: 'field-required', pointer: '#/color' },
  ])('rejects $title with 422 $type and changes nothing', async ({ body, type, pointer }) => {
    const area = await createArea({ description: 'unchanged' });

    const response = await call('PATCH', `/api/v2/areas/${area.id}`, { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors[0].pointer).toBe(pointer);
    expect((await call('GET', `/api/v2/areas/${area.id}`, { token: admin })).body).toEqual(area);
  });

  it('writes when lock_version matches and answers 409 resource-conflict when it is stale', async () => {
    const area = await createArea();

    const first = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { name: 'A', lock_version: 0 },
    });
    const stale = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { name: 'B', lock_version: 0 },
    });

    expect(first.status).toBe(200);
    expect(first.body.lock_version).toBe(1);
    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
    expect((await call('GET', `/api/v2/areas/${area.id}`, { token: admin })).body.name).toBe('A');
  });

  it('treats an omitted or null lock_version as last write wins', async () => {
    const area = await createArea();

    await call('PATCH', `/api/v2/areas/${area.id}`, { token: admin, body: { name: 'one' } });
    const response = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { name: 'two', lock_version: null },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'two', lock_version: 2 });
  });

  it('moves lock_version for a PATCH that changes nothing, as for every write (SPEC.md rule 8)', async () => {
    const area = await createArea();

    const same = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: admin,
      body: { name: area.name, lock_version: 0 },
    });
    const empty = await call('PATCH', `/api/v2/areas/${area.id}`, { token: admin, body: {} });

    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ name: area.name, lock_version: 1 });
    expect(empty.body.lock_version).toBe(2);
  });

  it('keeps every concurrent last-write-wins patch (none is lost to a race)', async () => {
    const area = await createArea();

    const results = await Promise.all(
      ['#111111', '#222222', '#333333', '#444444'].map((color) =>
        call('PATCH', `/api/v2/areas/${area.id}`, { token: admin, body: { color } }),
      ),
    );

    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await call('GET', `/api/v2/areas/${area.id}`, { token: admin })).body.lock_version).toBe(4);
  });
});

describe('Areas: delete', () => {
  it('answers 204, then 404 for the deleted area', async () => {
    const area = await createArea();

    const response = await call('DELETE', `/api/v2/areas/${area.id}`, { token: admin });

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await call('GET', `/api/v2/areas/${area.id}`, { token: admin })).status).toBe(404);
    expect((await call('DELETE', `/api/v2/areas/${area.id}`, { token: admin })).status).toBe(404);
  });
});

describe('Areas: list', () => {
  it('pages with the page envelope and sorts by repeated sort parameters', async () => {
    const prefix = randomUUID().slice(0, 6);
    for (const [name, color] of [
      ['c', '#000001'],
      ['a', '#000002'],
      ['b', '#000002'],
    ]) {
      await createArea({ name: `${prefix}-${name}`, color }, beta);
    }

    const byName = await call('GET', '/api/v2/areas?sort=name:desc&size=2', { token: beta });
    const byColorThenName = await call('GET', '/api/v2/areas?sort=color:desc&sort=name:asc&size=100', {
      token: beta,
    });
    const secondPage = await call('GET', '/api/v2/areas?sort=name:desc&size=2&page=1', { token: beta });

    expect(byName.status).toBe(200);
    const ours = (list: Array<{ name: string }>) =>
      list.map((a) => a.name).filter((n) => n.startsWith(prefix));
    expect(ours(byName.body.items)).toEqual(
      [`${prefix}-c`, `${prefix}-b`].slice(0, ours(byName.body.items).length),
    );
    expect(byName.body.page).toMatchObject({ size: 2, number: 0 });
    expect(byName.body.page.total_pages).toBe(Math.ceil(byName.body.page.total_elements / 2));
    expect(secondPage.body.page.number).toBe(1);
    expect(ours(byColorThenName.body.items)).toEqual([`${prefix}-a`, `${prefix}-b`, `${prefix}-c`]);
  });

  it('uses page 0 and size 20 by default', async () => {
    const response = await call('GET', '/api/v2/areas', { token: admin });

    expect(response.body.page).toMatchObject({ number: 0, size: 20 });
  });

  it.each([
    { title: 'a comma in sort', query: 'sort=name:asc,color:desc' },
    { title: 'an encoded comma in sort', query: 'sort=name:asc%2Ccolor:desc' },
    { title: 'an unknown sort field', query: 'sort=secret:asc' },
    { title: 'a bad sort direction', query: 'sort=name:up' },
    { title: 'a negative page', query: 'page=-1' },
    { title: 'size 0', query: 'size=0' },
    { title: 'size 101', query: 'size=101' },
    { title: 'a non-integer size', query: 'size=1.5' },
  ])('answers 422 for $title', async ({ query }) => {
    const response = await call('GET', `/api/v2/areas?${query}`, { token: admin });

    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('Areas: waiting_time', () => {
  // Its own workspace, so the audit log's newest entries are this block's.
  let fleet: string;
  beforeAll(async () => {
    fleet = await tokenFor('fleet-admin');
  });

  async function eventsOf(areaId: string) {
    const response = await call('GET', '/api/v2/audit-logs?size=100', { token: fleet });
    expect(response.status).toBe(200);
    return (
      response.body.items as Array<{
        id: string;
        event_type: string;
        resource: { id: string };
        data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
      }>
    ).filter((entry) => entry.resource.id === areaId);
  }

  it('stores an ISO 8601 duration as sent, reads it back, and clears it with null', async () => {
    const area = await createArea({ waiting_time: 'P1DT2H' }, fleet);

    const read = await call('GET', `/api/v2/areas/${area.id}`, { token: fleet });
    const changed = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: fleet,
      body: { waiting_time: 'PT45M' },
    });
    const cleared = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: fleet,
      body: { waiting_time: null },
    });

    expect(area.waiting_time).toBe('P1DT2H');
    expect(read.body.waiting_time).toBe('P1DT2H');
    expect(changed.body).toMatchObject({ waiting_time: 'PT45M', lock_version: 1 });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('waiting_time');
  });

  it.each([
    { title: 'a clock time', value: '00:45', type: 'validation-failed' },
    { title: 'months', value: 'P1M', type: 'validation-failed' },
    { title: 'lower case', value: 'pt45m', type: 'validation-failed' },
    { title: 'more than a year', value: 'P400D', type: 'validation-failed' },
    { title: 'a number', value: 45, type: 'field-type-invalid' },
    { title: 'a blank string', value: ' ', type: 'field-required' },
  ])('rejects $title with 422 $type at #/waiting_time, on create and update', async ({ value, type }) => {
    const area = await createArea({}, fleet);

    const created = await call('POST', '/api/v2/areas', {
      token: fleet,
      body: newArea({ waiting_time: value }),
    });
    const patched = await call('PATCH', `/api/v2/areas/${area.id}`, {
      token: fleet,
      body: { waiting_time: value },
    });

    for (const response of [created, patched]) {
      expect(response.status).toBe(422);
      expect(response.body.type).toEqual(problemType(type));
      expect(response.body.errors[0].pointer).toBe('#/waiting_time');
    }
  });

  /** The event stream's messages replayed after `lastEventId`, until the server drops the connection. */
  async function replayedAfter(lastEventId: string) {
    const response = await fetch(`${baseUrl()}/api/v2/events/stream?lastEventId=${lastEventId}`, {
      headers: { authorization: `Bearer ${fleet}` },
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

  it('announces a waiting_time change as area.updated with the old value, never an event named after the property', async () => {
    const area = await createArea({ waiting_time: 'PT30M' }, fleet);
    await call('PATCH', `/api/v2/areas/${area.id}`, { token: fleet, body: { waiting_time: 'PT45M' } });
    await call('PATCH', `/api/v2/areas/${area.id}`, { token: fleet, body: { name: 'Renamed' } });
    await call('PATCH', `/api/v2/areas/${area.id}`, { token: fleet, body: { waiting_time: null } });

    const entries = await eventually(async () => {
      const found = await eventsOf(area.id);
      expect(found).toHaveLength(4);
      return found.reverse();
    });
    const catalog = await call('GET', '/api/v2/webhooks/event-types', { token: fleet });

    expect(entries.map((entry) => entry.event_type)).toEqual([
      'area.created',
      'area.updated',
      'area.updated',
      'area.updated',
    ]);
    expect(entries.map((entry) => entry.data.previous_attributes)).toEqual([
      undefined,
      { waiting_time: 'PT30M' },
      { name: area.name },
      { waiting_time: 'PT45M' },
    ]);
    expect(catalog.body.items.map((item: { type: string }) => item.type)).not.toContain(
      'area.waiting_time_updated',
    );
  });

  it('streams AREA_WAITING_TIME_UPDATED:V1 with the old value for each change of waiting_time only', async () => {
    const marker = await createArea({}, fleet);
    const start = await eventually(async () => {
      const [created] = await eventsOf(marker.id);
      if (!created) throw new Error('no audit entry yet');
      return created.id;
    });
    const area = await createArea({ waiting_time: 'PT30M' }, fleet);
    await call('PATCH', `/api/v2/areas/${area.id}`, { token: fleet, body: { waiting_time: 'PT45M' } });
    await call('PATCH', `/api/v2/areas/${area.id}`, { token: fleet, body: { name: 'Renamed' } });
    await call('PATCH', `/api/v2/areas/${area.id}`, { token: fleet, body: { waiting_time: null } });

    const changes = await eventually(async () => {
      const found = (await replayedAfter(start)).filter(
        (message) => message.kind === 'AREA_WAITING_TIME_UPDATED:V1' && message.data.areaId === area.id,
      );
      if (found.length < 3) throw new Error('not replayed yet');
      return found;
    });

    expect(changes.map(({ data }) => [data.waitingTime ?? null, data.previousWaitingTime ?? null])).toEqual([
      ['PT30M', null],
      ['PT45M', 'PT30M'],
      [null, 'PT45M'],
    ]);
    expect(changes[0]?.data).toMatchObject({ businessId: `area:${area.id}` });
  });

  it('emits nothing extra for an area created without a waiting time', async () => {
    const area = await createArea({}, fleet);

    const entries = await eventually(async () => {
      const found = await eventsOf(area.id);
      expect(found).toHaveLength(1);
      return found;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(entries.map((entry) => entry.event_type)).toEqual(['area.created']);
    expect(await eventsOf(area.id)).toHaveLength(1);
  });
});
