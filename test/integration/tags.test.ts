import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let technician: string;

beforeAll(async () => {
  [admin, technician] = await Promise.all([tokenFor('acme-admin'), tokenFor('acme-technician')]);
});

async function createTag(body: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v2/tags', {
    token: admin,
    body: { name: `tag-${randomUUID().slice(0, 8)}`, color: '#ff8800', ...body },
  });
  expect(response.status).toBe(201);
  return response.body as Record<string, any>;
}

/** A new technician carrying `tagIds`, created through the users API. */
async function createUserWithTags(tagIds: string[]) {
  const roles = await call('GET', '/api/v2/roles', { token: admin });
  const technicianRole = roles.body.items.find((role: { name: string }) => role.name === 'technician');
  const response = await call('POST', '/api/v2/users', {
    token: admin,
    body: {
      email: `tagged-${randomUUID()}@acme.test`,
      firstname: 'Tina',
      lastname: 'Tagged',
      role_ids: [technicianRole.id],
      tag_ids: tagIds,
    },
  });
  expect(response.status).toBe(201);
  return response.body as Record<string, any>;
}

describe('Tags', () => {
  it('creates a tag with usage_count 0, lock_version 0 and an absolute Location', async () => {
    const response = await call('POST', '/api/v2/tags', {
      token: admin,
      body: { name: 'Urgent', color: 'crimson' },
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Urgent',
      color: 'crimson',
      usage_count: 0,
      lock_version: 0,
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/tags/${response.body.id}`);
  });

  it.each([
    { title: 'a hex colour', color: '#0af' },
    { title: 'a CSS name', color: 'rebeccapurple' },
    { title: 'an rgb() value', color: 'rgb(10, 20, 30)' },
  ])('accepts $title as colour', async ({ color }) => {
    expect((await createTag({ color })).color).toBe(color);
  });

  it.each([
    { title: 'a missing name', body: { color: '#fff' }, type: 'field-required' },
    { title: 'a blank color', body: { name: 'x', color: ' ' }, type: 'field-required' },
    {
      title: 'a colour that is not one',
      body: { name: 'x', color: 'not-a-colour' },
      type: 'validation-failed',
    },
    { title: 'a list as name', body: { name: ['x'], color: '#fff' }, type: 'field-type-invalid' },
  ])('rejects $title with 422 $type', async ({ body, type }) => {
    const response = await call('POST', '/api/v2/tags', { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
  });

  it('lists tags with the page envelope, sorted by name by default', async () => {
    const suffix = randomUUID();
    const last = await createTag({ name: `zz-${suffix}` });
    const middle = await createTag({ name: `Mm-${suffix}` });
    const first = await createTag({ name: `aa-${suffix}` });

    const response = await call('GET', '/api/v2/tags?size=100', { token: technician });

    expect(response.status).toBe(200);
    const ids = response.body.items.map((t: { id: string }) => t.id);
    expect(ids.filter((id: string) => [first.id, middle.id, last.id].includes(id))).toEqual([
      first.id,
      middle.id,
      last.id,
    ]);
    expect(response.body.page).toMatchObject({ number: 0, size: 100 });
  });

  it('lets everyone read a tag, but writing needs tags:update', async () => {
    const tag = await createTag();

    const read = await call('GET', `/api/v2/tags/${tag.id}`, { token: technician });
    const create = await call('POST', '/api/v2/tags', {
      token: technician,
      body: { name: 'mine', color: '#000' },
    });
    const update = await call('PATCH', `/api/v2/tags/${tag.id}`, {
      token: technician,
      body: { name: 'mine' },
    });
    const remove = await call('DELETE', `/api/v2/tags/${tag.id}`, { token: technician });

    expect(read.status).toBe(200);
    for (const denied of [create, update, remove]) {
      expect(denied.status).toBe(403);
      expect(denied.body.data).toEqual({ reason: 'missing_grant', required_grants: ['tags:update'] });
    }
  });

  it('updates by merge patch with lock_version, rejecting null and stale versions', async () => {
    const tag = await createTag();

    const renamed = await call('PATCH', `/api/v2/tags/${tag.id}`, {
      token: admin,
      body: { name: 'Renamed', lock_version: 0 },
    });
    const stale = await call('PATCH', `/api/v2/tags/${tag.id}`, {
      token: admin,
      body: { color: '#000', lock_version: 0 },
    });
    const nullName = await call('PATCH', `/api/v2/tags/${tag.id}`, { token: admin, body: { name: null } });

    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      color: tag.color,
      lock_version: 1,
      usage_count: 0,
    });
    expect(stale.status).toBe(409);
    expect(nullName.status).toBe(422);
    expect(nullName.body.type).toEqual(problemType('field-required'));
  });

  it('counts the users carrying a tag in usage_count, on read, in lists and when sorting', async () => {
    const used = await createTag();
    const unused = await createTag();

    const user = await createUserWithTags([used.id]);
    const afterCreate = await call('GET', `/api/v2/tags/${used.id}`, { token: admin });
    const sorted = await call('GET', '/api/v2/tags?size=100&sort=usage_count:desc', { token: admin });
    const cleared = await call('PUT', `/api/v2/users/${user.id}/tags`, {
      token: admin,
      body: { tag_ids: [] },
    });
    const afterClear = await call('GET', `/api/v2/tags/${used.id}`, { token: admin });

    expect(afterCreate.body.usage_count).toBe(1);
    const listed = sorted.body.items.filter((t: { id: string }) => [used.id, unused.id].includes(t.id));
    expect(listed.map((t: { id: string; usage_count: number }) => [t.id, t.usage_count])).toEqual([
      [used.id, 1],
      [unused.id, 0],
    ]);
    expect(cleared.status).toBe(200);
    expect(afterClear.body).toMatchObject({ usage_count: 0, lock_version: used.lock_version });
  });

  it('keeps usage_count when the tag itself is edited', async () => {
    const tag = await createTag();
    await createUserWithTags([tag.id]);

    const renamed = await call('PATCH', `/api/v2/tags/${tag.id}`, {
      token: admin,
      body: { name: 'Renamed' },
    });

    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', usage_count: 1, lock_version: 1 });
  });

  it('removes a deleted tag from the users who carried it', async () => {
    const tag = await createTag();
    const user = await createUserWithTags([tag.id]);

    expect((await call('DELETE', `/api/v2/tags/${tag.id}`, { token: admin })).status).toBe(204);
    const userTags = await call('GET', `/api/v2/users/${user.id}/tags`, { token: admin });

    expect(userTags.status).toBe(200);
    expect(userTags.body.items.map((t: { id: string }) => t.id)).not.toContain(tag.id);
  });

  it('deletes with 204 and then answers 404', async () => {
    const tag = await createTag();

    expect((await call('DELETE', `/api/v2/tags/${tag.id}`, { token: admin })).status).toBe(204);
    expect((await call('GET', `/api/v2/tags/${tag.id}`, { token: admin })).status).toBe(404);
  });
});
