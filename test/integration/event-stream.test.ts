/**
 * The server-sent event stream, through the `eventsource` package as clients use it, against a
 * service of its own running FSM_TIME_SCALE=0.05 (heartbeat every 1.5 s, drop after 4.5 s):
 * authentication, headers, heartbeat, the drop, the per-identity cap, RESYNC_REQUIRED for an
 * unknown id, and no leak across workspaces.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';

let service: RunningService;
let dataDir: string;
const opened: EventSource[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-stream-'));
  service = await startService({
    DATA_DIR: dataDir,
    FSM_SEED: 'test/support/test-seed.json',
    FSM_TIME_SCALE: '0.05',
  });
}, 60_000);

afterAll(async () => {
  for (const source of opened) source.close();
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function tokenOf(clientId: string, secret: string): Promise<string> {
  const response = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

const streamUrl = (query = '') => `${service.baseUrl}/api/v2/events/stream${query}`;

interface Received {
  type: string;
  id: string;
  data: any;
}

/** An EventSource with a bearer token, recording every message of every kind. */
function subscribe(token: string, query = '') {
  const received: Received[] = [];
  const source = new EventSource(streamUrl(query), {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers ?? {}), authorization: `Bearer ${token}` } }),
  });
  opened.push(source);
  const record = (event: MessageEvent) =>
    received.push({ type: event.type, id: event.lastEventId, data: JSON.parse(event.data) });
  for (const kind of ['HEARTBEAT:V1', 'RESYNC_REQUIRED:V1', 'CASE_CREATED:V1', 'CASE_UPDATED:V1']) {
    source.addEventListener(kind, record);
  }
  return { source, received };
}

