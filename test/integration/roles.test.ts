import { describe, expect, it } from 'vitest';
import { call, problemType, tokenFor } from '../support/api.ts';

describe('Roles: GET /api/v2/roles', () => {
  it('lists the five roles with ids and grants, without page', async () => {
    const response = await call('GET', '/api/v2/roles', { token: await tokenFor('acme-dispatcher') });

    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['items']);
    expect(response.body.items.map((role: { name: string }) => role.name)).toEqual([
      'owner',
      'admin',
      'dispatcher',
      'technician',
      'driver',
    ]);
    for (const role of response.body.items) {
      expect(Object.keys(role)).toEqual(['id', 'name', 'grants']);
      expect(role.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('gives tenant:ownership:update to the owner only, and no user writes to technicians', async () => {
    const response = await call('GET', '/api/v2/roles', { token: await tokenFor('acme-admin') });
    const grantsOf = (name: string) =>
      response.body.items.find((role: { name: string }) => role.name === name).grants as string[];

    expect(grantsOf('owner')).toContain('tenant:ownership:update');
    expect(grantsOf('admin')).not.toContain('tenant:ownership:update');
    expect(grantsOf('admin')).toContain('users:update');
    expect(grantsOf('dispatcher')).toContain('users:read');
    expect(grantsOf('dispatcher')).not.toContain('users:update');
    expect(grantsOf('technician')).not.toContain('users:update');
    expect(grantsOf('driver')).not.toContain('tags:update');
  });

  it('uses the same role ids in every workspace', async () => {
    const [acme, beta] = await Promise.all([
      call('GET', '/api/v2/roles', { token: await tokenFor('acme-admin') }),
      call('GET', '/api/v2/roles', { token: await tokenFor('beta-admin') }),
    ]);

    expect(beta.body).toEqual(acme.body);
  });

  it('answers 403 with required_grants roles:read to a technician', async () => {
    const response = await call('GET', '/api/v2/roles', { token: await tokenFor('acme-technician') });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      type: problemType('access-denied'),
      data: { reason: 'missing_grant', required_grants: ['roles:read'] },
    });
  });
});
