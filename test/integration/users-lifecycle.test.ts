import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';
import { createUser, roleId, tokenOfUser, uniqueEmail, userIdByEmail } from '../support/users.ts';

let admin: string;
let technician: string;
let usersAdmin: string;

beforeAll(async () => {
  [admin, technician, usersAdmin] = await Promise.all([
    tokenFor('acme-admin'),
    tokenFor('acme-technician'),
    tokenFor('users-admin'),
  ]);
});

/** Wrong current passwords until the user's token is refused because the user got blocked. */
async function blockByFailedPasswords(userToken: string): Promise<number> {
  for (let attempt = 1; attempt <= 30; attempt++) {
    const response = await call('POST', '/api/v2/me/change-password', {
      token: userToken,
      body: { current_password: `wrong-${attempt}`, new_password: 'whatever-123' },
    });
    if (response.status === 401 && response.body.type.endsWith('/authentication-required')) return attempt;
    expect(response.body.type).toEqual(problemType('login-failed'));
  }
  throw new Error('the user was never blocked');
}

async function mailsTo(to: string): Promise<string[]> {
  const dir = join(inject('dataDir'), 'mail');
  const texts = await Promise.all(
    (await readdir(dir)).sort().map((file) => readFile(join(dir, file), 'utf8')),
  );
  return texts.filter((text) => text.includes(`To: ${to}\r\n`));
}

function setPasswordLink(mail: string): string {
  const link = /http\S+\/realms\/shared\/set-password\?\S+/.exec(mail)?.[0];
  if (!link) throw new Error('no set-password link');
  return link;
}

/** Set a password the way a user does: open the link, submit the form. */
async function setPasswordThroughPage(link: string, password: string): Promise<number> {
  const page = await fetch(link);
  const html = await page.text();
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
  const response = await fetch(new URL(link).origin + new URL(link).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf: field('csrf'),
      token: field('token'),
      password,
      password_confirm: password,
    }),
  });
  return response.status;
}

async function auditEntriesOf(resourceId: string) {
  const response = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
  expect(response.status).toBe(200);
  return response.body.items.filter(
    (entry: { resource: { id: string } }) => entry.resource.id === resourceId,
  );
}

describe('Users: deactivate and activate', () => {
  it("deactivates a user: INACTIVE, lock_version up, and the user's token is refused", async () => {
    const user = await createUser(admin);
    const userToken = tokenOfUser(admin, user.id);
    expect((await call('GET', '/api/v2/me', { token: userToken })).status).toBe(200);

    const response = await call('POST', `/api/v2/users/${user.id}/deactivate`, { token: admin });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, status: 'INACTIVE', lock_version: 1 });
    const refused = await call('GET', '/api/v2/me', { token: userToken });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      type: problemType('authentication-required'),
      data: { reason: 'token_invalid' },
    });
  });

  it('activates an INACTIVE user again, whose token then works', async () => {
    const user = await createUser(admin);
    const userToken = tokenOfUser(admin, user.id);
    await call('POST', `/api/v2/users/${user.id}/deactivate`, { token: admin });

    const response = await call('POST', `/api/v2/users/${user.id}/activate`, { token: admin });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ACTIVE', lock_version: 2 });
    expect((await call('GET', '/api/v2/me', { token: userToken })).status).toBe(200);
  });

  it('answers an action on a user already in that state unchanged, without a write', async () => {
    const user = await createUser(admin);

    const activate = await call('POST', `/api/v2/users/${user.id}/activate`, { token: admin });
    const unblock = await call('POST', `/api/v2/users/${user.id}/unblock`, { token: admin });
    await call('POST', `/api/v2/users/${user.id}/deactivate`, { token: admin });
    const again = await call('POST', `/api/v2/users/${user.id}/deactivate`, { token: admin });

    expect(activate.status).toBe(200);
    expect(activate.body).toEqual(user);
    expect(unblock.status).toBe(200);
    expect(unblock.body).toEqual(user);
    expect(again.body).toMatchObject({ status: 'INACTIVE', lock_version: 1 });
  });

  it('records user.updated with the previous status', async () => {
    const user = await createUser(admin);

    await call('POST', `/api/v2/users/${user.id}/deactivate`, { token: admin });

    await eventually(async () => {
      const entries = await auditEntriesOf(user.id);
      const updated = entries.find((entry: { event_type: string }) => entry.event_type === 'user.updated');
      expect(updated).toMatchObject({
        actor: { type: 'USER' },
        data: { object: { id: user.id, status: 'INACTIVE' }, previous_attributes: { status: 'ACTIVE' } },
      });
      expect(entries.some((entry: { event_type: string }) => entry.event_type === 'user.created')).toBe(true);
    });
  });

  it('refuses to deactivate the workspace owner: 403 access-denied, resource_locked', async () => {
    const ownerId = await userIdByEmail(admin, 'owner@acme.test');

    const response = await call('POST', `/api/v2/users/${ownerId}/deactivate`, { token: admin });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      type: problemType('access-denied'),
      data: { reason: 'resource_locked' },
    });
  });

  it('answers 403 with required_grants when a technician deactivates, 404 for a service account', async () => {
    const user = await createUser(admin);
    const me = await call('GET', '/api/v2/me', { token: admin });

    const denied = await call('POST', `/api/v2/users/${user.id}/deactivate`, { token: technician });
    const serviceAccount = await call('POST', `/api/v2/users/${me.body.id}/deactivate`, { token: admin });

    expect(denied.status).toBe(403);
    expect(denied.body.data).toEqual({ reason: 'missing_grant', required_grants: ['users:update'] });
    expect(serviceAccount.status).toBe(404);
  });
});

