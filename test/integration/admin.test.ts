import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { adminToken, clientCredentialsToken } from '../support/admin.ts';
import { baseUrl, call, claimsOf, eventually, forgeToken, problemType, tokenFor } from '../support/api.ts';

let admin: string;

beforeAll(async () => {
  admin = await adminToken();
});

const uniqueEmail = (label = 'owner') => `${label}-${randomUUID().slice(0, 8)}@admin-plane.test`;

function newWorkspace(overrides: Record<string, unknown> = {}) {
  return {
    name: `Workspace ${randomUUID().slice(0, 8)}`,
    owner: { email: uniqueEmail(), firstname: 'Wanda', lastname: 'Owner' },
    ...overrides,
  };
}

async function createWorkspace(overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/admin-v1/workspaces', {
    token: admin,
    body: newWorkspace(overrides),
  });
  expect(response.status).toBe(201);
  return response.body as Record<string, any>;
}

/** A client of the workspace with the admin role, and a client-credentials token of it. */
async function workspaceClient(workspace: Record<string, any>) {
  const response = await call('POST', `/admin-v1/workspaces/${workspace.id}/clients`, {
    token: admin,
    body: { roles: ['admin'] },
  });
  expect(response.status).toBe(201);
  const token = await clientCredentialsToken(
    workspace.realm,
    response.body.client_id,
    response.body.client_secret,
  );
  return { client: response.body as Record<string, any>, token };
}

/** The .eml files written to one recipient so far. */
async function mailTo(address: string): Promise<string[]> {
  const dir = join(inject('dataDir'), 'mail');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
  const messages = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
  return messages.filter((message) => message.includes(`\r\nTo: ${address}\r\n`));
}

describe('Admin plane: authentication', () => {
  it('answers 401 token_missing with a bare Bearer challenge when no token is sent', async () => {
    const response = await call('GET', '/admin-v1/workspaces');

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      type: problemType('authentication-required'),
      data: { reason: 'token_missing' },
    });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    { title: 'a workspace token', token: () => tokenFor('acme-admin') },
    { title: 'a workspace owner token', token: () => tokenFor('acme-owner') },
    { title: 'garbage', token: async () => 'not.a.jwt' },
    { title: 'an admin token with a broken signature', token: async () => `${admin.slice(0, -6)}AAAAAA` },
    {
      title: 'a token of an admin client that does not exist',
      token: async () => forgeToken({ ...claimsOf(admin), client_id: 'nobody', azp: 'nobody' }),
    },
  ])('answers 401 token_invalid for $title', async ({ token }) => {
    const response = await call('POST', '/admin-v1/workspaces', {
      token: await token(),
      body: newWorkspace(),
    });

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      type: problemType('authentication-required'),
      data: { reason: 'token_invalid' },
    });
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description="/,
    );
  });

  it('answers 401 token_expired for an admin token past its expiry', async () => {
    const expired = forgeToken({ ...claimsOf(admin), iat: 1_700_000_000, exp: 1_700_000_300 });

    const response = await call('GET', '/admin-v1/workspaces', { token: expired });

    expect(response.status).toBe(401);
    expect(response.body.data.reason).toBe('token_expired');
  });

  it('gets admin tokens from the reserved realm fsm-admin', () => {
    expect(claimsOf(admin)).toMatchObject({ iss: `${baseUrl()}/realms/fsm-admin`, tenant_id: 'fsm-admin' });
  });

  it.each(['/api/v2/areas', '/api/v2/tags'])(
    'refuses an admin token on %s with 401 token_invalid',
    async (path) => {
      const response = await call('GET', path, { token: admin });

      expect(response.status).toBe(401);
      expect(response.body.data.reason).toBe('token_invalid');
    },
  );

  it('documents the admin routes with the adminBearer scheme in the OpenAPI document', async () => {
    const response = await call('GET', '/api/v2/openapi.json');

    expect(response.body.components.securitySchemes.adminBearer.openIdConnectUrl).toBe(
      `${baseUrl()}/realms/fsm-admin/.well-known/openid-configuration`,
    );
    expect(response.body.paths['/admin-v1/workspaces'].post.security).toEqual([{ adminBearer: [] }]);
  });
});

