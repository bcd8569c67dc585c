/**
 * Webhook endpoints over HTTP: the field rules, the secret shown only on create and rotate,
 * subscriptions checked against the event catalog, destinations checked on save, grants and
 * tenant isolation. Deliveries are in webhook-delivery.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let beta: string;

beforeAll(async () => {
  [admin, beta] = await Promise.all([tokenFor('hooks-admin'), tokenFor('beta-admin')]);
});

const newEndpoint = (overrides: Record<string, unknown> = {}) => ({
  display_name: `Hook ${randomUUID().slice(0, 8)}`,
  endpoint_url: 'https://erp.example.com/hooks',
  ...overrides,
});

async function createEndpoint(overrides: Record<string, unknown> = {}, token = admin) {
  const response = await call('POST', '/api/v2/webhook-endpoints', { token, body: newEndpoint(overrides) });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

describe('Webhook endpoints: create', () => {
  it('answers 201 with defaults, a whsec_ secret of 32 bytes, lock_version 0 and a Location', async () => {
    const response = await call('POST', '/api/v2/webhook-endpoints', {
      token: admin,
      body: newEndpoint({ display_name: 'ERP', subscriptions: ['area.*'] }),
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      display_name: 'ERP',
      endpoint_url: 'https://erp.example.com/hooks',
      signature_scheme: 'HMAC_SHA256',
      enabled: true,
      retry: true,
      subscriptions: ['area.*'],
      invalid_subscriptions: [],
      lock_version: 0,
    });
    expect(response.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(response.body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(response.headers.get('location')).toBe(
      `${baseUrl()}/api/v2/webhook-endpoints/${response.body.id}`,
    );
  });

  it('never shows the secret again: not on read, not in the list', async () => {
    const created = await createEndpoint();

    const read = await call('GET', `/api/v2/webhook-endpoints/${created.id}`, { token: admin });
    const list = await call('GET', '/api/v2/webhook-endpoints?size=100', { token: admin });

    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.text).not.toContain(created.secret);
    expect(list.text).not.toContain('whsec_');
    expect(list.body.items.map((e: { id: string }) => e.id)).toContain(created.id);
  });

  it.each([
    {
      title: 'missing display_name',
      body: { endpoint_url: 'https://a.example.com' },
      pointer: '#/display_name',
    },
    { title: 'blank display_name', body: newEndpoint({ display_name: '  ' }), pointer: '#/display_name' },
    {
      title: 'display_name of 256',
      body: newEndpoint({ display_name: 'x'.repeat(256) }),
      pointer: '#/display_name',
    },
    { title: 'missing endpoint_url', body: { display_name: 'x' }, pointer: '#/endpoint_url' },
    {
      title: 'endpoint_url not http(s)',
      body: newEndpoint({ endpoint_url: 'ftp://a.example.com' }),
      pointer: '#/endpoint_url',
    },
    {
      title: 'endpoint_url of 2049',
      body: newEndpoint({ endpoint_url: `https://a.example.com/${'x'.repeat(2027)}` }),
      pointer: '#/endpoint_url',
    },
    {
      title: 'unknown signature_scheme',
      body: newEndpoint({ signature_scheme: 'RSA' }),
      pointer: '#/signature_scheme',
    },
    {
      title: '101 subscriptions',
      body: newEndpoint({ subscriptions: Array.from({ length: 101 }, () => 'area.created') }),
      pointer: '#/subscriptions',
    },
    {
      title: 'a subscription of 513 chars',
      body: newEndpoint({ subscriptions: [`area.${'x'.repeat(507)}`] }),
      pointer: '#/subscriptions/0',
    },
  ])('refuses $title with a 422 at $pointer', async ({ body, pointer }) => {
    const response = await call('POST', '/api/v2/webhook-endpoints', { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('refuses a pattern that can never match, pointing at its index', async () => {
    const response = await call('POST', '/api/v2/webhook-endpoints', {
      token: admin,
      body: newEndpoint({ subscriptions: ['area.created', 'user.*', 'unicorn.*', 'folder_archive.created'] }),
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '#/subscriptions/2',
      '#/subscriptions/3',
    ]);
  });

  it.each(['Area.created', 'area.', 'fold*', 'area..created', '**'])(
    'refuses the malformed pattern %s',
    async (pattern) => {
      const response = await call('POST', '/api/v2/webhook-endpoints', {
        token: admin,
        body: newEndpoint({ subscriptions: [pattern] }),
      });

      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({
        pointer: '#/subscriptions/0',
        type: problemType('field-invalid'),
      });
    },
  );

  it('accepts every pattern form of the spec that matches the catalog', async () => {
    const subscriptions = ['area.created', 'area.*', '*.created', '*', 'user.updated', 'tag.*'];
    const endpoint = await createEndpoint({ subscriptions });

    expect(endpoint.subscriptions).toEqual(subscriptions);
    expect(endpoint.invalid_subscriptions).toEqual([]);
  });
});

describe('Webhook endpoints: destinations checked on save', () => {
  it.each([
    { title: 'a private address', url: 'https://10.0.0.5/hook' },
    { title: 'link-local metadata', url: 'https://169.254.169.254/latest/meta-data' },
    { title: 'a name resolving to a private address', url: 'https://erp.private.hooks.test/hook' },
    { title: 'credentials in the URL', url: 'https://user:pass@erp.example.com/hook' },
    { title: 'a fragment', url: 'https://erp.example.com/hook#part' },
    { title: 'IPv4-mapped loopback spelled in IPv6', url: 'https://[::ffff:10.0.0.1]/hook' },
    { title: 'CGNAT', url: 'https://100.64.0.1/hook' },
  ])('refuses $title with a 422 at #/endpoint_url', async ({ url }) => {
    const response = await call('POST', '/api/v2/webhook-endpoints', {
      token: admin,
      body: newEndpoint({ endpoint_url: url }),
    });

    expect(response.status, response.text).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/endpoint_url']);
  });

  it('accepts a name that does not resolve yet (it is resolved again before every attempt)', async () => {
    const endpoint = await createEndpoint({ endpoint_url: 'https://not-yet-registered.example.com/hook' });
    expect(endpoint.endpoint_url).toBe('https://not-yet-registered.example.com/hook');
  });

  it('checks the destination on PATCH too', async () => {
    const endpoint = await createEndpoint();
    const response = await call('PATCH', `/api/v2/webhook-endpoints/${endpoint.id}`, {
      token: admin,
      body: { endpoint_url: 'https://192.168.1.10/hook' },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe('#/endpoint_url');
  });
});

describe('Webhook endpoints: update, rotate, delete', () => {
  it('merge-patches fields, replaces subscriptions whole and advances lock_version', async () => {
    const endpoint = await createEndpoint({ subscriptions: ['area.*', 'tag.*'] });

    const response = await call('PATCH', `/api/v2/webhook-endpoints/${endpoint.id}`, {
      token: admin,
      body: { display_name: 'Renamed', enabled: false, subscriptions: ['user.created'], lock_version: 0 },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      display_name: 'Renamed',
      enabled: false,
      retry: true,
      subscriptions: ['user.created'],
      lock_version: 1,
    });
    expect(response.body).not.toHaveProperty('secret');
  });

  it.each([
    { field: 'display_name', value: null },
    { field: 'display_name', value: ' ' },
    { field: 'endpoint_url', value: null },
    { field: 'endpoint_url', value: '' },
    { field: 'retry', value: null },
    { field: 'subscriptions', value: null },
    { field: 'lock_version', value: null },
  ])('refuses $field = $value with a 422 at its pointer', async ({ field, value }) => {
    const endpoint = await createEndpoint();
    const response = await call('PATCH', `/api/v2/webhook-endpoints/${endpoint.id}`, {
      token: admin,
      body: { [field]: value },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`#/${field}`);
  });

  it('answers 409 for a stale lock_version', async () => {
    const endpoint = await createEndpoint();
    await call('PATCH', `/api/v2/webhook-endpoints/${endpoint.id}`, {
      token: admin,
      body: { enabled: false },
    });

    const response = await call('PATCH', `/api/v2/webhook-endpoints/${endpoint.id}`, {
      token: admin,
      body: { enabled: true, lock_version: 0 },
    });

    expect(response.status).toBe(409);
    expect(response.body.type).toEqual(problemType('resource-conflict'));
  });

  it('rotates the secret: a new one, shown once, and lock_version advances', async () => {
    const endpoint = await createEndpoint();

    const rotated = await call('POST', `/api/v2/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      token: admin,
    });

    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.lock_version).toBe(1);
    const read = await call('GET', `/api/v2/webhook-endpoints/${endpoint.id}`, { token: admin });
    expect(read.text).not.toContain('whsec_');
  });

  it('deletes with 204, after which the endpoint is 404', async () => {
    const endpoint = await createEndpoint();

    const deleted = await call('DELETE', `/api/v2/webhook-endpoints/${endpoint.id}`, { token: admin });
    const read = await call('GET', `/api/v2/webhook-endpoints/${endpoint.id}`, { token: admin });

    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(read.status).toBe(404);
  });
});

describe('Webhook endpoints: list', () => {
  it('pages with totals and filters by definition_id (empty until custom objects exist)', async () => {
    await createEndpoint();
    await createEndpoint();

    const first = await call('GET', '/api/v2/webhook-endpoints?size=1&page=0', { token: admin });
    const filtered = await call('GET', `/api/v2/webhook-endpoints?definition_id=${randomUUID()}`, {
      token: admin,
    });
    const malformed = await call('GET', '/api/v2/webhook-endpoints?definition_id=nope', { token: admin });

    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.page.total_elements).toBeGreaterThanOrEqual(2);
    expect(first.body.page.size).toBe(1);
    expect(filtered.body).toMatchObject({ items: [], page: { total_elements: 0 } });
    expect(malformed.status).toBe(422);
  });
});

describe('Webhook endpoints: event catalog', () => {
  it('lists the events endpoints can subscribe to, with resource path and verb', async () => {
    const response = await call('GET', '/api/v2/webhooks/event-types', { token: admin });

    expect(response.status).toBe(200);
    const types = response.body.items.map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['area.created', 'area.updated', 'area.deleted', 'user.created']),
    );
    expect(response.body.items).toContainEqual(
      expect.objectContaining({ type: 'tag.updated', resource_path: 'tag', verb: 'updated' }),
    );
    expect(types).toEqual([...types].sort());
  });
});

describe('Webhook endpoints: grants and tenancy', () => {
  it.each(['hooks-technician', 'hooks-driver'])(
    'refuses a %s with 403 and the required grants',
    async (client) => {
      const token = await tokenFor(client);

      const created = await call('POST', '/api/v2/webhook-endpoints', { token, body: newEndpoint() });

      expect(created.status).toBe(403);
      expect(created.body.data.required_grants).toEqual(['webhooks:create']);
    },
  );

  it('keeps endpoints of another workspace invisible: 404 on read, patch, delete and test', async () => {
    const endpoint = await createEndpoint();
    const path = `/api/v2/webhook-endpoints/${endpoint.id}`;

    expect((await call('GET', path, { token: beta })).status).toBe(404);
    expect((await call('PATCH', path, { token: beta, body: { enabled: false } })).status).toBe(404);
    expect((await call('DELETE', path, { token: beta })).status).toBe(404);
    expect(
      (await call('POST', '/api/v2/webhooks/send-test', { token: beta, body: { endpoint_id: endpoint.id } }))
        .status,
    ).toBe(404);
    const list = await call('GET', '/api/v2/webhook-endpoints?size=100', { token: beta });
    expect(list.body.items.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
  });
});
