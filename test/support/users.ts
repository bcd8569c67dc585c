/**
 * Users for tests of the users API: new users created through the API (so no test changes a
 * seeded user another test relies on) and access tokens for them. There is no password grant,
 * so a user's token is forged with the service's own signing key (forgeToken), with the
 * claims the identity provider would issue.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { baseUrl, call, claimsOf, forgeToken } from './api.ts';

let roleIds: Promise<Map<string, string>> | undefined;

/** The id of a role by name (GET /api/v2/roles, read once). */
export async function roleId(token: string, name: string): Promise<string> {
  roleIds ??= call('GET', '/api/v2/roles', { token }).then((response) => {
    expect(response.status).toBe(200);
    return new Map(response.body.items.map((role: { id: string; name: string }) => [role.name, role.id]));
  });
  const id = (await roleIds).get(name);
  if (!id) throw new Error(`no role ${name}`);
  return id;
}

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomUUID().slice(0, 12)}@users.test`;

/** Create a user (technician unless role_ids are given) and return its representation. */
export async function createUser(token: string, body: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v2/users', {
    token,
    body: {
      email: uniqueEmail(),
      firstname: 'Test',
      lastname: 'User',
      role_ids: [await roleId(token, 'technician')],
      ...body,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

/** An access token of a user of the workspace `workspaceToken` belongs to (shared realm). */
export function tokenOfUser(workspaceToken: string, userId: string): string {
  const now = Math.floor(Date.now() / 1000);
  const { tenant_id } = claimsOf(workspaceToken);
  return forgeToken({
    iss: `${baseUrl()}/realms/shared`,
    aud: 'fsm-api',
    sub: userId,
    tenant_id,
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
  });
}

/** The id of a user by e-mail (first match of the list search, any status). */
export async function userIdByEmail(token: string, email: string): Promise<string> {
  const response = await call('GET', `/api/v2/users?status=ALL&search=${encodeURIComponent(email)}`, {
    token,
  });
  expect(response.status).toBe(200);
  const user = response.body.items.find((item: { email: string }) => item.email === email);
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
}
