import { beforeAll, describe, expect, it } from 'vitest';
import { call, claimsOf, problemType, tokenFor } from '../support/api.ts';
import { createUser, tokenOfUser, userIdByEmail } from '../support/users.ts';

let usersAdmin: string;
let myId: string;
let myToken: string;

beforeAll(async () => {
  usersAdmin = await tokenFor('users-admin');
  myId = await userIdByEmail(usersAdmin, 'me@users.test');
  myToken = tokenOfUser(usersAdmin, myId);
});

describe('Current user: GET /api/v2/me', () => {
  it('answers the calling user as a User, without a grant', async () => {
    const response = await call('GET', '/api/v2/me', { token: myToken });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: myId,
      email: 'me@users.test',
      firstname: 'Mia',
      lastname: 'Myself',
      roles: ['dispatcher'],
      status: 'ACTIVE',
      can_resend_set_password_email: false,
      skills: [],
      tags: [],
    });
    const byId = await call('GET', `/api/v2/users/${myId}`, { token: usersAdmin });
    expect(response.body).toEqual(byId.body);
  });

  it('answers a technician too (no users:read needed)', async () => {
    const technician = await createUser(usersAdmin);

    const response = await call('GET', '/api/v2/me', { token: tokenOfUser(usersAdmin, technician.id) });

    expect(response.status).toBe(200);
    expect(response.body.id).toBe(technician.id);
  });

  it('answers a service account with what it has: no e-mail or names, empty skills and tags', async () => {
    const token = await tokenFor('users-technician');

    const response = await call('GET', '/api/v2/me', { token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: claimsOf(token).sub,
      roles: ['technician'],
      skills: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      status: 'ACTIVE',
      lock_version: expect.any(Number),
      can_resend_set_password_email: false,
      tags: [],
    });
  });

  it('answers 401 without a token', async () => {
    const response = await call('GET', '/api/v2/me');

    expect(response.status).toBe(401);
    expect(response.body.data.reason).toBe('token_missing');
  });
});

describe('Current user: POST /api/v2/me/change-password', () => {
  it('changes the password (204): the new one is then the current one', async () => {
    const change = await call('POST', '/api/v2/me/change-password', {
      token: myToken,
      body: { current_password: 'correct-horse-21', new_password: 'battery-staple-22' },
    });
    const old = await call('POST', '/api/v2/me/change-password', {
      token: myToken,
      body: { current_password: 'correct-horse-21', new_password: 'battery-staple-23' },
    });
    const back = await call('POST', '/api/v2/me/change-password', {
      token: myToken,
      body: { current_password: 'battery-staple-22', new_password: 'correct-horse-21' },
    });

    expect(change.status).toBe(204);
    expect(change.text).toBe('');
    expect(old.status).toBe(401);
    expect(back.status).toBe(204);
  });

  it('answers 401 login-failed for a wrong current password', async () => {
    const user = await createUser(usersAdmin);

    const response = await call('POST', '/api/v2/me/change-password', {
      token: tokenOfUser(usersAdmin, user.id),
      body: { current_password: 'not-it-at-all', new_password: 'long-enough-1' },
    });

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ type: problemType('login-failed'), status: 401 });
    // A 401 always names its scheme; no error attribute, since the token itself was fine.
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    {
      title: 'a new password of 7 characters',
      body: { current_password: 'x', new_password: '1234567' },
      pointer: '#/new_password',
      type: 'validation-failed',
    },
    {
      title: 'no new password',
      body: { current_password: 'x' },
      pointer: '#/new_password',
      type: 'field-required',
    },
    {
      title: 'a blank current password',
      body: { current_password: '  ', new_password: '12345678' },
      pointer: '#/current_password',
      type: 'field-required',
    },
    {
      title: 'a numeric current password',
      body: { current_password: 12345678, new_password: '12345678' },
      pointer: '#/current_password',
      type: 'field-type-invalid',
    },
  ])('answers 422 $type at $pointer for $title', async ({ body, pointer, type }) => {
    const user = await createUser(usersAdmin);

    const response = await call('POST', '/api/v2/me/change-password', {
      token: tokenOfUser(usersAdmin, user.id),
      body,
    });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors[0].pointer).toBe(pointer);
  });

  it('answers 403 resource_locked to a service account, which has no password', async () => {
    const response = await call('POST', '/api/v2/me/change-password', {
      token: usersAdmin,
      body: { current_password: 'anything', new_password: 'long-enough-1' },
    });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      type: problemType('access-denied'),
      data: { reason: 'resource_locked' },
    });
  });
});
