/**
 * Custom-object instances over HTTP: the representation of the spec, validation against the
 * definition at its pointers, merge patches with lock_version, readOnly properties, sorting and
 * totals, indexed properties, the permission matrix of PROTECTED types, events and webhook
 * subscriptions stored against the definition's id, and workspace isolation.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Receiver, startReceiver } from '../doubles/webhook-receiver.ts';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let dispatcher: string;
let technician: string;
let beta: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  [admin, dispatcher, technician, beta] = await Promise.all([
    tokenFor('cases-admin'),
    tokenFor('cases-dispatcher'),
    tokenFor('cases-technician'),
    tokenFor('beta-admin'),
  ]);
});

afterAll(async () => {
  for (const receiver of receivers) await receiver.stop();
});

const uniqueSlug = (base: string) => `${base}_${randomUUID().slice(0, 8)}`;
const pointers = (response: { body: { errors?: Array<{ pointer: string }> } }) =>
  (response.body.errors ?? []).map((error) => error.pointer).sort();

async function define(body: Record<string, unknown> = {}, token = admin) {
  const slug = uniqueSlug('invoice');
  const response = await call('POST', '/api/v2/custom-objects/definitions', {
    token,
    body: {
      slug,
      title: 'Invoice',
      type: 'object',
      properties: {
        number: { type: 'string', readOnly: true },
        amount: { type: 'number' },
        status: { type: 'string', enum: ['OPEN', 'PAID'] },
        due_on: { type: 'string', format: 'date' },
        customer: { type: 'object', properties: { name: { type: 'string' }, city: { type: 'string' } } },
      },
      required: ['number'],
      ...body,
    },
  });
  expect(response.status, response.text).toBe(201);
  return { slug, id: response.body.id as string };
}

async function createInstance(slug: string, data: Record<string, unknown>, token = admin) {
  const response = await call('POST', `/api/v2/custom-objects/instances/${slug}`, { token, body: { data } });
  expect(response.status, response.text).toBe(201);
  return response;
}

describe('Custom-object instances', () => {
  it('creates an instance with the representation of the spec, Location naming it', async () => {
    const { slug } = await define();
    const created = await createInstance(slug, { number: 'INV-1', amount: 12.5, status: 'OPEN' });
    const read = await call('GET', `/api/v2/custom-objects/instances/${slug}/${created.body.data.id}`, {
      token: technician,
    });

    expect(created.headers.get('location')).toMatch(
      new RegExp(`/api/v2/custom-objects/instances/${slug}/${created.body.data.id}$`),
    );
    expect(created.body).toEqual({
      schema: { $schema: expect.any(String), slug, title: 'Invoice', type: 'object' },
      data: {
        id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        number: 'INV-1',
        amount: 12.5,
        status: 'OPEN',
      },
      display_value: 'INV-1',
      lock_version: 0,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it.each([
    [{ amount: 1 }, ['#/data/number'], 'field-required'],
    [{ number: 'A', amount: 'ten' }, ['#/data/amount'], 'field-type-invalid'],
    [{ number: 'A', status: 'LOST' }, ['#/data/status'], 'validation-failed'],
    [{ number: 'A', due_on: '31.12.2026' }, ['#/data/due_on'], 'validation-failed'],
    [{ number: 'A', colour: 'red' }, ['#/data/colour'], 'validation-failed'],
    [{ number: 'A', customer: { name: 'X', zip: '1' } }, ['#/data/customer/zip'], 'validation-failed'],
  ])('refuses data %j with 422 at %j', async (data, expected, type) => {
    const { slug } = await define();
    const response = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
      token: admin,
      body: { data },
    });
    expect(response.status, response.text).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(pointers(response)).toEqual(expected);
  });

  it('merges patches (nested objects merge, null removes), keeps readOnly values and applies lock_version', async () => {
    const { slug } = await define();
    const created = await createInstance(slug, {
      number: 'INV-2',
      amount: 10,
      customer: { name: 'Ada', city: 'Bonn' },
    });
    const path = `/api/v2/custom-objects/instances/${slug}/${created.body.data.id}`;
    const patched = await call('PATCH', path, {
      token: dispatcher,
      body: { data: { amount: null, customer: { city: 'Köln' }, status: 'PAID' }, lock_version: 0 },
    });
    const stale = await call('PATCH', path, {
      token: admin,
      body: { data: { status: 'OPEN' }, lock_version: 0 },
    });
    const readOnly = await call('PATCH', path, { token: admin, body: { data: { number: 'INV-3' } } });

    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({
      number: 'INV-2',
      status: 'PAID',
      customer: { name: 'Ada', city: 'Köln' },
    });
    expect(patched.body.data).not.toHaveProperty('amount');
    expect(patched.body.lock_version).toBe(1);
    expect(stale.status).toBe(409);
    expect(readOnly.status).toBe(422);
    expect(pointers(readOnly)).toEqual(['#/data/number']);
  });

  it('lists by id (creation order) by default, sorts by a property and counts from counters', async () => {
    const { slug } = await define({ indexed_properties: ['amount'] });
    const amounts = [30, 10, 20];
    const ids: string[] = [];
    for (const amount of amounts)
      ids.push((await createInstance(slug, { number: `N${amount}`, amount })).body.data.id);
    const byDefault = await call('GET', `/api/v2/custom-objects/instances/${slug}`, { token: admin });
    const byAmount = await call('GET', `/api/v2/custom-objects/instances/${slug}?sort=amount:desc&size=2`, {
      token: admin,
    });
    const byNumber = await call('GET', `/api/v2/custom-objects/instances/${slug}?sort=number:asc`, {
      token: admin,
    });
    const unknown = await call('GET', `/api/v2/custom-objects/instances/${slug}?sort=colour:asc`, {
      token: admin,
    });

    expect(byDefault.body.items.map((item: { data: { id: string } }) => item.data.id)).toEqual(ids);
    expect(byDefault.body.schema.slug).toBe(slug);
    expect(byDefault.body.page).toMatchObject({ total_elements: 3, number: 0 });
    expect(byAmount.body.items.map((item: { data: { amount: number } }) => item.data.amount)).toEqual([
      30, 20,
    ]);
    expect(byAmount.body.page).toMatchObject({ total_elements: 3, total_pages: 2, size: 2 });
    expect(byNumber.body.items.map((item: { data: { number: string } }) => item.data.number)).toEqual([
      'N10',
      'N20',
      'N30',
    ]);
    expect(unknown.status).toBe(422);
  });

  it('deletes an instance (204, then 404) and emits custom_object.<slug>.* events naming the definition', async () => {
    const { slug, id: definitionId } = await define();
    const created = await createInstance(slug, { number: 'INV-9' });
    const path = `/api/v2/custom-objects/instances/${slug}/${created.body.data.id}`;
    const deleted = await call('DELETE', path, { token: admin });
    const read = await call('GET', path, { token: admin });

    expect(deleted.status).toBe(204);
    expect(read.status).toBe(404);
    const entries = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = (log.body.items as Array<{ event_type: string; resource: { id: string } }>).filter(
        (entry) => entry.resource.id === created.body.data.id,
      );
      if (found.length < 2) throw new Error('not yet');
      return found;
    });
    expect(entries.map((entry) => entry.event_type).sort()).toEqual([
      `custom_object.${slug}.created`,
      `custom_object.${slug}.deleted`,
    ]);
    const types = await call('GET', '/api/v2/webhooks/event-types', { token: admin });
    expect(types.body.items).toContainEqual(
      expect.objectContaining({
        type: `custom_object.${slug}.created`,
        resource_path: `custom_object.${slug}`,
        verb: 'created',
        definition_slug: slug,
      }),
    );
    void definitionId;
  });

  it('creates an instance holding two properties that sanitize to one GraphQL name, keeps both in REST and exposes one through GraphQL', async () => {
    // Prepare: `a-b` and `a_b` are both `a_b` in GraphQL (SPEC.md, "Name sanitizing").
    const { slug } = await define({
      properties: { number: { type: 'string' }, 'a-b': { type: 'string' }, a_b: { type: 'string' } },
      required: [],
    });

    // Act
    const created = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
      token: admin,
      body: { data: { number: 'INV-AB', 'a-b': 'hyphen', a_b: 'underscore' } },
    });
    const read = await call('GET', `/api/v2/custom-objects/instances/${slug}/${created.body?.data?.id}`, {
      token: admin,
    });
    const patched = await call(
      'PATCH',
      `/api/v2/custom-objects/instances/${slug}/${created.body?.data?.id}`,
      {
        token: admin,
        body: { data: { 'a-b': 'hyphen 2' } },
      },
    );
    const query = await call('POST', '/api/v2/graphql', {
      token: admin,
      body: { query: `{ ${slug} { totalCount edges { node { number a_b } } } }` },
    });

    // Assess
    expect(created.status, created.text).toBe(201);
    expect(read.body.data).toMatchObject({ number: 'INV-AB', 'a-b': 'hyphen', a_b: 'underscore' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ 'a-b': 'hyphen 2', a_b: 'underscore' });
    expect(query.body.errors, query.text).toBeUndefined();
    // The property already named as GraphQL names it wins, whatever order the store keeps.
    expect(query.body.data[slug]).toEqual({
      totalCount: 1,
      edges: [{ node: { number: 'INV-AB', a_b: 'underscore' } }],
    });
  });

  it('keeps instances of one workspace away from another (404), and refuses writes without the grant', async () => {
    const { slug } = await define();
    const created = await createInstance(slug, { number: 'INV-5' });
    const foreign = await call('GET', `/api/v2/custom-objects/instances/${slug}/${created.body.data.id}`, {
      token: beta,
    });
    const write = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
      token: technician,
      body: { data: { number: 'X' } },
    });

    expect(foreign.status).toBe(404);
    expect(write.status).toBe(403);
    expect(write.body.data.required_grants).toEqual(['custom-objects:instances:update']);
  });
});

describe('Deleting a definition', () => {
  it('removes its instances in the background, in steps, and a new definition of that slug starts empty', async () => {
    const { slug, id: definitionId } = await define();
    for (let i = 0; i < 5; i++) await createInstance(slug, { number: `D-${i}` });
    const workspaceId = JSON.parse(Buffer.from(admin.split('.')[1] ?? '', 'base64url').toString()).tenant_id;
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: inject('dynamodbEndpoint'),
        region: 'eu-central-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    const stored = async () =>
      (
        await db.send(
          new QueryCommand({
            TableName: 'fsm',
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `T#${workspaceId}#CO_INST#${definitionId}` },
            Select: 'COUNT',
          }),
        )
      ).Count ?? 0;
    expect(await stored()).toBe(5);

    const deleted = await call('DELETE', `/api/v2/custom-objects/definitions/${slug}`, { token: admin });
    expect(deleted.status).toBe(204);
    // FSM_CUSTOM_OBJECT_PURGE_STEP=2 in the test stack: three steps, each its own outbox event.
    await eventually(async () => {
      const left = await stored();
      if (left !== 0) throw new Error(`${left} instances left`);
    });
    await call('POST', '/api/v2/custom-objects/definitions', {
      token: admin,
      body: { slug, title: 'Again', type: 'object', properties: { number: { type: 'string' } } },
    });
    const list = await call('GET', `/api/v2/custom-objects/instances/${slug}`, { token: admin });
    expect(list.body).toMatchObject({ items: [], page: { total_elements: 0 } });
  });
});

describe('Permission matrix of PROTECTED types', () => {
  it('decides who reads and writes instances; STANDARD types have none (422)', async () => {
    const { slug } = await define({ access_class: 'PROTECTED' });
    const created = await createInstance(slug, { number: 'P-1' });
    const path = `/api/v2/custom-objects/instances/${slug}/${created.body.data.id}`;
    const before = await call('GET', path, { token: technician });
    const empty = await call('GET', `/api/v2/custom-objects/definitions/${slug}/permissions`, {
      token: admin,
    });
    const put = await call('PUT', `/api/v2/custom-objects/definitions/${slug}/permissions`, {
      token: admin,
      body: {
        entries: [
          { principal_type: 'role', role_name: 'technician', level: 'read' },
          { principal_type: 'role', role_name: 'dispatcher', level: 'write' },
        ],
      },
    });
    const afterRead = await call('GET', path, { token: technician });
    const techWrite = await call('PATCH', path, { token: technician, body: { data: { amount: 1 } } });
    const dispatcherWrite = await call('PATCH', path, { token: dispatcher, body: { data: { amount: 2 } } });
    const byDispatcher = await call('GET', `/api/v2/custom-objects/definitions/${slug}/permissions`, {
      token: dispatcher,
    });
    const badRole = await call('PUT', `/api/v2/custom-objects/definitions/${slug}/permissions`, {
      token: admin,
      body: { entries: [{ principal_type: 'role', role_name: 'pilot', level: 'read' }] },
    });
    const standard = await define();
    const none = await call('GET', `/api/v2/custom-objects/definitions/${standard.slug}/permissions`, {
      token: admin,
    });

    expect(before.status).toBe(403);
    expect(empty.body).toEqual({ definition_slug: slug, entries: [] });
    expect(put.status, put.text).toBe(200);
    expect(put.body.entries).toHaveLength(2);
    expect(afterRead.status).toBe(200);
    expect(techWrite.status).toBe(403);
    expect(dispatcherWrite.status, dispatcherWrite.text).toBe(200);
    expect(byDispatcher.status).toBe(403);
    expect(byDispatcher.body.data.required_grants).toEqual(['custom-objects:definitions:edit-permissions']);
    expect(badRole.status).toBe(422);
    expect(pointers(badRole)).toEqual(['#/entries/0/role_name']);
    expect(none.status).toBe(422);
  });
});

describe('Webhook subscriptions to custom objects', () => {
  it('are stored against the definition id: a rename keeps them matching and changes the delivered type', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { slug, id: definitionId } = await define();
    const endpoint = await call('POST', '/api/v2/webhook-endpoints', {
      token: admin,
      body: {
        display_name: 'Invoices',
        endpoint_url: `${receiver.url}/hook`,
        subscriptions: [`custom_object.${slug}.*`],
      },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const renamed = `${slug}_v2`;
    const patch = await call('PATCH', `/api/v2/custom-objects/definitions/${slug}`, {
      token: admin,
      body: { slug: renamed },
    });
    expect(patch.status, patch.text).toBe(200);
    const created = await createInstance(renamed, { number: 'W-1' });

    const [delivered] = await receiver.waitFor(
      1,
      (request) => request.json?.data?.object?.data?.id === created.body.data.id,
    );
    const read = await call('GET', `/api/v2/webhook-endpoints/${endpoint.body.id}`, { token: admin });
    const scoped = await call('GET', `/api/v2/webhook-endpoints?definition_id=${definitionId}`, {
      token: admin,
    });

    expect(delivered?.json).toMatchObject({
      type: `custom_object.${renamed}.created`,
      data: { object: { definition_id: definitionId, definition_slug: renamed } },
    });
    expect(read.body.subscriptions).toEqual([`custom_object.${renamed}.*`]);
    expect(scoped.body.items.map((item: { id: string }) => item.id)).toEqual([endpoint.body.id]);

    // Deleted and created again with the same slug: the old subscription does not revive.
    await call('DELETE', `/api/v2/custom-objects/definitions/${renamed}`, { token: admin });
    const again = await call('POST', '/api/v2/custom-objects/definitions', {
      token: admin,
      body: { slug: renamed, title: 'Again', type: 'object', properties: { number: { type: 'string' } } },
    });
    expect(again.status).toBe(201);
    const orphan = await call('GET', `/api/v2/webhook-endpoints/${endpoint.body.id}`, { token: admin });
    // Orphaned: shown as it was sent, and invalid (it matches nothing any more).
    expect(orphan.body.invalid_subscriptions).toEqual([`custom_object.${slug}.*`]);
    const second = await createInstance(renamed, { number: 'W-2' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      receiver.received.some((request) => request.json?.data?.object?.data?.id === second.body.data.id),
    ).toBe(false);
    await call('DELETE', `/api/v2/webhook-endpoints/${endpoint.body.id}`, { token: admin });
  });
});
