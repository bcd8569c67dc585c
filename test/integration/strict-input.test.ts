/**
 * Strict input and clearer answers (API-DECISIONS.md, "Strict input"; SPEC.md, Conventions and
 * Errors): what a caller sends is never silently ignored, refusals name what was wrong in the
 * service's own words, and answers omit absent values instead of sending null.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, problemType, tokenFor } from '../support/api.ts';

let dispatcher: string;
let admin: string;

beforeAll(async () => {
  dispatcher = await tokenFor('acme-dispatcher');
  admin = await tokenFor('acme-admin');
});

const newCase = () => ({ title: `Strict input ${randomUUID().slice(0, 8)}` });

async function createCase() {
  const created = await call('POST', '/api/v2/cases', { token: dispatcher, body: newCase() });
  expect(created.status).toBe(201);
  return created.body as { id: string; lock_version: number; title: string };
}

describe('Strict input: query parameters', () => {
  it('refuses a filter the list does not publish instead of answering the unfiltered list', async () => {
    const response = await call('GET', '/api/v2/cases?status=NEW', { token: dispatcher });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('validation-failed'));
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        type: problemType('field-unknown'),
        pointer: '#/query/status',
        data: { parameter: 'status', suggestion: 'statuses' },
      }),
    ]);
  });

  it.each(['page_size=5', 'limit=5', 'offset=10'])(
    'refuses the paging parameter of another API: %s',
    async (query) => {
      const response = await call('GET', `/api/v2/areas?${query}`, { token: dispatcher });

      expect(response.status).toBe(422);
      const name = query.split('=')[0];
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          pointer: `#/query/${name}`,
          data: expect.objectContaining({ parameter: name }),
        }),
      ]);
    },
  );

  it('refuses a repeated singular key, naming it', async () => {
    const roleId = randomUUID();
    const response = await call('GET', `/api/v2/users?role=admin&role=owner&role_ids=${roleId}`, {
      token: admin,
    });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        pointer: '#/query/role',
        data: expect.objectContaining({ parameter: 'role' }),
      }),
    ]);
  });

  it('refuses a query parameter on an operation that takes none', async () => {
    const created = await createCase();

    const response = await call('GET', `/api/v2/cases/${created.id}?expand=all`, { token: dispatcher });

    expect(response.status).toBe(422);
    expect(response.body.errors?.[0]).toMatchObject({ pointer: '#/query/expand' });
  });

  it('refuses an unknown parameter of the event stream with a problem document', async () => {
    const response = await call('GET', '/api/v2/events/stream?last_event_id=x', { token: dispatcher });

    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.errors?.[0]).toMatchObject({
      pointer: '#/query/last_event_id',
      data: { parameter: 'last_event_id', suggestion: 'lastEventId' },
    });
  });
});

describe('Strict input: body keys', () => {
  it('refuses a key the write does not know, suggests the near one, and changes nothing', async () => {
    const created = await createCase();

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { titel: 'Renamed' },
    });
    const after = await call('GET', `/api/v2/cases/${created.id}`, { token: dispatcher });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      {
        type: problemType('field-unknown'),
        title: 'Unknown field',
        detail: 'is not a field of this operation; did you mean title?',
        pointer: '#/titel',
        data: { suggestion: 'title' },
      },
    ]);
    expect(after.body.lock_version).toBe(created.lock_version);
    expect(after.body.title).toBe(created.title);
  });

  it('refuses a state sent under a name the case does not have, instead of answering 200', async () => {
    const created = await createCase();

    const response = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { state: 'DONE' },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors?.[0]).toMatchObject({ pointer: '#/state', data: { suggestion: 'status' } });
  });

  it('refuses read-only keys of the representation in a write', async () => {
    const response = await call('POST', '/api/v2/areas', {
      token: dispatcher,
      body: {
        name: 'Read-only keys',
        color: '#123456',
        id: randomUUID(),
        created_at: '2026-01-01T00:00:00Z',
      },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/created_at',
      '#/id',
    ]);
  });

  it('refuses unknown keys inside nested objects at their pointers', async () => {
    const response = await call('POST', '/api/v2/areas', {
      token: dispatcher,
      body: {
        name: 'Nested',
        color: '#123456',
        zip_ranges: [{ from: '10000', to: '10999', until: '11000' }],
      },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: '#/zip_ranges/0/until' })]);
  });

  it('refuses a body sent to an operation that takes none, and accepts an empty object', async () => {
    const created = await call('POST', '/api/v2/areas', {
      token: dispatcher,
      body: { name: 'Bodyless', color: '#123456' },
    });

    const refused = await call('DELETE', `/api/v2/areas/${created.body.id}`, {
      token: dispatcher,
      body: { force: true },
    });
    const accepted = await call('DELETE', `/api/v2/areas/${created.body.id}`, {
      token: dispatcher,
      body: {},
    });

    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '#/force' })]);
    expect(accepted.status).toBe(204);
  });
});

describe('Validation answers', () => {
  it('words a missing body in its own terms, never the validation library’s', async () => {
    const response = await call('POST', '/api/v2/webhooks/send-test', { token: admin });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        type: problemType('field-required'),
        pointer: '#/endpoint_id',
        detail: 'is required',
      }),
    ]);
    expect(response.text).not.toMatch(/Invalid input|expected string|received undefined/);
  });

  it.each([
    {
      path: '/api/v2/webhooks/send-test',
      body: { endpoint_id: '' },
      pointer: '#/endpoint_id',
      method: 'POST',
    },
    { path: '/api/v2/ai-assistant/settings', body: { mode: '' }, pointer: '#/mode', method: 'PATCH' },
    { path: '/api/v2/devices', body: { kind: ' ' }, pointer: '#/kind', method: 'POST' },
  ])('answers a blank $pointer as field-required', async ({ path, body, pointer, method }) => {
    const response = await call(method, path, { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('field-required'));
    expect(response.body.errors).toEqual([
      expect.objectContaining({ type: problemType('field-required'), pointer, detail: 'must not be blank' }),
    ]);
  });

  it('answers a blank string in custom-object data as field-required, required property or not', async () => {
    const slug = `ticket_${randomUUID().slice(0, 8)}`;
    const definition = await call('POST', '/api/v2/custom-objects/definitions', {
      token: admin,
      body: {
        slug,
        title: 'Ticket',
        type: 'object',
        properties: { subject: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['subject'],
      },
    });
    expect(definition.status, definition.text).toBe(201);

    const blank = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
      token: admin,
      body: { data: { subject: '', tags: ['ok', '  '] } },
    });
    const created = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
      token: admin,
      body: { data: { subject: 'Printer jam' } },
    });
    const patched = await call('PATCH', `/api/v2/custom-objects/instances/${slug}/${created.body.data?.id}`, {
      token: admin,
      body: { data: { subject: ' ' } },
    });

    expect(blank.status).toBe(422);
    expect(blank.body.type).toEqual(problemType('field-required'));
    expect(blank.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/data/subject',
      '#/data/tags/1',
    ]);
    expect(created.status).toBe(201);
    expect(patched.status).toBe(422);
    expect(patched.body.errors).toEqual([
      expect.objectContaining({ type: problemType('field-required'), pointer: '#/data/subject' }),
    ]);
  });

  it('answers a huge array with one bounded 422, quickly', async () => {
    // 100,000 elements within the body size limit: numbers where uuids belong.
    const roleIds = Array.from({ length: 100_000 }, (_, i) => i);
    const started = performance.now();

    const response = await call('POST', '/api/v2/users', {
      token: admin,
      body: { email: `huge-${randomUUID()}@acme.test`, firstname: 'H', lastname: 'Uge', role_ids: roleIds },
    });

    expect(response.status).toBe(422);
    expect(response.text.length).toBeLessThan(4_000);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ pointer: '#/role_ids', data: expect.objectContaining({ items: 100_000 }) }),
    ]);
    // Not a timed goal (bench/fuzz.bench.ts measures); a bound that catches per-element work.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('lists at most 100 errors and says in data how many there were', async () => {
    const zipRanges = Array.from({ length: 500 }, () => ({ from: '', to: '' }));

    const response = await call('POST', '/api/v2/areas', {
      token: dispatcher,
      body: { name: 'Many errors', color: '#123456', zip_ranges: zipRanges },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveLength(100);
    expect(response.body.data).toEqual({ errors_truncated: true, errors_listed: 100, errors_total: 1_000 });
  });
});

describe('Conflicts', () => {
  it('tells the current lock_version in a 409', async () => {
    const created = await createCase();
    await call('PATCH', `/api/v2/cases/${created.id}`, { token: dispatcher, body: { title: 'Once' } });

    const stale = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { title: 'Twice', lock_version: created.lock_version },
    });

    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
    expect(stale.body.data).toEqual({ current_lock_version: created.lock_version + 1 });
  });

  it('tells the current lock_version in a 409 of the tenant record', async () => {
    const tenant = await call('GET', '/api/v2/tenant', { token: admin });

    const stale = await call('PATCH', '/api/v2/tenant', {
      token: admin,
      body: { name: tenant.body.name, lock_version: tenant.body.lock_version + 5 },
    });

    expect(stale.status).toBe(409);
    expect(stale.body.data).toEqual({ current_lock_version: tenant.body.lock_version });
  });
});

describe('Absent values', () => {
  it('omits what a resource does not have instead of sending null', async () => {
    const device = await call('POST', '/api/v2/devices', { token: admin, body: {} });

    const read = await call('GET', `/api/v2/devices/${device.body.id}?include=current_state`, {
      token: admin,
    });
    const state = await call('GET', `/api/v2/devices/${device.body.id}/current-state`, { token: admin });
    const settings = await call('GET', '/api/v2/mcp/settings', { token: admin });

    for (const response of [read, state, settings]) {
      expect(response.status).toBe(200);
      expect(response.text).not.toMatch(/:\s*null/);
    }
    expect(read.body).not.toHaveProperty('current_state');
    expect(state.body).toEqual({ device_id: device.body.id, status: {} });
  });
});

describe('Correlation on the event stream', () => {
  it('sends request-id and the caller’s correlation-id on the stream and on its refusals', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${baseUrl()}/api/v2/events/stream`, {
      headers: { authorization: `Bearer ${dispatcher}`, 'correlation-id': 'stream-corr-1' },
      signal: controller.signal,
    });
    const refused = await call('GET', '/api/v2/events/stream', {
      headers: { 'correlation-id': 'stream-corr-2' },
    });

    expect(stream.status).toBe(200);
    expect(stream.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(stream.headers.get('correlation-id')).toBe('stream-corr-1');
    controller.abort();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.headers.get('correlation-id')).toBe('stream-corr-2');
  });
});
