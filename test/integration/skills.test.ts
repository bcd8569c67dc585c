import { randomInt, randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, call, claimsOf, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let dispatcher: string;
let technician: string;
let beta: string;

beforeAll(async () => {
  [admin, dispatcher, technician, beta] = await Promise.all([
    tokenFor('acme-admin'),
    tokenFor('acme-dispatcher'),
    tokenFor('acme-technician'),
    tokenFor('beta-admin'),
  ]);
});

/** Twelve random capitals: a short_key no other test of the shared stack will hold. */
const randomKey = () => Array.from({ length: 12 }, () => String.fromCharCode(65 + randomInt(26))).join('');

/** A name whose initials are `key`: "Ax Bx Cx …". */
const nameWithInitials = (key: string) =>
  key
    .split('')
    .map((letter) => `${letter}x`)
    .join(' ');

async function createSkill(body: Record<string, unknown> = {}, token = admin) {
  const response = await call('POST', '/api/v2/skills', {
    token,
    body: { name: `Skill ${randomUUID()}`, short_key: randomKey(), ...body },
  });
  expect(response.status).toBe(201);
  return response.body as Record<string, any>;
}

describe('Skills: create', () => {
  it('answers 201 with the full skill, lock_version 0 and an absolute Location', async () => {
    const shortKey = randomKey();
    const response = await call('POST', '/api/v2/skills', {
      token: admin,
      body: {
        name: 'Gas appliance certificate',
        skill_type: 'CERTIFICATION',
        short_key: shortKey,
        description: 'Valid for domestic boilers',
      },
    });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Gas appliance certificate',
      skill_type: 'CERTIFICATION',
      short_key: shortKey,
      description: 'Valid for domestic boilers',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      lock_version: 0,
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/skills/${response.body.id}`);
  });

  it('defaults skill_type to GENERAL and short_key to the initials of the name, omitting description', async () => {
    const key = randomKey();

    const skill = await createSkill({ name: nameWithInitials(key.toLowerCase()), short_key: undefined });

    expect(skill).toMatchObject({ skill_type: 'GENERAL', short_key: key });
    expect(skill).not.toHaveProperty('description');
    expect(JSON.stringify(skill)).not.toContain('null');
  });

  it('appends a number to a derived short_key that another skill already uses', async () => {
    const key = randomKey();
    await createSkill({ short_key: key.toLowerCase() });

    const skill = await createSkill({ name: nameWithInitials(key), short_key: undefined });

    expect(skill.short_key).toBe(`${key}2`);
  });

  it('answers 409 resource-conflict at #/short_key when the short_key is taken in any letter case', async () => {
    const taken = await createSkill();

    const response = await call('POST', '/api/v2/skills', {
      token: admin,
      body: { name: 'Copycat', short_key: taken.short_key.toLowerCase() },
    });

    expect(response.status).toBe(409);
    expect(response.body.type).toEqual(problemType('resource-conflict'));
    expect(response.body.errors).toEqual([
      expect.objectContaining({ pointer: '#/short_key', data: { skill_id: taken.id } }),
    ]);
  });

  it.each([
    { title: 'a missing name', body: { short_key: 'X' }, type: 'field-required', pointer: '#/name' },
    { title: 'a blank name', body: { name: '  ' }, type: 'field-required', pointer: '#/name' },
    { title: 'a number as name', body: { name: 7 }, type: 'field-type-invalid', pointer: '#/name' },
    {
      title: 'a blank short_key',
      body: { name: 'x', short_key: '' },
      type: 'field-required',
      pointer: '#/short_key',
    },
    {
      title: 'a short_key of 17 characters',
      body: { name: 'x', short_key: 'ABCDEFGHIJKLMNOPQ' },
      type: 'validation-failed',
      pointer: '#/short_key',
    },
    {
      title: 'a null skill_type',
      body: { name: 'x', skill_type: null },
      type: 'field-required',
      pointer: '#/skill_type',
    },
    {
      title: 'a list as description',
      body: { name: 'x', description: ['a'] },
      type: 'field-type-invalid',
      pointer: '#/description',
    },
  ])('rejects $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const response = await call('POST', '/api/v2/skills', { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  });
});

describe('Skills: short keys across containers', () => {
  it('answers 409 for a short_key whose guard another container wrote at the same instant', async () => {
    // Another container committed this key a moment ago: its skill is not in our list yet, but
    // its guard item is in the table.
    const key = randomKey();
    const workspaceId = String(claimsOf(admin).tenant_id);
    const table = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: inject('dynamodbEndpoint'),
        region: 'eu-central-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    await table.send(
      new PutCommand({
        TableName: 'fsm',
        Item: {
          pk: `T#${workspaceId}#SKILL_KEY`,
          sk: key,
          entity: 'skill-short-key',
          skill_id: randomUUID(),
        },
      }),
    );
    table.destroy();

    const response = await call('POST', '/api/v2/skills', {
      token: admin,
      body: { name: 'Racer', short_key: key.toLowerCase() },
    });

    expect(response.status).toBe(409);
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: '#/short_key' })]);
  });

  it('frees the old short_key when a skill changes it', async () => {
    const skill = await createSkill();
    const renamed = await call('PATCH', `/api/v2/skills/${skill.id}`, {
      token: admin,
      body: { short_key: randomKey() },
    });
    expect(renamed.status).toBe(200);

    const reuse = await createSkill({ short_key: skill.short_key });

    expect(reuse.short_key).toBe(skill.short_key);
  });
});

