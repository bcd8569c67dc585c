/**
 * Webhook deliveries end to end: a write of the workspace → outbox → dispatcher → queue → worker
 * → a local receiver whose answers each test controls. The service runs with FSM_TIME_SCALE
 * 0.001 (global-setup.ts): the retry schedule 30 s, 2 min, 10 min, 30 min, 1 h, 2 h becomes
 * 30 ms … 7.2 s, and the 429 floor of 5 min becomes 300 ms. Signatures are verified with the
 * Standard Webhooks reference library, as receivers do.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedWebhook, type Receiver, startReceiver } from '../doubles/webhook-receiver.ts';
import { call, eventually, tokenFor } from '../support/api.ts';

let admin: string;
let retriesAdmin: string;
let beta: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  [admin, retriesAdmin, beta] = await Promise.all([
    tokenFor('hooks-admin'),
    tokenFor('retries-admin'),
    tokenFor('beta-admin'),
  ]);
});

afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.stop();
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

async function endpointFor(
  target: Receiver,
  body: Record<string, unknown> = {},
  token = admin,
): Promise<{ id: string; secret: string; lock_version: number }> {
  const response = await call('POST', '/api/v2/webhook-endpoints', {
    token,
    body: {
      display_name: `Receiver ${randomUUID().slice(0, 6)}`,
      endpoint_url: `${target.url}/hook`,
      ...body,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function createArea(token = admin, name = `Area ${randomUUID().slice(0, 8)}`) {
  const response = await call('POST', '/api/v2/areas', { token, body: { name, color: '#123456' } });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string; lock_version: number };
}

const ofArea = (areaId: string) => (r: ReceivedWebhook) => r.json?.data?.object?.id === areaId;

async function failuresOf(endpointId: string, token = admin) {
  const response = await call(
    'GET',
    `/api/v2/webhooks/delivery-failures?endpoint_id=${endpointId}&size=100`,
    {
      token,
    },
  );
  expect(response.status).toBe(200);
  return response.body as { items: Array<Record<string, any>>; page: { total_elements: number } };
}

/** The endpoint's first failure row (in retry_state `state`, when given), once it exists. */
function rowIn(endpointId: string, state?: string, timeoutMs = 10_000) {
  return eventually(async () => {
    const { items } = await failuresOf(endpointId, retriesAdmin);
    const found = items.find((item) => state === undefined || item.retry_state === state);
    if (!found) throw new Error(`no ${state ?? ''} failure row yet`);
    return found;
  }, timeoutMs);
}

function verify(secret: string, webhook: ReceivedWebhook) {
  return new Webhook(secret).verify(webhook.body, {
    'webhook-id': String(webhook.headers['webhook-id']),
    'webhook-timestamp': String(webhook.headers['webhook-timestamp']),
    'webhook-signature': String(webhook.headers['webhook-signature']),
  });
}

describe('Webhook delivery: envelope and signature', () => {
  it('delivers area.created signed with the endpoint secret, with the envelope of the spec', async () => {
    const target = await receiver();
    const endpoint = await endpointFor(target, { subscriptions: ['area.*'] });

    const area = await createArea();
    const [webhook] = await target.waitFor(1, ofArea(area.id));

    expect(webhook).toBeDefined();
    const delivered = webhook as ReceivedWebhook;
    expect(verify(endpoint.secret, delivered)).toMatchObject({ type: 'area.created' });
    expect(delivered.headers['content-type']).toBe('application/json');
    expect(delivered.headers['request-id']).toBeTruthy();
    expect(delivered.json).toMatchObject({
      type: 'area.created',
      id: delivered.headers['webhook-id'],
      payload_version: 1,
      actor: { type: 'USER' },
      data: { object: { id: area.id, name: area.name } },
    });
    expect(delivered.json.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivered.json.tenant_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(delivered.json.timestamp)).not.toBeNaN();
    expect(delivered.json.data).not.toHaveProperty('previous_attributes');
  });

  it('sends previous_attributes with only the changed keys on an edit', async () => {
    const target = await receiver();
    await endpointFor(target, { subscriptions: ['area.updated'] });
    const area = await createArea();

    await call('PATCH', `/api/v2/areas/${area.id}`, { token: admin, body: { color: '#abcdef' } });
    const [webhook] = await target.waitFor(1, ofArea(area.id));

    expect(webhook?.json).toMatchObject({
      type: 'area.updated',
      data: { object: { color: '#abcdef' }, previous_attributes: { color: '#123456' } },
    });
    expect(Object.keys(webhook?.json.data.previous_attributes)).toEqual(['color']);
  });

  it('delivers once per endpoint however many patterns match, and gives each endpoint its own id', async () => {
    const first = await receiver();
    const second = await receiver();
    await endpointFor(first, { subscriptions: ['area.*', '*.created', '*', 'area.created'] });
    await endpointFor(second, { subscriptions: ['area.created'] });

    const area = await createArea();
    const [a] = await first.waitFor(1, ofArea(area.id));
    const [b] = await second.waitFor(1, ofArea(area.id));
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(first.received.filter(ofArea(area.id))).toHaveLength(1);
    expect(a?.json.event_id).toBe(b?.json.event_id);
    expect(a?.json.id).not.toBe(b?.json.id);
  });

  it('delivers only subscribed events, and nothing of another workspace', async () => {
    const target = await receiver();
    await endpointFor(target, { subscriptions: ['tag.created'] });

    const area = await createArea();
    const foreign = await createArea(beta);
    const tag = await call('POST', '/api/v2/tags', {
      token: admin,
      body: { name: `T${randomUUID().slice(0, 6)}`, color: '#111111' },
    });
    await target.waitFor(1, (r) => r.json?.data?.object?.id === tag.body.id);

    expect(target.received.filter(ofArea(area.id))).toEqual([]);
    expect(target.received.filter(ofArea(foreign.id))).toEqual([]);
  });
});

