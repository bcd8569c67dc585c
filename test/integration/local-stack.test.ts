import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';

// A second service of its own, so stopping and restarting it does not disturb the shared one.
const dataDir = await mkdtemp(join(tmpdir(), 'fsm-restart-'));
let service: RunningService | undefined;

afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function token(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/realms/shared/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'demo-integration',
      client_secret: 'demo-secret-1',
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('npm start', () => {
  // Two starts of the whole stack (a JVM, emulators, the seed with its demo day): up to a minute
  // on a busy 2-core machine, so this test gets more than the project's 30 s.
  it('seeds the demo workspace, prints its credentials and a curl, and keeps data and tokens across a restart', async () => {
    // Local webhook delivery off, as `npm start` runs by default.
    service = await startService({ DATA_DIR: dataDir, FSM_SEED: '', FSM_WEBHOOK_ALLOW_LOCAL: '' });
    const first = service.baseUrl;
    const running = service;
    await vi.waitFor(() => {
      expect(running.output()).toContain('demo-integration / demo-secret-1');
      // The printed commands fail visibly: the token step exits non-zero with the provider's answer.
      expect(running.output()).toContain(
        `curl -sS --fail-with-body -H "Authorization: Bearer $TOKEN" ${first}/api/v2/areas`,
      );
      expect(running.output()).toContain('process.exit(1)');
    });
    const bearer = await token(first);
    const created = await fetch(`${first}/api/v2/areas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Survives restarts', color: '#00ff00' }),
    });
    const area = (await created.json()) as { id: string };
    const localReceiver = await fetch(`${first}/api/v2/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'On this machine', endpoint_url: 'http://127.0.0.1:9/hook' }),
    });
    // The banner and the refusal both name the switch a developer needs for a local receiver.
    expect(running.output()).toMatch(/Webhooks: +local delivery off.*FSM_WEBHOOK_ALLOW_LOCAL=true/);
    expect(localReceiver.status).toBe(422);
    expect(JSON.stringify(await localReceiver.json())).toContain('FSM_WEBHOOK_ALLOW_LOCAL=true');

    await service.stop();
    expect(running.output()).toContain('stopped; data kept in');
    service = await startService({ DATA_DIR: dataDir, FSM_SEED: '', PORT: new URL(first).port });

    const read = await fetch(`${service.baseUrl}/api/v2/areas/${area.id}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { name: string }).name).toBe('Survives restarts');
  }, 120_000);

  it('refuses an FSM_SEED that is not valid and says what is wrong', async () => {
    const broken = await startService({ DATA_DIR: dataDir, FSM_SEED: 'package.json' }).catch(
      (error: Error) => error,
    );

    expect(broken).toBeInstanceOf(Error);
    expect((broken as Error).message).toMatch(
      /FSM_SEED package\.json is not a valid seed:\n\s+#\/workspaces/,
    );
  });
});