async function until<T>(check: () => T | undefined, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Event stream: connecting', () => {
  it('answers 401 with a problem document and a bare Bearer challenge without a token', async () => {
    const response = await fetch(streamUrl());

    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('sends text/event-stream headers at once, before any event', async () => {
    const token = await tokenOf('acme-admin', 's3cret-acme-admin');
    const abort = new AbortController();
    const started = Date.now();

    const response = await fetch(streamUrl(), {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(Date.now() - started).toBeLessThan(1_000);
    abort.abort();
  });

  it('sends HEARTBEAT:V1 without an id line, and drops the connection after 90 s (scaled)', async () => {
    const token = await tokenOf('acme-admin', 's3cret-acme-admin');
    const { source, received } = subscribe(token);
    const opens: number[] = [];
    source.addEventListener('open', () => opens.push(Date.now()));

    const heartbeat = await until(() => received.find((m) => m.type === 'HEARTBEAT:V1'));
    await until(() => (opens.length >= 2 ? true : undefined), 10_000);

    expect(heartbeat.id).toBe('');
    expect(heartbeat.data).toMatchObject({ kind: 'HEARTBEAT:V1' });
    // The second open is the client's reconnect after the server dropped the first at ~4.5 s.
    expect((opens[1] ?? 0) - (opens[0] ?? 0)).toBeGreaterThan(3_000);
    source.close();
  }, 20_000);

  it('refuses the 6th concurrent connection of one identity with 429, and takes it once one closed', async () => {
    const token = await tokenOf('acme-dispatcher', 's3cret-acme-dispatcher');
    const aborts = Array.from({ length: 5 }, () => new AbortController());
    const held = await Promise.all(
      aborts.map((abort) =>
        fetch(streamUrl(), { headers: { authorization: `Bearer ${token}` }, signal: abort.signal }),
      ),
    );
    expect(held.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const sixth = await fetch(streamUrl(), { headers: { authorization: `Bearer ${token}` } });
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toMatchObject({
      status: 429,
      type: expect.stringMatching(/too-many-requests$/),
    });

    aborts[0]?.abort();
    // The server frees the slot when it sees the connection close.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const retry = new AbortController();
    const afterClose = await fetch(streamUrl(), {
      headers: { authorization: `Bearer ${token}` },
      signal: retry.signal,
    });
    expect(afterClose.status).toBe(200);
    retry.abort();
    for (const abort of aborts) abort.abort();
  });
});

describe('Event stream: replay', () => {
  it('sends RESYNC_REQUIRED:V1 first for an unknown lastEventId, as query or Last-Event-ID', async () => {
    const token = await tokenOf('acme-admin', 's3cret-acme-admin');
    const { received } = subscribe(token, `?lastEventId=${randomUUID()}`);

    const first = await until(() => received[0]);

    expect(first.type).toBe('RESYNC_REQUIRED:V1');
    expect(first.data).toMatchObject({ kind: 'RESYNC_REQUIRED:V1' });

    const raw = await fetch(streamUrl(), {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': 'not-an-event' },
    });
    const reader = raw.body?.getReader();
    let text = '';
    while (!text.includes('RESYNC_REQUIRED:V1')) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      text += Buffer.from(chunk.value).toString();
    }
    await reader?.cancel();
    expect(text).toContain('event: RESYNC_REQUIRED:V1');
  });
});

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}

const ofCase = (caseId: string) => (m: Received) => m.data?.caseId === caseId;

describe('Event stream: case events', () => {
  it('sends CASE_CREATED:V1 with the envelope of the spec, the event id as the id line', async () => {
    const token = await tokenOf('acme-admin', 's3cret-acme-admin');
    const { received } = subscribe(token);
    await until(() => received.find((m) => m.type === 'HEARTBEAT:V1'));

    const created = await api('POST', '/api/v2/cases', token, { title: 'Boiler service' });
    expect(created.status).toBe(201);
    const message = await until(() => received.find(ofCase(created.body.id)));

    expect(message.type).toBe('CASE_CREATED:V1');
    expect(message.id).toBe(message.data.eventId);
    expect(message.data.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(message.data).toMatchObject({
      kind: 'CASE_CREATED:V1',
      businessId: `case:${created.body.id}`,
      caseId: created.body.id,
      caseData: { id: created.body.id, title: 'Boiler service' },
    });
    expect(message.data.timestamp).toMatch(/Z$/);
    expect(message.data.tenantId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends CASE_UPDATED:V1, and CASE_EXTERNAL_ID_UPDATED:V1 too when the external id changes', async () => {
    const token = await tokenOf('acme-admin', 's3cret-acme-admin');
    const created = await api('POST', '/api/v2/cases', token, { title: 'ERP sync case' });
    const { received, source } = subscribe(token);
    source.addEventListener('CASE_EXTERNAL_ID_UPDATED:V1', (event) =>
      received.push({ type: event.type, id: event.lastEventId, data: JSON.parse(event.data) }),
    );
    await until(() => received.find((m) => m.type === 'HEARTBEAT:V1'));

    const patched = await api('PATCH', `/api/v2/cases/${created.body.id}`, token, {
      external_id: 'ERP-4711',
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await until(() =>
      received.find((m) => m.type === 'CASE_EXTERNAL_ID_UPDATED:V1' && ofCase(created.body.id)(m)),
    );

    const kinds = received.filter(ofCase(created.body.id)).map((m) => m.type);
    expect(kinds).toEqual(expect.arrayContaining(['CASE_UPDATED:V1', 'CASE_EXTERNAL_ID_UPDATED:V1']));
    expect(received.find((m) => m.type === 'CASE_EXTERNAL_ID_UPDATED:V1')?.data).toMatchObject({
      externalId: 'ERP-4711',
      caseId: created.body.id,
    });
  });

  it('never sends one workspace’s events to another, nor cases to field workers they are not assigned', async () => {
    const admin = await tokenOf('acme-admin', 's3cret-acme-admin');
    const beta = subscribe(await tokenOf('beta-admin', 's3cret-beta-admin'));
    const technician = subscribe(await tokenOf('acme-technician', 's3cret-acme-technician'));
    const witness = subscribe(admin);
    await until(() => beta.received.find((m) => m.type === 'HEARTBEAT:V1'));
    await until(() => technician.received.find((m) => m.type === 'HEARTBEAT:V1'));

    const created = await api('POST', '/api/v2/cases', admin, { title: 'Private to Acme' });
    await until(() => witness.received.find(ofCase(created.body.id)));
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(beta.received.filter(ofCase(created.body.id))).toEqual([]);
    expect(technician.received.filter(ofCase(created.body.id))).toEqual([]);
  });
});

describe('Event stream: replay from the durable log', () => {
  it('replays the events after lastEventId in order, also after the service restarted', async () => {
    const token = await tokenOf('acme-admin', 's3cret-acme-admin');
    const first = subscribe(token);
    const anchor = await api('POST', '/api/v2/cases', token, { title: 'Anchor' });
    const seen = await until(() => first.received.find(ofCase(anchor.body.id)));
    first.source.close();

    const missed: string[] = [];
    for (const title of ['Missed 1', 'Missed 2'])
      missed.push((await api('POST', '/api/v2/cases', token, { title })).body.id);
    await service.stop();
    service = await startService({
      DATA_DIR: dataDir,
      FSM_SEED: 'test/support/test-seed.json',
      FSM_TIME_SCALE: '0.05',
    });
    const again = subscribe(await tokenOf('acme-admin', 's3cret-acme-admin'), `?lastEventId=${seen.id}`);

    await until(() => (missed.every((id) => again.received.some(ofCase(id))) ? true : undefined));
    const replayed = again.received.filter((m) => m.type.startsWith('CASE_')).map((m) => m.data.caseId);
    expect(replayed.slice(0, 2)).toEqual(missed);
    expect(again.received.some((m) => m.type === 'RESYNC_REQUIRED:V1')).toBe(false);
  }, 60_000);
});