describe('Webhook delivery: retries', () => {
  it('retries a failing receiver on the schedule and records the row until it succeeds', async () => {
    const target = await receiver();
    target.answer = (_request, index) =>
      index < 3 ? { status: 503, body: 'down for maintenance' } : { status: 204 };
    const endpoint = await endpointFor(target, { subscriptions: ['area.created'] }, retriesAdmin);

    const area = await createArea(retriesAdmin);
    const attempts = await target.waitFor(4, ofArea(area.id));

    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    const gaps = attempts.slice(1).map((a, i) => a.at - (attempts[i] as ReceivedWebhook).at);
    // 30 s, 2 min, 10 min scaled by 0.001: at least 30, 120 and 600 ms after the previous attempt.
    expect(gaps[0]).toBeGreaterThanOrEqual(25);
    expect(gaps[1]).toBeGreaterThanOrEqual(115);
    expect(gaps[2]).toBeGreaterThanOrEqual(590);
    const row = await rowIn(endpoint.id, 'SUCCEEDED_AFTER_RETRY');
    expect(row).toMatchObject({
      id: attempts[0]?.headers['webhook-id'],
      attempts: 4,
      event_type: 'area.created',
    });
  });

  it('spends 7 attempts on a receiver that always fails, then marks the row EXHAUSTED', async () => {
    const target = await receiver();
    target.answer = () => ({ status: 500, body: 'broken' });
    const endpoint = await endpointFor(target, { subscriptions: ['area.created'] }, retriesAdmin);

    const area = await createArea(retriesAdmin);
    await target.waitFor(7, ofArea(area.id), 30_000);
    const row = await rowIn(endpoint.id, 'EXHAUSTED', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(target.received.filter(ofArea(area.id))).toHaveLength(7);
    expect(row).toMatchObject({ attempts: 7, last_status_code: 500, last_response: 'broken' });
    expect(row).not.toHaveProperty('next_attempt_at');
  }, 60_000);

  it('makes the first failure terminal with retry=false (retry_state FAILED)', async () => {
    const target = await receiver();
    target.answer = () => ({ status: 400 });
    const endpoint = await endpointFor(
      target,
      { subscriptions: ['area.created'], retry: false },
      retriesAdmin,
    );

    const area = await createArea(retriesAdmin);
    await target.waitFor(1, ofArea(area.id));
    const row = await rowIn(endpoint.id);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(target.received.filter(ofArea(area.id))).toHaveLength(1);
    expect(row).toMatchObject({ retry_state: 'FAILED', attempts: 1, last_status_code: 400 });
  });

  it('backs off at least the 429 floor, or the Retry-After when longer', async () => {
    const floor = await receiver();
    floor.answer = (_r, index) => (index === 0 ? { status: 429 } : { status: 204 });
    const withHeader = await receiver();
    withHeader.answer = (_r, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 204 };
    await endpointFor(floor, { subscriptions: ['area.created'] }, retriesAdmin);
    await endpointFor(withHeader, { subscriptions: ['area.created'] }, retriesAdmin);

    const area = await createArea(retriesAdmin);
    const [a1, a2] = await floor.waitFor(2, ofArea(area.id));
    const [b1, b2] = await withHeader.waitFor(2, ofArea(area.id));

    // The floor is 5 min × 0.001 = 300 ms (not the 30 ms of the first retry); Retry-After is real seconds.
    expect((a2 as ReceivedWebhook).at - (a1 as ReceivedWebhook).at).toBeGreaterThanOrEqual(290);
    expect((b2 as ReceivedWebhook).at - (b1 as ReceivedWebhook).at).toBeGreaterThanOrEqual(1_950);
  });

  it('drops deliveries for an endpoint disabled before its retry, and marks the row CANCELLED', async () => {
    const target = await receiver();
    target.answer = () => ({ status: 503 });
    const endpoint = await endpointFor(target, { subscriptions: ['area.created'] }, retriesAdmin);

    const area = await createArea(retriesAdmin);
    await target.waitFor(3, ofArea(area.id));
    await call('PATCH', `/api/v2/webhook-endpoints/${endpoint.id}`, {
      token: retriesAdmin,
      body: { enabled: false },
    });
    const seen = target.received.filter(ofArea(area.id)).length;
    const row = await rowIn(endpoint.id, 'CANCELLED', 15_000);

    expect(row.attempts).toBeLessThanOrEqual(seen + 1);
    expect(target.received.filter(ofArea(area.id)).length).toBeLessThanOrEqual(seen + 1);
  });
});

describe('Webhook delivery: endpoint state', () => {
  it('sends nothing to a disabled endpoint', async () => {
    const target = await receiver();
    await endpointFor(target, { subscriptions: ['area.created'], enabled: false });
    const witness = await receiver();
    await endpointFor(witness, { subscriptions: ['area.created'] });

    const area = await createArea();
    await witness.waitFor(1, ofArea(area.id));
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(target.received).toEqual([]);
  });

  it('signs with the new secret at once after rotation; the old one no longer verifies', async () => {
    const target = await receiver();
    const endpoint = await endpointFor(target, { subscriptions: ['area.created'] });
    const rotated = await call('POST', `/api/v2/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      token: admin,
    });

    const area = await createArea();
    const [webhook] = await target.waitFor(1, ofArea(area.id));

    expect(verify(rotated.body.secret, webhook as ReceivedWebhook)).toBeTruthy();
    expect(() => verify(endpoint.secret, webhook as ReceivedWebhook)).toThrow();
    expect(String(webhook?.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });
});

describe('Webhook delivery: test event', () => {
  it('sends test.webhook at once, even to a disabled endpoint, and advances lock_version by exactly 1', async () => {
    const target = await receiver();
    const endpoint = await endpointFor(target, { subscriptions: [], enabled: false });

    const response = await call('POST', '/api/v2/webhooks/send-test', {
      token: admin,
      body: { endpoint_id: endpoint.id },
    });

    expect(response.status).toBe(200);
    // No failure_reason or response_status on success.
    expect(response.body).toEqual({ last_test_tried_at: expect.any(String), test_was_successful: true });
    expect(Date.parse(response.body.last_test_tried_at)).not.toBeNaN();
    expect(target.received).toHaveLength(1);
    expect(verify(endpoint.secret, target.received[0] as ReceivedWebhook)).toMatchObject({
      type: 'test.webhook',
    });
    const read = await call('GET', `/api/v2/webhook-endpoints/${endpoint.id}`, { token: admin });
    expect(read.body.lock_version).toBe(endpoint.lock_version + 1);
  });

  it('is never retried and appears in the failure list when it fails', async () => {
    const target = await receiver();
    target.answer = () => ({ status: 500, body: 'nope' });
    const endpoint = await endpointFor(target);

    const response = await call('POST', '/api/v2/webhooks/send-test', {
      token: admin,
      body: { endpoint_id: endpoint.id },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(response.body).toEqual({
      last_test_tried_at: expect.any(String),
      test_was_successful: false,
      failure_reason: 'NON_2XX_RESPONSE',
      response_status: 500,
    });
    expect(target.received).toHaveLength(1);
    const { items } = await failuresOf(endpoint.id);
    expect(items).toEqual([
      expect.objectContaining({
        event_type: 'test.webhook',
        retry_state: 'FAILED',
        attempts: 1,
        last_status_code: 500,
      }),
    ]);
    expect(items[0]).not.toHaveProperty('body');
  });

  it.each([
    {
      title: 'a redirect, which is never followed',
      reason: 'REDIRECT_NOT_FOLLOWED',
      status: 302,
      url: async () => {
        const target = await receiver();
        target.answer = () => ({ status: 302, headers: { location: 'https://example.com/elsewhere' } });
        return `${target.url}/hook`;
      },
    },
    {
      title: 'a receiver that is not listening',
      reason: 'CONNECTION_FAILED',
      url: async () => {
        const gone = await startReceiver();
        await gone.stop();
        return `${gone.url}/hook`;
      },
    },
    {
      title: 'a name that does not resolve',
      reason: 'DNS_FAILED',
      url: async () => `https://nowhere-${randomUUID().slice(0, 8)}.hooks.test/hook`,
    },
    {
      title: 'a name that resolves to a private address by the time of the attempt',
      reason: 'DESTINATION_REFUSED',
      url: async () => `https://erp-${randomUUID().slice(0, 8)}.rebind.hooks.test/hook`,
    },
  ])('says why it failed: $reason for $title', async ({ reason, status, url }) => {
    const endpoint = await call('POST', '/api/v2/webhook-endpoints', {
      token: admin,
      body: { display_name: `Failing ${randomUUID().slice(0, 6)}`, endpoint_url: await url() },
    });
    expect(endpoint.status, endpoint.text).toBe(201);

    const response = await call('POST', '/api/v2/webhooks/send-test', {
      token: admin,
      body: { endpoint_id: endpoint.body.id },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      last_test_tried_at: expect.any(String),
      test_was_successful: false,
      failure_reason: reason,
      ...(status ? { response_status: status } : {}),
    });
  });

  it('answers 404 for an unknown endpoint and 422 for a malformed id', async () => {
    expect(
      (
        await call('POST', '/api/v2/webhooks/send-test', {
          token: admin,
          body: { endpoint_id: randomUUID() },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('POST', '/api/v2/webhooks/send-test', { token: admin, body: { endpoint_id: 'x' } })).status,
    ).toBe(422);
  });
});

describe('Webhook delivery: failure rows and redelivery', () => {
  it('redelivers a failed message by hand with its original webhook-id and body', async () => {
    const target = await receiver();
    target.answer = () => ({ status: 500 });
    const endpoint = await endpointFor(
      target,
      { subscriptions: ['area.created'], retry: false },
      retriesAdmin,
    );
    const area = await createArea(retriesAdmin);
    const [failed] = await target.waitFor(1, ofArea(area.id));
    const row = await rowIn(endpoint.id);

    target.answer = () => ({ status: 200 });
    const response = await call('POST', `/api/v2/webhooks/delivery-failures/${row.id}/redeliver`, {
      token: retriesAdmin,
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: row.id,
      retry_state: 'SUCCEEDED_AFTER_RETRY',
      attempts: 2,
      last_status_code: 200,
    });
    const again = target.received.filter(ofArea(area.id));
    expect(again).toHaveLength(2);
    expect(again[1]?.headers['webhook-id']).toBe(failed?.headers['webhook-id']);
    expect(again[1]?.body).toBe(failed?.body);
    expect(verify(endpoint.secret, again[1] as ReceivedWebhook)).toBeTruthy();
  });

  it('answers 404 for a failure of another workspace', async () => {
    const target = await receiver();
    target.answer = () => ({ status: 500 });
    const endpoint = await endpointFor(
      target,
      { subscriptions: ['area.created'], retry: false },
      retriesAdmin,
    );
    await createArea(retriesAdmin);
    const row = await rowIn(endpoint.id);

    const foreign = await call('POST', `/api/v2/webhooks/delivery-failures/${row.id}/redeliver`, {
      token: beta,
    });
    const list = await call('GET', '/api/v2/webhooks/delivery-failures?size=100', { token: beta });

    expect(foreign.status).toBe(404);
    expect(list.body.items.map((item: { id: string }) => item.id)).not.toContain(row.id);
  });
});

describe('Webhook delivery: destinations checked before every attempt', () => {
  it('refuses to connect when the name resolves to a private address on the second lookup (DNS rebinding)', async () => {
    const name = `erp-${randomUUID().slice(0, 8)}.rebind.hooks.test`;
    const endpoint = await call('POST', '/api/v2/webhook-endpoints', {
      token: retriesAdmin,
      body: { display_name: 'Rebinding', endpoint_url: `https://${name}/hook`, retry: false },
    });
    expect(endpoint.status, endpoint.text).toBe(201);

    const test = await call('POST', '/api/v2/webhooks/send-test', {
      token: retriesAdmin,
      body: { endpoint_id: endpoint.body.id },
    });
    const { items } = await failuresOf(endpoint.body.id, retriesAdmin);

    expect(test.body.test_was_successful).toBe(false);
    expect(items[0]?.last_error).toMatch(/10\.0\.0\.5|private|non-public|refused/i);
    expect(items[0]).not.toHaveProperty('last_status_code');
  });
});
