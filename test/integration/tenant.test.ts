/**
 * The tenant record over HTTP (Users Co): reads for every role, merge patches by owners and
 * admins, language tags canonicalised (legacy locale forms too), ISO regions, IANA time zones,
 * lock_version, tenant.updated events.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let technician: string;

beforeAll(async () => {
  [admin, technician] = await Promise.all([tokenFor('users-admin'), tokenFor('users-technician')]);
});

const patch = (body: unknown, token = admin) => call('PATCH', '/api/v2/tenant', { token, body });
const pointers = (response: { body: { errors?: Array<{ pointer: string }> } }) =>
  (response.body.errors ?? []).map((error) => error.pointer).sort();

describe('Tenant', () => {
  it('is read by every role of the workspace, as the workspace of the token', async () => {
    const response = await call('GET', '/api/v2/tenant', { token: technician });
    const tokenTenant = JSON.parse(
      Buffer.from(technician.split('.')[1] ?? '', 'base64url').toString(),
    ).tenant_id;

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: tokenTenant, name: 'Users Co' });
    expect(response.body.lock_version).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['de_DE', 'de-DE'],
    ['pt_BR', 'pt-BR'],
    ['DE-de', 'de-DE'],
    ['en', 'en'],
    ['zh_Hant_TW', 'zh-Hant-TW'],
    ['de_DE.UTF-8', 'de-DE'],
  ])('stores language %s as %s', async (sent, stored) => {
    const response = await patch({ language: sent });
    expect(response.status, response.text).toBe(200);
    expect(response.body.language).toBe(stored);
  });

  it('normalises region and time zone, and clears all three with null', async () => {
    const set = await patch({ region: 'at', timezone: 'Europe/Vienna' });
    expect(set.body).toMatchObject({ region: 'AT', timezone: 'Europe/Vienna' });

    const cleared = await patch({ language: null, region: null, timezone: null });
    expect(cleared.status).toBe(200);
    for (const field of ['language', 'region', 'timezone']) expect(cleared.body).not.toHaveProperty(field);
  });

  it.each([
    [{ language: 'not a tag' }, ['#/language']],
    [{ language: 'de-DE-x-verylongprivate' }, ['#/language']],
    [{ region: 'XX' }, ['#/region']],
    [{ region: 'DEU' }, ['#/region']],
    [{ timezone: 'Mars/Olympus' }, ['#/timezone']],
    [{ timezone: 'x'.repeat(51) }, ['#/timezone']],
    [{ name: 'n'.repeat(256) }, ['#/name']],
    [{ name: null }, ['#/name']],
  ])('refuses %j with a field-level 422', async (body, expected) => {
    const response = await patch(body);
    expect(response.status, response.text).toBe(422);
    expect(pointers(response)).toEqual(expected);
  });

  it('refuses a blank name as field-required', async () => {
    const response = await patch({ name: '   ' });
    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('field-required'));
  });

  it('applies lock_version: equal writes and increments, different is 409', async () => {
    const current = await call('GET', '/api/v2/tenant', { token: admin });
    const ok = await patch({ timezone: 'Europe/Berlin', lock_version: current.body.lock_version });
    const stale = await patch({ timezone: 'UTC', lock_version: current.body.lock_version });

    expect(ok.status).toBe(200);
    expect(ok.body.lock_version).toBe(current.body.lock_version + 1);
    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
  });

  it('lets only owners and admins change it', async () => {
    const response = await patch({ name: 'Taken over' }, technician);
    expect(response.status).toBe(403);
    expect(response.body.data.required_grants).toEqual(['tenant:update']);
  });

  it('renames the workspace, and records tenant.updated with the previous name', async () => {
    const renamed = await patch({ name: 'Users Co (renamed)' });
    await patch({ name: 'Users Co' });
    expect(renamed.body.name).toBe('Users Co (renamed)');
    const entry = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=50', { token: admin });
      const found = (log.body.items as Array<Record<string, any>>).find(
        (item) => item.event_type === 'tenant.updated' && item.data.object.name === 'Users Co (renamed)',
      );
      if (!found) throw new Error('no entry yet');
      return found;
    });
    expect(entry.data.previous_attributes).toMatchObject({ name: 'Users Co' });
  });
});