describe('Skills: read', () => {
  it('returns the skill by id and answers 404 for an unknown one', async () => {
    const skill = await createSkill();

    const found = await call('GET', `/api/v2/skills/${skill.id}`, { token: admin });
    const missing = await call('GET', `/api/v2/skills/${randomUUID()}`, { token: admin });

    expect(found.status).toBe(200);
    expect(found.body).toEqual(skill);
    expect(missing.status).toBe(404);
    expect(missing.body.type).toEqual(problemType('not-found'));
  });

  it('lists skills with the page envelope, sorted by name by default', async () => {
    const suffix = randomUUID();
    const last = await createSkill({ name: `zz-${suffix}` });
    const middle = await createSkill({ name: `Mm-${suffix}` });
    const first = await createSkill({ name: `aa-${suffix}` });

    const response = await call('GET', '/api/v2/skills?size=100', { token: admin });

    expect(response.status).toBe(200);
    const ids = response.body.items.map((s: { id: string }) => s.id);
    expect(ids.filter((id: string) => [first.id, middle.id, last.id].includes(id))).toEqual([
      first.id,
      middle.id,
      last.id,
    ]);
    expect(response.body.page).toMatchObject({ number: 0, size: 100 });
  });

  it('sorts by short_key descending when asked', async () => {
    const low = await createSkill({ short_key: `A${randomKey().slice(1)}` });
    const high = await createSkill({ short_key: `Z${randomKey().slice(1)}` });

    const response = await call('GET', '/api/v2/skills?size=100&sort=short_key:desc', { token: admin });

    expect(response.status).toBe(200);
    const ids = response.body.items.map((s: { id: string }) => s.id);
    expect(ids.indexOf(high.id)).toBeLessThan(ids.indexOf(low.id));
  });
});

describe('Skills: update', () => {
  it('merge-patches the fields sent, increments lock_version and clears description with null', async () => {
    const skill = await createSkill({ description: 'to be removed' });

    const response = await call('PATCH', `/api/v2/skills/${skill.id}`, {
      token: admin,
      body: { name: 'Renamed', description: null, lock_version: 0 },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Renamed',
      short_key: skill.short_key,
      skill_type: skill.skill_type,
      lock_version: 1,
    });
    expect(response.body).not.toHaveProperty('description');
    expect((await call('GET', `/api/v2/skills/${skill.id}`, { token: admin })).body).toEqual(response.body);
  });

  it('answers 409 resource-conflict for a stale lock_version', async () => {
    const skill = await createSkill();
    await call('PATCH', `/api/v2/skills/${skill.id}`, { token: admin, body: { name: 'first' } });

    const stale = await call('PATCH', `/api/v2/skills/${skill.id}`, {
      token: admin,
      body: { name: 'second', lock_version: 0 },
    });

    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
  });

  it('answers 409 at #/short_key when the new short_key belongs to another skill', async () => {
    const other = await createSkill();
    const skill = await createSkill();

    const response = await call('PATCH', `/api/v2/skills/${skill.id}`, {
      token: admin,
      body: { short_key: ` ${other.short_key.toLowerCase()}` },
    });

    expect(response.status).toBe(409);
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: '#/short_key' })]);
  });

  it('lets a skill change the letter case of its own short_key', async () => {
    const skill = await createSkill();

    const response = await call('PATCH', `/api/v2/skills/${skill.id}`, {
      token: admin,
      body: { short_key: skill.short_key.toLowerCase() },
    });

    expect(response.status).toBe(200);
    expect(response.body.short_key).toBe(skill.short_key.toLowerCase());
  });

  it.each([
    { title: 'a null name', body: { name: null }, type: 'field-required', pointer: '#/name' },
    { title: 'a null short_key', body: { short_key: null }, type: 'field-required', pointer: '#/short_key' },
    {
      title: 'a blank skill_type',
      body: { skill_type: ' ' },
      type: 'field-required',
      pointer: '#/skill_type',
    },
    {
      title: 'a string lock_version',
      body: { lock_version: '0' },
      type: 'field-type-invalid',
      pointer: '#/lock_version',
    },
  ])('rejects $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const skill = await createSkill();

    const response = await call('PATCH', `/api/v2/skills/${skill.id}`, { token: admin, body });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  });
});

