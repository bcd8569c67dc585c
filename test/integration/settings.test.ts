/**
 * The settings singletons over HTTP: defaults before the first change, merge patches that are
 * always last-write-wins, null and unsupported values as field-level 422s, grants, events and
 * workspace isolation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, tokenFor } from '../support/api.ts';

let admin: string;
let dispatcher: string;
let beta: string;

beforeAll(async () => {
  [admin, dispatcher, beta] = await Promise.all([
    tokenFor('acme-admin'),
    tokenFor('acme-dispatcher'),
    tokenFor('beta-admin'),
  ]);
});

const pointers = (response: { body: { errors?: Array<{ pointer: string }> } }) =>
  (response.body.errors ?? []).map((error) => error.pointer).sort();

describe('AI assistant settings', () => {
  it('starts OFF, and enabled is false exactly when mode is OFF', async () => {
    const before = await call('GET', '/api/v2/ai-assistant/settings', { token: beta });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ mode: 'OFF', enabled: false, tool_mode: 'NONE' });
    // Never changed: updated_at is omitted, not null.
    expect(before.body).not.toHaveProperty('updated_at');
    expect(before.body.tenant_id).toMatch(/^[0-9a-f-]{36}$/);

    for (const [mode, enabled, toolMode] of [
      ['READ_ONLY', true, 'READ_ONLY_TOOLS'],
      ['READ_WRITE', true, 'ALL_TOOLS'],
      ['OFF', false, 'NONE'],
    ] as const) {
      const response = await call('PATCH', '/api/v2/ai-assistant/settings', { token: admin, body: { mode } });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ mode, enabled, tool_mode: toolMode });
      const read = await call('GET', '/api/v2/ai-assistant/settings', { token: admin });
      expect(read.body.mode).toBe(mode);
    }
  });

  it('keeps the mode when it is omitted, refuses null and unknown modes with 422 at #/mode', async () => {
    await call('PATCH', '/api/v2/ai-assistant/settings', { token: admin, body: { mode: 'READ_ONLY' } });
    const omitted = await call('PATCH', '/api/v2/ai-assistant/settings', { token: admin, body: {} });
    const nulled = await call('PATCH', '/api/v2/ai-assistant/settings', {
      token: admin,
      body: { mode: null },
    });
    const unknown = await call('PATCH', '/api/v2/ai-assistant/settings', {
      token: admin,
      body: { mode: 'ON' },
    });

    expect(omitted.body.mode).toBe('READ_ONLY');
    expect(nulled.status).toBe(422);
    expect(pointers(nulled)).toEqual(['#/mode']);
    expect(unknown.status).toBe(422);
    expect(pointers(unknown)).toEqual(['#/mode']);
  });

  it('ignores lock_version (always last write wins)', async () => {
    const response = await call('PATCH', '/api/v2/ai-assistant/settings', {
      token: admin,
      body: { mode: 'READ_WRITE', lock_version: 12345 },
    });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('lock_version');
  });

  it('is for owners and admins: a dispatcher gets 403 naming the grant', async () => {
    const read = await call('GET', '/api/v2/ai-assistant/settings', { token: dispatcher });
    const write = await call('PATCH', '/api/v2/ai-assistant/settings', {
      token: dispatcher,
      body: { mode: 'OFF' },
    });
    expect(read.status).toBe(403);
    expect(read.body.data.required_grants).toEqual(['settings:read']);
    expect(write.status).toBe(403);
  });

  it('records ai_assistant_settings.updated with the previous mode', async () => {
    await call('PATCH', '/api/v2/ai-assistant/settings', { token: admin, body: { mode: 'OFF' } });
    await call('PATCH', '/api/v2/ai-assistant/settings', { token: admin, body: { mode: 'READ_ONLY' } });
    const entry = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=50', { token: admin });
      const found = (log.body.items as Array<Record<string, any>>).find(
        (item) =>
          item.event_type === 'ai_assistant_settings.updated' && item.data.object.mode === 'READ_ONLY',
      );
      if (!found) throw new Error('no entry yet');
      return found;
    });
    expect(entry.data.previous_attributes).toMatchObject({ mode: 'OFF' });
  });
});

describe('Other settings singletons', () => {
  it('answers defaults, merges what is sent and keeps the rest', async () => {
    const defaults = await call('GET', '/api/v2/geoservices/settings', { token: beta });
    expect(defaults.body).toMatchObject({
      provider: 'OPENSTREETMAP',
      is_geocoding_enabled: true,
      is_routing_enabled: true,
      distance_unit: 'KILOMETERS',
      default_country: 'DE',
    });
    expect(defaults.body).not.toHaveProperty('updated_at');
    const changed = await call('PATCH', '/api/v2/geoservices/settings', {
      token: admin,
      body: { is_routing_enabled: false, default_country: 'at' },
    });
    const kept = await call('PATCH', '/api/v2/geoservices/settings', {
      token: admin,
      body: { distance_unit: 'MILES' },
    });

    expect(changed.body).toMatchObject({
      is_routing_enabled: false,
      default_country: 'AT',
      provider: 'OPENSTREETMAP',
    });
    expect(kept.body).toMatchObject({
      is_routing_enabled: false,
      default_country: 'AT',
      distance_unit: 'MILES',
    });
    expect(Date.parse(kept.body.updated_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    ['/api/v2/mcp/settings', { enabled: null }, ['#/enabled']],
    ['/api/v2/mcp/settings', { access: 'ADMIN' }, ['#/access']],
    ['/api/v2/mcp/settings', { allowed_origins: ['http://example.com'] }, ['#/allowed_origins/0']],
    ['/api/v2/mcp/settings', { allowed_origins: null }, ['#/allowed_origins']],
    ['/api/v2/geoservices/settings', { provider: 'BING' }, ['#/provider']],
    ['/api/v2/geoservices/settings', { default_country: 'XX' }, ['#/default_country']],
    ['/api/v2/geoservices/settings', { is_geocoding_enabled: 'yes' }, ['#/is_geocoding_enabled']],
    ['/api/v2/document-management/settings', { max_file_size_mb: 0 }, ['#/max_file_size_mb']],
    ['/api/v2/document-management/settings', { max_file_size_mb: 1.5 }, ['#/max_file_size_mb']],
    ['/api/v2/document-management/settings', { allowed_file_types: [] }, ['#/allowed_file_types']],
    ['/api/v2/document-management/settings', { allowed_file_types: ['EXE'] }, ['#/allowed_file_types/0']],
    ['/api/v2/document-management/settings', { retention_days: null }, ['#/retention_days']],
    ['/api/v2/live-day/settings', { arrival_radius_m: 10 }, ['#/arrival_radius_m']],
    ['/api/v2/live-day/settings', { arrival_radius_m: 150.5 }, ['#/arrival_radius_m']],
    ['/api/v2/live-day/settings', { dwell: 'PT10S' }, ['#/dwell']],
    ['/api/v2/live-day/settings', { dwell: 'two minutes' }, ['#/dwell']],
    ['/api/v2/live-day/settings', { dwell: null }, ['#/dwell']],
  ])('PATCH %s %j is 422 at %j', async (path, body, expected) => {
    const response = await call('PATCH', path, { token: admin, body });
    expect(response.status, response.text).toBe(422);
    expect(pointers(response)).toEqual(expected);
  });

  it('stores MCP origins and document types as sent, without duplicates', async () => {
    const mcp = await call('PATCH', '/api/v2/mcp/settings', {
      token: admin,
      body: { enabled: true, allowed_origins: ['https://claude.ai', 'https://chat.example.com:8443'] },
    });
    const documents = await call('PATCH', '/api/v2/document-management/settings', {
      token: admin,
      body: { allowed_file_types: ['PDF', 'PDF', 'PNG'], retention_days: 0 },
    });
    expect(mcp.body).toMatchObject({
      enabled: true,
      access: 'READ_ONLY',
      allowed_origins: ['https://claude.ai', 'https://chat.example.com:8443'],
    });
    expect(documents.body).toMatchObject({
      allowed_file_types: ['PDF', 'PNG'],
      retention_days: 0,
      max_file_size_mb: 25,
    });
  });

  it("keeps each workspace's settings apart", async () => {
    await call('PATCH', '/api/v2/mcp/settings', { token: admin, body: { enabled: true } });
    const other = await call('GET', '/api/v2/mcp/settings', { token: beta });
    expect(other.body.enabled).toBe(false);
  });
});