describe('Admin plane: creating workspaces', () => {
  it('creates an ACTIVE workspace in the shared realm with its owner and an absolute Location', async () => {
    const body = newWorkspace();

    const response = await call('POST', '/admin-v1/workspaces', { token: admin, body });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      name: body.name,
      realm: 'shared',
      status: 'ACTIVE',
      is_billing_locked: false,
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      lock_version: 0,
      owner_id: expect.any(String),
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/admin-v1/workspaces/${response.body.id}`);
  });

  it('sends the owner an invitation with a set-password link that continues at the Origin', async () => {
    const body = newWorkspace();

    const response = await call('POST', '/admin-v1/workspaces', {
      token: admin,
      body,
      headers: { origin: 'https://app.example.test' },
    });

    expect(response.status).toBe(201);
    const [mail, ...more] = await mailTo(body.owner.email);
    expect(more).toEqual([]);
    expect(mail).toContain('Subject: Your invitation: set your password');
    expect(mail).toContain(
      `${baseUrl()}/realms/shared/set-password?token=${response.body.id}.${response.body.owner_id}.`,
    );
    expect(mail).toContain('continue=https%3A%2F%2Fapp.example.test');
  });

  it('lower-cases the owner e-mail and answers 409 with a pointer when it is taken in the realm', async () => {
    const email = uniqueEmail();
    await createWorkspace({ owner: { email: email.toUpperCase(), firstname: 'A', lastname: 'B' } });

    const response = await call('POST', '/admin-v1/workspaces', {
      token: admin,
      body: newWorkspace({ owner: { email, firstname: 'C', lastname: 'D' } }),
    });

    expect(response.status).toBe(409);
    expect(response.body.type).toEqual(problemType('resource-conflict'));
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: '#/owner/email' })]);
  });

  it('answers 409 for the e-mail of a seeded user of the shared realm', async () => {
    const response = await call('POST', '/admin-v1/workspaces', {
      token: admin,
      body: newWorkspace({ owner: { email: 'owner@acme.test', firstname: 'O', lastname: 'O' } }),
    });

    expect(response.status).toBe(409);
    expect(response.body.errors[0].pointer).toBe('#/owner/email');
  });

  it('creates a dedicated realm on first use, where an e-mail of the shared realm is free', async () => {
    const realm = `adm-${randomUUID().slice(0, 8)}`;

    const workspace = await createWorkspace({
      realm,
      owner: {
        email: 'owner@acme.test',
        firstname: 'Olga',
        lastname: 'Elsewhere',
        phone_number: '+49 (30) 1234-5678',
      },
    });
    const discovery = await call('GET', `/realms/${realm}/.well-known/openid-configuration`);

    expect(workspace.realm).toBe(realm);
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(`${baseUrl()}/realms/${realm}`);
  });

  it('records the owner as user.created by SYSTEM in the new workspace', async () => {
    const workspace = await createWorkspace();
    const { token } = await workspaceClient(workspace);

    const entries = await eventually(async () => {
      const response = await call('GET', '/api/v2/audit-logs', { token });
      const found = (response.body.items as Array<Record<string, any>>).filter(
        (entry) => entry.event_type === 'user.created',
      );
      expect(found).toHaveLength(1);
      return found;
    });

    expect(entries[0]).toMatchObject({
      actor: { type: 'SYSTEM' },
      resource: { type: 'user', id: workspace.owner_id },
      data: {
        object: {
          id: workspace.owner_id,
          roles: ['owner'],
          status: 'ACTIVE',
          can_resend_set_password_email: true,
        },
      },
    });
  });

  it.each([
    { title: 'a missing name', body: { name: undefined }, pointer: '#/name', type: 'field-required' },
    { title: 'a blank name', body: { name: '  ' }, pointer: '#/name', type: 'field-required' },
    { title: 'a missing owner', body: { owner: undefined }, pointer: '#/owner', type: 'field-required' },
    {
      title: 'a blank owner firstname',
      body: { owner: { email: 'x@y.test', firstname: ' ', lastname: 'L' } },
      pointer: '#/owner/firstname',
      type: 'field-required',
    },
    {
      title: 'an owner e-mail that is not one',
      body: { owner: { email: 'not-an-email', firstname: 'F', lastname: 'L' } },
      pointer: '#/owner/email',
      type: 'validation-failed',
    },
    {
      title: 'a national owner phone number',
      body: { owner: { email: 'x@y.test', firstname: 'F', lastname: 'L', phone_number: '030 1234567' } },
      pointer: '#/owner/phone_number',
      type: 'validation-failed',
    },
    {
      title: 'the reserved realm',
      body: { realm: 'fsm-admin' },
      pointer: '#/realm',
      type: 'validation-failed',
    },
    {
      title: 'a malformed realm',
      body: { realm: 'Not_A_Realm' },
      pointer: '#/realm',
      type: 'validation-failed',
    },
    { title: 'a numeric name', body: { name: 42 }, pointer: '#/name', type: 'field-type-invalid' },
  ])('answers 422 with a pointer for $title', async ({ body, pointer, type }) => {
    const response = await call('POST', '/admin-v1/workspaces', { token: admin, body: newWorkspace(body) });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });
});

describe('Admin plane: reading workspaces', () => {
  it('gets a workspace with its owner', async () => {
    const created = await createWorkspace();

    const response = await call('GET', `/admin-v1/workspaces/${created.id}`, { token: admin });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
  });

  it('gets a seeded workspace', async () => {
    const { tenant_id } = claimsOf(await tokenFor('acme-admin'));

    const response = await call('GET', `/admin-v1/workspaces/${tenant_id}`, { token: admin });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: tenant_id, name: 'Acme Field Service', realm: 'shared' });
  });

  it('lists workspaces newest first when asked, with a page', async () => {
    const first = await createWorkspace();
    const second = await createWorkspace();

    const response = await call('GET', '/admin-v1/workspaces?sort=created_at:desc&size=2', { token: admin });

    expect(response.status).toBe(200);
    expect(response.body.items.map((w: { id: string }) => w.id)).toEqual([second.id, first.id]);
    expect(response.body.items[0]).toEqual(second);
    expect(response.body.page).toMatchObject({ size: 2, number: 0 });
    expect(response.body.page.total_elements).toBeGreaterThanOrEqual(2);
  });

  it.each([
    { title: 'a size of 0', query: 'size=0' },
    { title: 'an unknown sort field', query: 'sort=name:asc' },
  ])('answers 422 for $title', async ({ query }) => {
    const response = await call('GET', `/admin-v1/workspaces?${query}`, { token: admin });

    expect(response.status).toBe(422);
  });

  it.each([
    { title: 'get', method: 'GET', path: (id: string) => `/admin-v1/workspaces/${id}` },
    { title: 'activate', method: 'POST', path: (id: string) => `/admin-v1/workspaces/${id}/activate` },
    {
      title: 'billing-lock',
      method: 'POST',
      path: (id: string) => `/admin-v1/workspaces/${id}/billing-lock`,
    },
  ])('answers 404 on $title of an unknown workspace', async ({ method, path }) => {
    const response = await call(method, path(randomUUID()), { token: admin });

    expect(response.status).toBe(404);
    expect(response.body.type).toEqual(problemType('not-found'));
  });

  it('answers 405 with Allow for a method the admin plane does not serve', async () => {
    const response = await call('DELETE', '/admin-v1/workspaces', { token: admin });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 404 for a path the admin plane does not serve', async () => {
    const response = await call('GET', '/admin-v1/tenants', { token: admin });

    expect(response.status).toBe(404);
    expect(response.body.type).toEqual(problemType('not-found'));
  });

  it('answers 404 for a malformed workspace id', async () => {
    const response = await call('GET', '/admin-v1/workspaces/not-a-uuid', { token: admin });

    expect(response.status).toBe(404);
  });
});

describe('Admin plane: workspace states', () => {
  it('deactivates, billing-locks and re-activates a workspace, as its API clients see it', async () => {
    const workspace = await createWorkspace();
    const { token } = await workspaceClient(workspace);
    const tags = () => call('GET', '/api/v2/tags', { token });
    expect((await tags()).status).toBe(200);

    const deactivated = await call('POST', `/admin-v1/workspaces/${workspace.id}/deactivate`, {
      token: admin,
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ status: 'INACTIVE', is_billing_locked: false, lock_version: 1 });
    expect((await tags()).body).toMatchObject({
      type: problemType('tenant-disabled'),
      status: 403,
      data: { reason: 'TENANT_INACTIVE' },
    });

    const activated = await call('POST', `/admin-v1/workspaces/${workspace.id}/activate`, { token: admin });
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ status: 'ACTIVE', lock_version: 2 });
    expect((await tags()).status).toBe(200);

    const locked = await call('POST', `/admin-v1/workspaces/${workspace.id}/billing-lock`, { token: admin });
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ status: 'BILLING_LOCKED', is_billing_locked: true, lock_version: 3 });
    const lockedAnswer = await tags();
    expect(lockedAnswer.status).toBe(402);
    expect(lockedAnswer.body.type).toEqual(problemType('tenant-billing-locked'));

    const unlocked = await call('POST', `/admin-v1/workspaces/${workspace.id}/billing-unlock`, {
      token: admin,
    });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toMatchObject({ status: 'ACTIVE', is_billing_locked: false, lock_version: 4 });
    expect((await tags()).status).toBe(200);
  });

  it('answers 200 unchanged for an unlock of a workspace that is not locked', async () => {
    const workspace = await createWorkspace();

    const response = await call('POST', `/admin-v1/workspaces/${workspace.id}/billing-unlock`, {
      token: admin,
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(workspace);
  });

  it('keeps a billing lock underneath a deactivation', async () => {
    const workspace = await createWorkspace();
    const action = (name: string) =>
      call('POST', `/admin-v1/workspaces/${workspace.id}/${name}`, { token: admin });
    await action('billing-lock');

    const deactivated = await action('deactivate');
    const activated = await action('activate');

    expect(deactivated.body).toMatchObject({ status: 'INACTIVE', is_billing_locked: true });
    expect(activated.body).toMatchObject({ status: 'BILLING_LOCKED', is_billing_locked: true });
  });

  it('keeps an INACTIVE workspace INACTIVE on billing-unlock', async () => {
    const workspace = await createWorkspace();
    const action = (name: string) =>
      call('POST', `/admin-v1/workspaces/${workspace.id}/${name}`, { token: admin });
    await action('billing-lock');
    await action('deactivate');

    const unlocked = await action('billing-unlock');

    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toMatchObject({ status: 'INACTIVE', is_billing_locked: false });
  });
});

describe('Admin plane: API clients', () => {
  it('creates a client with a one-time secret whose tokens act in the workspace', async () => {
    const workspace = await createWorkspace();

    const response = await call('POST', `/admin-v1/workspaces/${workspace.id}/clients`, {
      token: admin,
      body: { client_id: `it-${randomUUID().slice(0, 8)}`, roles: ['dispatcher'] },
    });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      client_id: expect.stringMatching(/^it-/),
      client_secret: expect.any(String),
      realm: 'shared',
      roles: ['dispatcher'],
      redirect_uris: [],
    });
    expect(response.headers.get('location')).toBe(
      `${baseUrl()}/admin-v1/workspaces/${workspace.id}/clients/${response.body.client_id}`,
    );
    const token = await clientCredentialsToken(
      'shared',
      response.body.client_id,
      response.body.client_secret,
    );
    expect(claimsOf(token).tenant_id).toBe(workspace.id);
    const denied = await call('POST', '/api/v2/tags', { token, body: { name: 'x', color: '#fff' } });
    expect(denied.status).toBe(403);
    expect(denied.body.data.required_grants).toEqual(['tags:update']);
  });

  it('generates a client id when none is given and reads the client back without its secret', async () => {
    const workspace = await createWorkspace();
    const created = await call('POST', `/admin-v1/workspaces/${workspace.id}/clients`, {
      token: admin,
      body: { roles: ['admin', 'dispatcher'], redirect_uris: ['https://app.example.test/callback'] },
    });

    const response = await call('GET', new URL(created.headers.get('location') ?? '').pathname, {
      token: admin,
    });

    expect(created.body.client_id).toMatch(/^api-[0-9a-f-]{36}$/);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      client_id: created.body.client_id,
      realm: 'shared',
      roles: ['admin', 'dispatcher'],
      redirect_uris: ['https://app.example.test/callback'],
    });
  });

  it('answers 404 for a client of another workspace', async () => {
    const [one, other] = await Promise.all([createWorkspace(), createWorkspace()]);
    const { client } = await workspaceClient(one);

    const response = await call('GET', `/admin-v1/workspaces/${other.id}/clients/${client.client_id}`, {
      token: admin,
    });

    expect(response.status).toBe(404);
  });

  it('answers 409 with a pointer when the client id is taken in the realm', async () => {
    const workspace = await createWorkspace();

    const response = await call('POST', `/admin-v1/workspaces/${workspace.id}/clients`, {
      token: admin,
      body: { client_id: 'acme-admin', roles: ['admin'] },
    });

    expect(response.status).toBe(409);
    expect(response.body.errors[0].pointer).toBe('#/client_id');
  });

  it('answers 404 for a client of an unknown workspace', async () => {
    const response = await call('POST', `/admin-v1/workspaces/${randomUUID()}/clients`, {
      token: admin,
      body: { roles: ['admin'] },
    });

    expect(response.status).toBe(404);
  });

  it.each([
    { title: 'no roles', body: { roles: [] }, pointer: '#/roles' },
    { title: 'missing roles', body: {}, pointer: '#/roles' },
    { title: 'the owner role', body: { roles: ['owner'] }, pointer: '#/roles/0' },
    { title: 'an unknown role', body: { roles: ['admin', 'janitor'] }, pointer: '#/roles/1' },
    { title: 'a repeated role', body: { roles: ['admin', 'admin'] }, pointer: '#/roles/1' },
    {
      title: 'a client id with spaces',
      body: { client_id: 'a b', roles: ['admin'] },
      pointer: '#/client_id',
    },
    {
      title: 'a redirect URI that is not http(s)',
      body: { roles: ['admin'], redirect_uris: ['ftp://files.example.test/'] },
      pointer: '#/redirect_uris/0',
    },
    {
      title: 'a redirect URI with a fragment',
      body: { roles: ['admin'], redirect_uris: ['https://app.example.test/cb#x'] },
      pointer: '#/redirect_uris/0',
    },
  ])('answers 422 with a pointer for $title', async ({ body, pointer }) => {
    const workspace = await createWorkspace();

    const response = await call('POST', `/admin-v1/workspaces/${workspace.id}/clients`, {
      token: admin,
      body,
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });
});