describe('Skills: delete', () => {
  it('deletes with 204 and then answers 404', async () => {
    const skill = await createSkill();

    expect((await call('DELETE', `/api/v2/skills/${skill.id}`, { token: admin })).status).toBe(204);
    expect((await call('GET', `/api/v2/skills/${skill.id}`, { token: admin })).status).toBe(404);
    expect((await call('DELETE', `/api/v2/skills/${skill.id}`, { token: admin })).status).toBe(404);
  });

  it('removes a deleted skill from the skills of the users who offered it', async () => {
    const kept = await createSkill();
    const deleted = await createSkill();
    const roles = await call('GET', '/api/v2/roles', { token: admin });
    const technicianRole = roles.body.items.find((role: { name: string }) => role.name === 'technician');
    const user = await call('POST', '/api/v2/users', {
      token: admin,
      body: {
        email: `skilled-${randomUUID()}@acme.test`,
        firstname: 'Sid',
        lastname: 'Skilled',
        role_ids: [technicianRole.id],
        skill_ids: [kept.id, deleted.id],
      },
    });
    expect(user.status).toBe(201);

    await call('DELETE', `/api/v2/skills/${deleted.id}`, { token: admin });
    const skills = await call('GET', `/api/v2/users/${user.body.id}/skills`, { token: admin });

    expect(skills.status).toBe(200);
    expect(skills.body.items.map((s: { skill: string }) => s.skill)).toEqual([kept.id]);
  });

  it('frees the short_key of a deleted skill', async () => {
    const skill = await createSkill();
    await call('DELETE', `/api/v2/skills/${skill.id}`, { token: admin });

    const reuse = await createSkill({ short_key: skill.short_key });

    expect(reuse.short_key).toBe(skill.short_key);
  });
});

describe('Skills: access', () => {
  it.each([
    { role: 'technician', token: () => technician },
    { role: 'dispatcher', token: () => dispatcher },
  ])('lets a $role read skills but answers 403 with required_grants on writes', async ({ token }) => {
    const skill = await createSkill();

    const list = await call('GET', '/api/v2/skills', { token: token() });
    const read = await call('GET', `/api/v2/skills/${skill.id}`, { token: token() });
    const writes = [
      await call('POST', '/api/v2/skills', { token: token(), body: { name: 'mine' } }),
      await call('PATCH', `/api/v2/skills/${skill.id}`, { token: token(), body: { name: 'mine' } }),
      await call('DELETE', `/api/v2/skills/${skill.id}`, { token: token() }),
    ];

    expect([list.status, read.status]).toEqual([200, 200]);
    for (const denied of writes) {
      expect(denied.status).toBe(403);
      expect(denied.body.type).toEqual(problemType('access-denied'));
      expect(denied.body.data).toEqual({ reason: 'missing_grant', required_grants: ['skills:update'] });
    }
  });

  it('never shows a skill of another workspace, which looks exactly like a missing one', async () => {
    const skill = await createSkill();

    const read = await call('GET', `/api/v2/skills/${skill.id}`, { token: beta });
    const patch = await call('PATCH', `/api/v2/skills/${skill.id}`, {
      token: beta,
      body: { name: 'stolen' },
    });
    const remove = await call('DELETE', `/api/v2/skills/${skill.id}`, { token: beta });
    const list = await call('GET', '/api/v2/skills?size=100', { token: beta });

    expect([read.status, patch.status, remove.status]).toEqual([404, 404, 404]);
    expect(list.body.items.map((s: { id: string }) => s.id)).not.toContain(skill.id);
    expect((await call('GET', `/api/v2/skills/${skill.id}`, { token: admin })).body.name).toBe(skill.name);
  });

  it('lets another workspace use the same short_key', async () => {
    const skill = await createSkill();

    const response = await call('POST', '/api/v2/skills', {
      token: beta,
      body: { name: 'Same key elsewhere', short_key: skill.short_key },
    });

    expect(response.status).toBe(201);
  });
});

describe('Skills: audit log', () => {
  it('records skill.created, skill.updated and skill.deleted', async () => {
    const skill = await createSkill({ description: 'audited' });
    await call('PATCH', `/api/v2/skills/${skill.id}`, { token: admin, body: { name: 'Audited skill' } });
    await call('DELETE', `/api/v2/skills/${skill.id}`, { token: admin });

    const entries = await eventually(async () => {
      const response = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = response.body.items.filter(
        (e: { resource: { id: string } }) => e.resource.id === skill.id,
      );
      expect(found).toHaveLength(3);
      return found;
    });

    expect(entries.map((e: { event_type: string }) => e.event_type)).toEqual([
      'skill.deleted',
      'skill.updated',
      'skill.created',
    ]);
    expect(entries[1].resource).toEqual({ type: 'skill', id: skill.id });
    expect(entries[1].data.previous_attributes).toEqual({ name: skill.name });
  });
});
