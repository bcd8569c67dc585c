/**
 * Custom-object definitions over HTTP (Case Works): create with the supported JSON-Schema
 * keywords, 422s at the exact pointer with a suggested fix, unique slugs (409), renames that keep
 * the id, merge patches of properties, grants, events and workspace isolation.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let technician: string;
let beta: string;

beforeAll(async () => {
  [admin, technician, beta] = await Promise.all([
    tokenFor('cases-admin'),
    tokenFor('cases-technician'),
    tokenFor('beta-admin'),
  ]);
});

const uniqueSlug = (base: string) => `${base}_${randomUUID().slice(0, 8)}`;
const pointers = (response: { body: { errors?: Array<{ pointer: string }> } }) =>
  (response.body.errors ?? []).map((error) => error.pointer).sort();

const invoiceBody = (slug: string) => ({
  slug,
  title: 'Invoice',
  type: 'object',
  properties: {
    number: { type: 'string', readOnly: true },
    amount: { type: 'number' },
    status: { type: 'string', enum: ['OPEN', 'PAID'] },
    due_on: { type: 'string', format: 'date' },
    lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
  },
  required: ['number'],
});

async function create(body: Record<string, unknown>, token = admin) {
  const response = await call('POST', '/api/v2/custom-objects/definitions', { token, body });
  expect(response.status, response.text).toBe(201);
  return response;
}

describe('Custom-object definitions', () => {
  it('creates a definition with the keywords flat beside slug and title, and reads it by slug', async () => {
    const slug = uniqueSlug('invoice');
    const created = await create(invoiceBody(slug));
    const read = await call('GET', `/api/v2/custom-objects/definitions/${slug}`, { token: technician });

    expect(created.headers.get('location')).toMatch(
      new RegExp(`/api/v2/custom-objects/definitions/${slug}$`),
    );
    expect(created.body).toMatchObject({
      slug,
      title: 'Invoice',
      access_class: 'STANDARD',
      type: 'object',
      required: ['number'],
      lock_version: 0,
    });
    expect(created.body.properties.status).toEqual({ type: 'string', enum: ['OPEN', 'PAID'] });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it.each([
    [{ slug: 'Work Order' }, ['#/slug'], 'work_order'],
    [{ required: [], properties: { id: { type: 'string' } } }, ['#/properties/id'], 'id_value'],
    [{ required: [], properties: { a: { type: 'decimal' } } }, ['#/properties/a/type'], undefined],
    [
      { required: [], properties: { a: { type: 'string', pattern: '^x' } } },
      ['#/properties/a/pattern'],
      undefined,
    ],
    [
      { required: [], properties: { a: { type: 'string', enum: ['a-b', 'a_b'] } } },
      ['#/properties/a/enum/1'],
      undefined,
    ],
    [{ required: ['nothing'] }, ['#/required/0'], undefined],
    [{ additionalProperties: false }, ['#/additionalProperties'], undefined],
  ])('refuses %j with 422 at %j', async (change, expected, suggestion) => {
    const body = { ...invoiceBody(uniqueSlug('bad')), ...change };
    const response = await call('POST', '/api/v2/custom-objects/definitions', { token: admin, body });
    expect(response.status, response.text).toBe(422);
    expect(pointers(response)).toEqual(expected);
    if (suggestion) expect(response.text).toContain(suggestion);
  });

  it('refuses a slug whose GraphQL types meet the enum or nested types of another definition (422 at #/slug)', async () => {
    const slug = uniqueSlug('order');
    await create({ ...invoiceBody(slug), required: [] });
    // `<slug>_status` is the enum type of the first definition's status property.
    const clash = await call('POST', '/api/v2/custom-objects/definitions', {
      token: admin,
      body: { ...invoiceBody(`${slug}_status`), required: [] },
    });
    expect(clash.status, clash.text).toBe(422);
    expect(pointers(clash)).toEqual(['#/slug']);
    expect(clash.text).toContain(`${slug}_status`);
  });

  it('keeps slugs unique per workspace (409 at #/slug), but another workspace may use the same slug', async () => {
    const slug = uniqueSlug('asset');
    await create(invoiceBody(slug));
    const again = await call('POST', '/api/v2/custom-objects/definitions', {
      token: admin,
      body: invoiceBody(slug),
    });
    const elsewhere = await call('POST', '/api/v2/custom-objects/definitions', {
      token: beta,
      body: invoiceBody(slug),
    });

    expect(again.status).toBe(409);
    expect(again.body.type).toEqual(problemType('resource-conflict'));
    expect(pointers(again)).toEqual(['#/slug']);
    expect(elsewhere.status).toBe(201);
  });

  it('renames a definition: the id stays, the old slug is 404 and free again', async () => {
    const slug = uniqueSlug('contract');
    const created = await create(invoiceBody(slug));
    const renamed = `${slug}_v2`;
    const patch = await call('PATCH', `/api/v2/custom-objects/definitions/${slug}`, {
      token: admin,
      body: { slug: renamed, lock_version: 0 },
    });
    const old = await call('GET', `/api/v2/custom-objects/definitions/${slug}`, { token: admin });
    const reuse = await call('POST', '/api/v2/custom-objects/definitions', {
      token: admin,
      body: invoiceBody(slug),
    });

    expect(patch.status, patch.text).toBe(200);
    expect(patch.body).toMatchObject({ id: created.body.id, slug: renamed, lock_version: 1 });
    expect(old.status).toBe(404);
    expect(reuse.status).toBe(201);
    expect(reuse.body.id).not.toBe(created.body.id);
  });

  it('merges properties per property (null removes one) and applies lock_version', async () => {
    const slug = uniqueSlug('ticket');
    await create(invoiceBody(slug));
    const merged = await call('PATCH', `/api/v2/custom-objects/definitions/${slug}`, {
      token: admin,
      body: { properties: { due_on: null, priority: { type: 'integer' } }, title: 'Ticket' },
    });
    const stale = await call('PATCH', `/api/v2/custom-objects/definitions/${slug}`, {
      token: admin,
      body: { title: 'x', lock_version: 0 },
    });
    const invalid = await call('PATCH', `/api/v2/custom-objects/definitions/${slug}`, {
      token: admin,
      body: { properties: { created_at: { type: 'string' } } },
    });

    expect(merged.status, merged.text).toBe(200);
    expect(Object.keys(merged.body.properties).sort()).toEqual([
      'amount',
      'lines',
      'number',
      'priority',
      'status',
    ]);
    expect(merged.body.title).toBe('Ticket');
    expect(stale.status).toBe(409);
    expect(invalid.status).toBe(422);
    expect(pointers(invalid)).toEqual(['#/properties/created_at']);
  });

  it('lists definitions by slug with totals, only of the workspace', async () => {
    const slugs = [uniqueSlug('zz_list_b'), uniqueSlug('zz_list_a')];
    for (const slug of slugs) await create(invoiceBody(slug));
    const list = await call('GET', '/api/v2/custom-objects/definitions?size=100', { token: admin });
    const other = await call('GET', '/api/v2/custom-objects/definitions?size=100', { token: beta });
    const listed = (list.body.items as Array<{ slug: string }>).map((item) => item.slug);

    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(slugs));
    expect(list.body.page.total_elements).toBe(listed.length);
    expect((other.body.items as Array<{ slug: string }>).map((item) => item.slug)).not.toContain(slugs[0]);
  });

  it('lets technicians read but not write definitions', async () => {
    const write = await call('POST', '/api/v2/custom-objects/definitions', {
      token: technician,
      body: invoiceBody(uniqueSlug('nope')),
    });
    expect(write.status).toBe(403);
    expect(write.body.data.required_grants).toEqual(['custom-objects:definitions:update']);
  });

  it('deletes a definition (204, then 404) and records its events', async () => {
    const slug = uniqueSlug('gone');
    const created = await create(invoiceBody(slug));
    const deleted = await call('DELETE', `/api/v2/custom-objects/definitions/${slug}`, { token: admin });
    const read = await call('GET', `/api/v2/custom-objects/definitions/${slug}`, { token: admin });

    expect(deleted.status).toBe(204);
    expect(read.status).toBe(404);
    const types = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = (log.body.items as Array<{ event_type: string; resource: { id: string } }>)
        .filter((entry) => entry.resource.id === created.body.id)
        .map((entry) => entry.event_type);
      if (found.length < 2) throw new Error('not yet');
      return found.sort();
    });
    expect(types).toEqual(['custom_object_definition.created', 'custom_object_definition.deleted']);
  });
});
