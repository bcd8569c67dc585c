/**
 * A node at its event-stream capacity (FSM_STREAM_MAX_CONNECTIONS, from the container's memory on
 * AWS: lib/realtime-capacity.ts) refuses one more connection with 503 and Retry-After instead of
 * growing until it runs out of memory, and keeps serving the connections it holds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type ClientRequest, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';

// A service of its own, with room for two connections.
const dataDir = await mkdtemp(join(tmpdir(), 'fsm-stream-capacity-'));
let service: RunningService;
let token: string;

beforeAll(async () => {
  service = await startService({ DATA_DIR: dataDir, FSM_SEED: '', FSM_STREAM_MAX_CONNECTIONS: '2' });
  const answer = await fetch(`${service.baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'demo-integration',
      client_secret: 'demo-secret-1',
    }),
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

interface Opened {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The whole body so far (the problem document of a refusal, the stream's messages). */
  text: () => string;
  request: ClientRequest;
}

function openStream(): Promise<Opened> {
  const url = new URL(`${service.baseUrl}/api/v2/events/stream`);
  return new Promise((resolve, reject) => {
    let text = '';
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', () => {});
        const opened = { status: res.statusCode ?? 0, headers: res.headers, text: () => text, request: req };
        if (res.statusCode === 200) resolve(opened);
        else res.on('end', () => resolve(opened));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('The event stream at its capacity', () => {
  it('answers 503 with Retry-After past its capacity, keeps serving the connections it holds, and takes one again when one ends', async () => {
    const held = [await openStream(), await openStream()];

    const refused = await openStream();

    expect(held.map((opened) => opened.status)).toEqual([200, 200]);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.text())).toMatchObject({
      status: 503,
      type: expect.stringMatching(/service-unavailable$/),
    });
    // The connections held still receive what happens.
    const created = await fetch(`${service.baseUrl}/api/v2/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Seen by both' }),
    });
    const work = (await created.json()) as { id: string };
    await vi.waitFor(
      () => {
        for (const opened of held) expect(opened.text()).toContain(work.id);
      },
      { timeout: 15_000 },
    );
    // One ends: there is room again.
    held[0]?.request.destroy();
    await vi.waitFor(
      async () => {
        const again = await openStream();
        again.request.destroy();
        expect(again.status).toBe(200);
      },
      { timeout: 10_000 },
    );
    held[1]?.request.destroy();
  }, 60_000);
});
