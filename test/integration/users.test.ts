import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, call, eventually, problemType, tokenFor } from '../support/api.ts';
import { createUser, roleId, uniqueEmail } from '../support/users.ts';

let admin: string;
let technician: string;
let dispatcher: string;
let betaAdmin: string;

beforeAll(async () => {
  [admin, technician, dispatcher, betaAdmin] = await Promise.all([
    tokenFor('acme-admin'),
    tokenFor('acme-technician'),
    tokenFor('acme-dispatcher'),
    tokenFor('beta-admin'),
  ]);
});

async function createTag(name = `tag-${randomUUID().slice(0, 8)}`, color = '#336699') {
  const response = await call('POST', '/api/v2/tags', { token: admin, body: { name, color } });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string; color: string };
}

async function createSkill(name = `skill-${randomUUID().slice(0, 8)}`) {
  const response = await call('POST', '/api/v2/skills', {
    token: admin,
    body: { name, skill_type: 'CERTIFICATION', short_key: `K${randomUUID().slice(0, 6)}` },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; name: string; skill_type: string; short_key: string };
}

/** The text of the newest .eml file written to `to`. */
async function mailTo(to: string): Promise<string> {
  return eventually(async () => {
    const dir = join(inject('dataDir'), 'mail');
    for (const file of (await readdir(dir)).sort().reverse()) {
      const text = await readFile(join(dir, file), 'utf8');
      if (text.includes(`To: ${to}\r\n`)) return text;
    }
    throw new Error(`no mail to ${to}`);
  });
}

describe('Users: create', () => {
  it('creates an ACTIVE user in the documented key order, with Location and lock_version 0', async () => {
    const email = uniqueEmail('create');
    const response = await call('POST', '/api/v2/users', {
      token: admin,
      body: {
        email: email.toUpperCase(),
        firstname: 'Carla',
        lastname: 'Create',
        phone_number: '+49 (30) 1234-5678',
        role_ids: [await roleId(admin, 'dispatcher'), await roleId(admin, 'technician')],
      },
    });

    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/users/${response.body.id}`);
    expect(Object.keys(response.body)).toEqual([
      'id',
      'email',
      'phone_number',
      'roles',
      'skills',
      'firstname',
      'lastname',
      'created_at',
      'updated_at',
      'status',
      'lock_version',
      'can_resend_set_password_email',
      'tags',
    ]);
    expect(response.body).toMatchObject({
      email,
      phone_number: '+493012345678',
      roles: ['dispatcher', 'technician'],
      skills: [],
      tags: [],
      status: 'ACTIVE',
      lock_version: 0,
      can_resend_set_password_email: true,
    });
    expect(response.text).not.toMatch(/password_hash|set_password_token/);

    const read = await call('GET', `/api/v2/users/${response.body.id}`, { token: dispatcher });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
  });

  it('omits phone_number when none is given', async () => {
    const user = await createUser(admin);

    expect(user).not.toHaveProperty('phone_number');
  });

  it('sends an invitation e-mail with a set-password link that continues to the Origin', async () => {
    const email = uniqueEmail('invite');
    const response = await call('POST', '/api/v2/users', {
      token: admin,
      headers: { origin: 'https://app.example.com' },
      body: { email, firstname: 'Ines', lastname: 'Invite', role_ids: [await roleId(admin, 'driver')] },
    });
    expect(response.status).toBe(201);

    const mail = await mailTo(email);
    const link = /http\S+\/realms\/shared\/set-password\?\S+/.exec(mail)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    expect(url.searchParams.get('token')).toMatch(new RegExp(`\\.${response.body.id}\\.`));
    expect(url.searchParams.get('continue')).toBe('https://app.example.com');
    expect(mail).toContain('Subject: Your invitation: set your password');
  });

  it('assigns existing skills and tags and resolves them in the representation', async () => {
    const [tag, skill] = await Promise.all([createTag(), createSkill()]);

    const user = await createUser(admin, { tag_ids: [tag.id], skill_ids: [skill.id] });

    expect(user.tags).toEqual([{ id: tag.id, name: tag.name, color: tag.color }]);
    expect(user.skills).toEqual([
      {
        id: expect.any(String),
        name: skill.name,
        skill: skill.id,
        skill_type: skill.skill_type,
        short_key: skill.short_key,
      },
    ]);
  });

  it('answers 409 resource-conflict pointing at #/email when the e-mail is taken, in any case', async () => {
    const email = uniqueEmail('taken');
    await createUser(admin, { email });

    const response = await call('POST', '/api/v2/users', {
      token: admin,
      body: {
        email: email.toUpperCase(),
        firstname: 'A',
        lastname: 'B',
        role_ids: [await roleId(admin, 'driver')],
      },
    });

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      type: problemType('resource-conflict'),
      errors: [{ pointer: '#/email' }],
    });
  });

  it('answers 409 when another workspace of the shared realm holds the e-mail', async () => {
    const email = uniqueEmail('realm');
    await createUser(betaAdmin, { email, role_ids: [await roleId(betaAdmin, 'driver')] });

    const response = await call('POST', '/api/v2/users', {
      token: admin,
      body: { email, firstname: 'A', lastname: 'B', role_ids: [await roleId(admin, 'driver')] },
    });

    expect(response.status).toBe(409);
    expect(response.body.errors[0].pointer).toBe('#/email');
  });

  it('answers 409 for a seeded user e-mail', async () => {
    const response = await call('POST', '/api/v2/users', {
      token: admin,
      body: {
        email: 'owner@beta.test',
        firstname: 'A',
        lastname: 'B',
        role_ids: [await roleId(admin, 'driver')],
      },
    });

    expect(response.status).toBe(409);
  });

  it.each([
    { title: 'email missing', body: { email: undefined }, pointer: '#/email', type: 'field-required' },
    { title: 'email blank', body: { email: '  ' }, pointer: '#/email', type: 'field-required' },
    {
      title: 'email malformed',
      body: { email: 'not-an-email' },
      pointer: '#/email',
      type: 'validation-failed',
    },
    {
      title: 'firstname missing',
      body: { firstname: undefined },
      pointer: '#/firstname',
      type: 'field-required',
    },
    { title: 'lastname blank', body: { lastname: '' }, pointer: '#/lastname', type: 'field-required' },
    {
      title: 'role_ids missing',
      body: { role_ids: undefined },
      pointer: '#/role_ids',
      type: 'field-required',
    },
    { title: 'role_ids empty', body: { role_ids: [] }, pointer: '#/role_ids', type: 'validation-failed' },
    {
      title: 'a role id unknown',
      body: { role_ids: [randomUUID()] },
      pointer: '#/role_ids/0',
      type: 'validation-failed',
    },
    {
      title: 'a role id no uuid',
      body: { role_ids: ['admin'] },
      pointer: '#/role_ids/0',
      type: 'validation-failed',
    },
    {
      title: 'role_ids a string',
      body: { role_ids: 'x' },
      pointer: '#/role_ids',
      type: 'field-type-invalid',
    },
    {
      title: 'a national phone number',
      body: { phone_number: '030 1234567' },
      pointer: '#/phone_number',
      type: 'validation-failed',
    },
    {
      title: 'a 00 phone prefix',
      body: { phone_number: '0049301234567' },
      pointer: '#/phone_number',
      type: 'validation-failed',
    },
    {
      title: 'an unknown tag',
      body: { tag_ids: [randomUUID()] },
      pointer: '#/tag_ids/0',
      type: 'validation-failed',
    },
    {
      title: 'skill_ids not an array',
      body: { skill_ids: {} },
      pointer: '#/skill_ids',
      type: 'field-type-invalid',
    },
  ])('answers 422 $type at $pointer when $title', async ({ body, pointer, type }) => {
    const input: Record<string, unknown> = {
      email: uniqueEmail('invalid'),
      firstname: 'Val',
      lastname: 'Idation',
      role_ids: [await roleId(admin, 'technician')],
      ...body,
    };

    const response = await call('POST', '/api/v2/users', { token: admin, body: input });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('answers 422 at the index of a repeated role, skill or tag id', async () => {
    const tag = await createTag();
    const technicianRole = await roleId(admin, 'technician');

    const response = await call('POST', '/api/v2/users', {
      token: admin,
      body: {
        email: uniqueEmail(),
        firstname: 'D',
        lastname: 'Up',
        role_ids: [technicianRole, technicianRole],
        tag_ids: [tag.id, tag.id],
      },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/role_ids/1',
      '#/tag_ids/1',
    ]);
  });

  it('answers 422 at #/skill_ids/<i> for a skill of another workspace', async () => {
    const skill = await createSkill();

    const response = await call('POST', '/api/v2/users', {
      token: betaAdmin,
      body: {
        email: uniqueEmail(),
        firstname: 'F',
        lastname: 'Oreign',
        role_ids: [await roleId(betaAdmin, 'driver')],
        skill_ids: [skill.id],
      },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe('#/skill_ids/0');
  });

  it('refuses the owner role on create (422), so ownership moves only by transfer', async () => {
    const response = await call('POST', '/api/v2/users', {
      token: admin,
      body: { email: uniqueEmail(), firstname: 'O', lastname: 'W', role_ids: [await roleId(admin, 'owner')] },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe('#/role_ids/0');
  });

  it('answers 403 with required_grants when a technician creates a user', async () => {
    const response = await call('POST', '/api/v2/users', {
      token: technician,
      body: {
        email: uniqueEmail(),
        firstname: 'T',
        lastname: 'T',
        role_ids: [await roleId(admin, 'driver')],
      },
    });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      type: problemType('access-denied'),
      data: { reason: 'missing_grant', required_grants: ['users:update'] },
    });
  });

  it('answers 403 with required_grants users:read when a technician reads users', async () => {
    const response = await call('GET', '/api/v2/users', { token: technician });

    expect(response.status).toBe(403);
    expect(response.body.data.required_grants).toEqual(['users:read']);
  });

  it('lets a dispatcher read but not write users', async () => {
    const user = await createUser(admin);

    const read = await call('GET', `/api/v2/users/${user.id}`, { token: dispatcher });
    const write = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: dispatcher,
      body: { firstname: 'X' },
    });

    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
    expect(write.body.data.required_grants).toEqual(['users:update']);
  });
});

describe('Users: read', () => {
  it("answers 404 for another workspace's user", async () => {
    const user = await createUser(admin);

    for (const path of [
      `/api/v2/users/${user.id}`,
      `/api/v2/users/${user.id}/skills`,
      `/api/v2/users/${user.id}/tags`,
    ]) {
      const response = await call('GET', path, { token: betaAdmin });
      expect(response.status).toBe(404);
      expect(response.body.type).toEqual(problemType('not-found'));
    }
    const write = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: betaAdmin,
      body: { firstname: 'X' },
    });
    expect(write.status).toBe(404);
  });

  it('answers 404 for a service account id', async () => {
    const me = await call('GET', '/api/v2/me', { token: admin });

    const response = await call('GET', `/api/v2/users/${me.body.id}`, { token: admin });

    expect(response.status).toBe(404);
  });

  it('answers 404 for an unknown and for a malformed id', async () => {
    expect((await call('GET', `/api/v2/users/${randomUUID()}`, { token: admin })).status).toBe(404);
    expect((await call('GET', '/api/v2/users/not-a-uuid', { token: admin })).status).toBe(404);
  });

  it('drops deleted tags and skills from the representation', async () => {
    const [tag, skill] = await Promise.all([createTag(), createSkill()]);
    const user = await createUser(admin, { tag_ids: [tag.id], skill_ids: [skill.id] });

    expect((await call('DELETE', `/api/v2/tags/${tag.id}`, { token: admin })).status).toBe(204);
    expect((await call('DELETE', `/api/v2/skills/${skill.id}`, { token: admin })).status).toBe(204);

    const read = await call('GET', `/api/v2/users/${user.id}`, { token: admin });
    expect(read.body.tags).toEqual([]);
    expect(read.body.skills).toEqual([]);
  });
});

describe('Users: update (merge patch)', () => {
  it('changes the fields sent, keeps the others and increments lock_version', async () => {
    const user = await createUser(admin, { phone_number: '+44 20 7946 0958' });

    const response = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { firstname: 'Paula', lock_version: 0 },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      firstname: 'Paula',
      lastname: user.lastname,
      phone_number: '+442079460958',
      lock_version: 1,
    });
    expect(response.body.updated_at >= user.updated_at).toBe(true);
  });

  it('accepts application/json as an alias of merge-patch', async () => {
    const user = await createUser(admin);

    const response = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { lastname: 'Json' },
      contentType: 'application/json',
    });

    expect(response.status).toBe(200);
    expect(response.body.lastname).toBe('Json');
  });

  it('clears phone_number with null', async () => {
    const user = await createUser(admin, { phone_number: '+14155550123' });

    const response = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { phone_number: null },
    });

    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('phone_number');
  });

  it('answers 409 resource-conflict for a stale lock_version', async () => {
    const user = await createUser(admin);
    await call('PATCH', `/api/v2/users/${user.id}`, { token: admin, body: { firstname: 'One' } });

    const response = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { firstname: 'Two', lock_version: 0 },
    });

    expect(response.status).toBe(409);
    expect(response.body.type).toEqual(problemType('resource-conflict'));
  });

  it('accepts the stored e-mail in any case and refuses another one at #/email (immutable)', async () => {
    const user = await createUser(admin);

    const same = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { email: user.email.toUpperCase() },
    });
    const other = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { email: uniqueEmail('other') },
    });

    expect(same.status).toBe(200);
    expect(same.body.email).toBe(user.email);
    expect(other.status).toBe(422);
    expect(other.body.errors[0].pointer).toBe('#/email');
  });

  it.each([
    { title: 'null firstname', body: { firstname: null }, pointer: '#/firstname', type: 'field-required' },
    { title: 'blank lastname', body: { lastname: ' ' }, pointer: '#/lastname', type: 'field-required' },
    { title: 'null role_ids', body: { role_ids: null }, pointer: '#/role_ids', type: 'field-required' },
    { title: 'empty role_ids', body: { role_ids: [] }, pointer: '#/role_ids', type: 'validation-failed' },
    {
      title: 'a string lock_version',
      body: { lock_version: '1' },
      pointer: '#/lock_version',
      type: 'field-type-invalid',
    },
    {
      title: 'a tag id of nothing',
      body: { tag_ids: ['00000000-0000-4000-8000-000000000000'] },
      pointer: '#/tag_ids/0',
      type: 'validation-failed',
    },
  ])('answers 422 $type at $pointer for $title', async ({ body, pointer, type }) => {
    const user = await createUser(admin);

    const response = await call('PATCH', `/api/v2/users/${user.id}`, { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors[0].pointer).toBe(pointer);
  });

  it('replaces the roles but refuses to add the owner role', async () => {
    const user = await createUser(admin);

    const roles = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { role_ids: [await roleId(admin, 'admin')] },
    });
    const owner = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { role_ids: [await roleId(admin, 'admin'), await roleId(admin, 'owner')] },
    });

    expect(roles.status).toBe(200);
    expect(roles.body.roles).toEqual(['admin']);
    expect(owner.status).toBe(422);
    expect(owner.body.errors[0].pointer).toBe('#/role_ids');
  });

  it('refuses unknown and read-only keys, as every resource does, and changes nothing', async () => {
    const user = await createUser(admin);

    const response = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { nickname: 'x', status: 'BLOCKED' },
    });
    const after = await call('GET', `/api/v2/users/${user.id}`, { token: admin });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      '#/nickname',
      '#/status',
    ]);
    expect(after.body.status).toBe('ACTIVE');
    expect(after.body.lock_version).toBe(user.lock_version);
  });

  it('moves tag usage counts when the tag set changes', async () => {
    const [first, second] = await Promise.all([createTag(), createTag()]);
    const user = await createUser(admin, { tag_ids: [first.id] });

    const response = await call('PATCH', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { tag_ids: [second.id] },
    });
    expect(response.status).toBe(200);

    const [a, b] = await Promise.all([
      call('GET', `/api/v2/tags/${first.id}`, { token: admin }),
      call('GET', `/api/v2/tags/${second.id}`, { token: admin }),
    ]);
    expect(a.body.usage_count).toBe(0);
    expect(b.body.usage_count).toBe(1);
  });
});

describe('Users: skill and tag sets', () => {
  it('lists a user skills and tags as items without page', async () => {
    const [tag, skill] = await Promise.all([createTag(), createSkill()]);
    const user = await createUser(admin, { tag_ids: [tag.id], skill_ids: [skill.id] });

    const skills = await call('GET', `/api/v2/users/${user.id}/skills`, { token: dispatcher });
    const tags = await call('GET', `/api/v2/users/${user.id}/tags`, { token: dispatcher });

    expect(skills.status).toBe(200);
    expect(skills.body).toEqual({ items: user.skills });
    expect(tags.body).toEqual({ items: [{ id: tag.id, name: tag.name, color: tag.color }] });
  });

  it('keeps the skill offering id stable across reads and rewrites', async () => {
    const skill = await createSkill();
    const user = await createUser(admin, { skill_ids: [skill.id] });

    const replaced = await call('PUT', `/api/v2/users/${user.id}/skills`, {
      token: admin,
      body: { skill_ids: [skill.id] },
    });

    expect(replaced.body.skills[0].id).toBe(user.skills[0].id);
  });

  it('replaces the whole set with PUT, [] clears it, and lock_version increments', async () => {
    const [a, b] = await Promise.all([createTag(), createTag()]);
    const user = await createUser(admin, { tag_ids: [a.id] });

    const replaced = await call('PUT', `/api/v2/users/${user.id}/tags`, {
      token: admin,
      body: { tag_ids: [b.id], lock_version: 0 },
    });
    const cleared = await call('PUT', `/api/v2/users/${user.id}/tags`, {
      token: admin,
      body: { tag_ids: [] },
    });

    expect(replaced.status).toBe(200);
    expect(replaced.body.tags.map((t: { id: string }) => t.id)).toEqual([b.id]);
    expect(replaced.body.lock_version).toBe(1);
    expect(cleared.body.tags).toEqual([]);
    expect(cleared.body.lock_version).toBe(2);
    const usage = await call('GET', `/api/v2/tags/${b.id}`, { token: admin });
    expect(usage.body.usage_count).toBe(0);
  });

  it('answers 409 on a stale lock_version and 422 without the id array', async () => {
    const user = await createUser(admin);

    const stale = await call('PUT', `/api/v2/users/${user.id}/skills`, {
      token: admin,
      body: { skill_ids: [], lock_version: 7 },
    });
    const missing = await call('PUT', `/api/v2/users/${user.id}/skills`, { token: admin, body: {} });

    expect(stale.status).toBe(409);
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({
      pointer: '#/skill_ids',
      type: problemType('field-required'),
    });
  });

  it('answers 422 at the index of an unknown skill', async () => {
    const skill = await createSkill();
    const user = await createUser(admin);

    const response = await call('PUT', `/api/v2/users/${user.id}/skills`, {
      token: admin,
      body: { skill_ids: [skill.id, randomUUID()] },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe('#/skill_ids/1');
  });

  it('answers 403 when a technician replaces tags', async () => {
    const user = await createUser(admin);

    const response = await call('PUT', `/api/v2/users/${user.id}/tags`, {
      token: technician,
      body: { tag_ids: [] },
    });

    expect(response.status).toBe(403);
    expect(response.body.data.required_grants).toEqual(['users:update']);
  });
});