describe('Users: blocking after failed password checks, and unblock', () => {
  it('blocks a user after consecutive wrong passwords, and unblock lets the user in again', async () => {
    const user = await createUser(admin);
    const userToken = tokenOfUser(admin, user.id);

    const attempts = await blockByFailedPasswords(userToken);

    expect(attempts).toBeGreaterThan(1);
    const blocked = await call('GET', `/api/v2/users/${user.id}`, { token: admin });
    expect(blocked.body).toMatchObject({ status: 'BLOCKED', lock_version: 1 });
    await eventually(async () => {
      const entries = await auditEntriesOf(user.id);
      expect(entries).toContainEqual(
        expect.objectContaining({
          event_type: 'user.updated',
          actor: { type: 'SYSTEM' },
          data: expect.objectContaining({ previous_attributes: { status: 'ACTIVE' } }),
        }),
      );
    });

    const unblocked = await call('POST', `/api/v2/users/${user.id}/unblock`, { token: admin });

    expect(unblocked.status).toBe(200);
    expect(unblocked.body).toMatchObject({ status: 'ACTIVE', lock_version: 2 });
    // The failure count starts over: one more wrong password does not block again.
    const wrong = await call('POST', '/api/v2/me/change-password', {
      token: userToken,
      body: { current_password: 'still-wrong', new_password: 'whatever-123' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.type).toEqual(problemType('login-failed'));
  });

  it('lists blocked users with status=BLOCKED', async () => {
    const user = await createUser(admin, { lastname: `Blocked${randomUUID().slice(0, 8)}` });
    await blockByFailedPasswords(tokenOfUser(admin, user.id));

    const blocked = await call('GET', `/api/v2/users?status=BLOCKED&search=${user.lastname}`, {
      token: admin,
    });
    const active = await call('GET', `/api/v2/users?search=${user.lastname}`, { token: admin });

    expect(blocked.body.items.map((u: { id: string }) => u.id)).toEqual([user.id]);
    expect(active.body.items).toEqual([]);
  });

  it('activate also unblocks', async () => {
    const user = await createUser(admin);
    await blockByFailedPasswords(tokenOfUser(admin, user.id));

    const response = await call('POST', `/api/v2/users/${user.id}/activate`, { token: admin });

    expect(response.body.status).toBe('ACTIVE');
  });
});

describe('Users: resend set-password e-mail', () => {
  it('answers 202 and sends a new link while the user has not set a password, 422 afterwards', async () => {
    const email = uniqueEmail('resend');
    const user = await createUser(admin, { email });
    const invitation = setPasswordLink((await mailsTo(email))[0] ?? '');

    const resend = await call('POST', `/api/v2/users/${user.id}/resend-set-password-email`, {
      token: admin,
      headers: { origin: 'https://dispatch.example.org' },
    });

    expect(resend.status).toBe(202);
    expect(resend.text).toBe('');
    const mails = await eventually(async () => {
      const found = await mailsTo(email);
      expect(found).toHaveLength(2);
      return found;
    });
    const reminder = mails.find((mail) => mail.includes('Subject: Set your password')) ?? '';
    const link = setPasswordLink(reminder);
    expect(new URL(link).searchParams.get('continue')).toBe('https://dispatch.example.org');
    // The newer link replaces the older one.
    expect((await fetch(invitation)).status).toBe(410);

    expect(await setPasswordThroughPage(link, 'a-new-password-1')).toBe(200);

    const after = await call('GET', `/api/v2/users/${user.id}`, { token: admin });
    expect(after.body).toMatchObject({ can_resend_set_password_email: false, lock_version: 1 });
    const refused = await call('POST', `/api/v2/users/${user.id}/resend-set-password-email`, {
      token: admin,
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      type: problemType('validation-failed'),
      data: { reason: 'password_already_set' },
    });
    // The password works: it is accepted as the current one.
    const change = await call('POST', '/api/v2/me/change-password', {
      token: tokenOfUser(admin, user.id),
      body: { current_password: 'a-new-password-1', new_password: 'a-newer-password-2' },
    });
    expect(change.status).toBe(204);
  });

  it('answers 404 for an unknown user and 403 for a technician', async () => {
    const user = await createUser(admin);

    const unknown = await call('POST', `/api/v2/users/${randomUUID()}/resend-set-password-email`, {
      token: admin,
    });
    const denied = await call('POST', `/api/v2/users/${user.id}/resend-set-password-email`, {
      token: technician,
    });

    expect(unknown.status).toBe(404);
    expect(denied.status).toBe(403);
  });
});

describe('Users: transfer ownership', () => {
  let ownerId: string;
  let ownerToken: string;

  beforeAll(async () => {
    ownerId = await userIdByEmail(usersAdmin, 'owner@users.test');
    ownerToken = tokenOfUser(usersAdmin, ownerId);
  });

  it('answers 403 with required_grants to an admin', async () => {
    const target = await createUser(usersAdmin);

    const response = await call('POST', `/api/v2/users/${target.id}/transfer-ownership`, {
      token: usersAdmin,
    });

    expect(response.status).toBe(403);
    expect(response.body.data).toEqual({
      reason: 'missing_grant',
      required_grants: ['tenant:ownership:update'],
    });
  });

  it('answers 422 for a user that is not ACTIVE and 404 for unknown ids and service accounts', async () => {
    const inactive = await createUser(usersAdmin);
    await call('POST', `/api/v2/users/${inactive.id}/deactivate`, { token: usersAdmin });
    const serviceAccount = await call('GET', '/api/v2/me', { token: usersAdmin });

    const notActive = await call('POST', `/api/v2/users/${inactive.id}/transfer-ownership`, {
      token: ownerToken,
    });
    const unknown = await call('POST', `/api/v2/users/${randomUUID()}/transfer-ownership`, {
      token: ownerToken,
    });
    const account = await call('POST', `/api/v2/users/${serviceAccount.body.id}/transfer-ownership`, {
      token: ownerToken,
    });

    expect(notActive.status).toBe(422);
    expect(unknown.status).toBe(404);
    expect(account.status).toBe(404);
  });

  it('answers 200 unchanged when the owner names itself', async () => {
    const before = await call('GET', '/api/v2/me', { token: ownerToken });

    const response = await call('POST', `/api/v2/users/${ownerId}/transfer-ownership`, { token: ownerToken });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(before.body);
  });

  it('moves the owner role: the target gains owner, the former owner keeps admin, and back', async () => {
    const target = await createUser(usersAdmin, { role_ids: [await roleId(usersAdmin, 'dispatcher')] });

    const response = await call('POST', `/api/v2/users/${target.id}/transfer-ownership`, {
      token: ownerToken,
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: target.id, roles: ['owner', 'dispatcher'], lock_version: 1 });
    const former = await call('GET', `/api/v2/users/${ownerId}`, { token: usersAdmin });
    expect(former.body.roles).toEqual(['admin']);
    // The former owner no longer holds the grant; the new owner does, and cannot be deactivated.
    const denied = await call('POST', `/api/v2/users/${ownerId}/transfer-ownership`, { token: ownerToken });
    expect(denied.status).toBe(403);
    const locked = await call('POST', `/api/v2/users/${target.id}/deactivate`, { token: usersAdmin });
    expect(locked.status).toBe(403);
    expect(locked.body.data.reason).toBe('resource_locked');

    const back = await call('POST', `/api/v2/users/${ownerId}/transfer-ownership`, {
      token: tokenOfUser(usersAdmin, target.id),
    });

    expect(back.status).toBe(200);
    expect(back.body.roles).toEqual(['owner', 'admin']);
    const previous = await call('GET', `/api/v2/users/${target.id}`, { token: usersAdmin });
    expect(previous.body.roles).toEqual(['admin', 'dispatcher']);
  });
});
