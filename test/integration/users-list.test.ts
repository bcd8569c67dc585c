import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, problemType, tokenFor } from '../support/api.ts';
import { createUser, roleId, tokenOfUser } from '../support/users.ts';

/** Every user of this file carries the marker in its lastname, so lists can be scoped to them. */
const marker = `L${randomUUID().slice(0, 8)}`;

let admin: string;
let dispatcher: string;
const users = {} as Record<'anna' | 'bert' | 'carl' | 'dora', Record<string, any>>;
let tagA: { id: string; name: string };
let tagB: { id: string; name: string };
let skillA: { id: string };

async function list(query: string) {
  return call('GET', `/api/v2/users?search=${marker}&${query}`, { token: admin });
}

/** "Firstname Lastname" (without the marker) of each listed user; the list must have succeeded. */
function namesOf(response: { status: number; text: string; body: any }): string[] {
  expect(response.status, response.text).toBe(200);
  return response.body.items.map(
    (u: { firstname: string; lastname: string }) => `${u.firstname} ${u.lastname.replace(marker, '')}`,
  );
}

beforeAll(async () => {
  [admin, dispatcher] = await Promise.all([tokenFor('acme-admin'), tokenFor('acme-dispatcher')]);
  const tag = async (name: string) =>
    (await call('POST', '/api/v2/tags', { token: admin, body: { name, color: '#123456' } })).body;
  [tagA, tagB] = await Promise.all([tag(`Night ${marker}`), tag(`Day ${marker}`)]);
  skillA = (
    await call('POST', '/api/v2/skills', {
      token: admin,
      body: { name: `Welding ${marker}`, skill_type: 'TRADE', short_key: marker.slice(0, 8) },
    })
  ).body;
  const [dispatcherRole, technicianRole, driverRole] = await Promise.all([
    roleId(admin, 'dispatcher'),
    roleId(admin, 'technician'),
    roleId(admin, 'driver'),
  ]);
  // Created one after the other, so created_at/updated_at follow this order.
  users.anna = await createUser(admin, {
    firstname: 'Anna',
    lastname: `${marker}Baker`,
    email: `zed-${marker.toLowerCase()}@users.test`,
    role_ids: [dispatcherRole],
    tag_ids: [tagA.id],
  });
  users.bert = await createUser(admin, {
    firstname: 'Bert',
    lastname: `${marker}Adams`,
    email: `yak-${marker.toLowerCase()}@users.test`,
    role_ids: [technicianRole],
    skill_ids: [skillA.id],
  });
  users.carl = await createUser(admin, {
    firstname: 'Carl',
    lastname: `${marker}Adams`,
    email: `xen-${marker.toLowerCase()}@users.test`,
    role_ids: [driverRole],
    tag_ids: [tagB.id],
  });
  users.dora = await createUser(admin, {
    firstname: 'Dora',
    lastname: `${marker}Clark`,
    email: `wal-${marker.toLowerCase()}@users.test`,
    role_ids: [technicianRole, driverRole],
  });
  // Carl is deactivated; Dora blocks herself with wrong passwords.
  expect((await call('POST', `/api/v2/users/${users.carl.id}/deactivate`, { token: admin })).status).toBe(
    200,
  );
  const doraToken = tokenOfUser(admin, users.dora.id);
  for (let attempt = 0; attempt < 30; attempt++) {
    const response = await call('POST', '/api/v2/me/change-password', {
      token: doraToken,
      body: { current_password: 'wrong', new_password: 'whatever-123' },
    });
    if (response.status === 401 && response.body.type.endsWith('/authentication-required')) break;
  }
});

describe('Users: list filters', () => {
  it('lists ACTIVE users by default, ordered by last name then first name', async () => {
    const response = await list('');

    expect(namesOf(response)).toEqual(['Bert Adams', 'Anna Baker']);
    expect(response.body.page).toEqual({ size: 20, total_elements: 2, total_pages: 1, number: 0 });
  });

  it.each([
    { status: 'ACTIVE', names: ['Bert Adams', 'Anna Baker'] },
    { status: 'INACTIVE', names: ['Carl Adams'] },
    { status: 'BLOCKED', names: ['Dora Clark'] },
    { status: 'ALL', names: ['Bert Adams', 'Carl Adams', 'Anna Baker', 'Dora Clark'] },
  ])('filters status=$status', async ({ status, names }) => {
    expect(namesOf(await list(`status=${status}`))).toEqual(names);
  });

  it('answers 422 for an unsupported status', async () => {
    const response = await list('status=active');

    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ pointer: '#/query/status', parameter: 'status' });
  });

  it('searches email, firstname and lastname case-insensitively', async () => {
    const search = async (term: string) =>
      call('GET', `/api/v2/users?status=ALL&size=100&search=${encodeURIComponent(term)}`, { token: admin });

    const byEmail = await search(`YAK-${marker}`);
    const byLastname = await search(`${marker.toLowerCase()}baker`);
    const byFirstname = await search('aNnA');

    expect(namesOf(byEmail)).toEqual(['Bert Adams']);
    expect(namesOf(byLastname)).toEqual(['Anna Baker']);
    expect(byFirstname.body.items.map((u: { id: string }) => u.id)).toContain(users.anna.id);
    for (const user of byFirstname.body.items) {
      expect(`${user.email} ${user.firstname} ${user.lastname}`.toLowerCase()).toContain('anna');
    }
  });

  it('filters by role name, case-insensitively; an unknown role is 422', async () => {
    const technicians = await list('status=ALL&role=TECHNICIAN');
    const unknown = await list('role=plumber');

    expect(namesOf(technicians)).toEqual(['Bert Adams', 'Dora Clark']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].pointer).toBe('#/query/role');
  });

  it('filters by role_ids, any of them (repeated keys)', async () => {
    const response = await list(
      `status=ALL&role_ids=${await roleId(admin, 'dispatcher')}&role_ids=${await roleId(admin, 'driver')}`,
    );

    expect(namesOf(response)).toEqual(['Carl Adams', 'Anna Baker', 'Dora Clark']);
  });

  it('answers 422 for comma-separated role_ids', async () => {
    const response = await list(
      `role_ids=${await roleId(admin, 'dispatcher')},${await roleId(admin, 'driver')}`,
    );

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe('#/query/role_ids/0');
  });

  it('filters by skill_ids, any of them', async () => {
    const response = await list(`status=ALL&skill_ids=${skillA.id}&skill_ids=${randomUUID()}`);

    expect(namesOf(response)).toEqual(['Bert Adams']);
  });

  it('filters by tag_names, any of them, case-insensitively', async () => {
    const both = await list(
      `status=ALL&tag_names=${encodeURIComponent(tagA.name.toUpperCase())}&tag_names=${encodeURIComponent(tagB.name)}`,
    );
    const none = await list('status=ALL&tag_names=nothing-like-it');

    expect(namesOf(both)).toEqual(['Carl Adams', 'Anna Baker']);
    expect(none.body.items).toEqual([]);
  });

  it('bounds updated_at: updated_from inclusive, updated_to exclusive', async () => {
    const bert = (await call('GET', `/api/v2/users/${users.bert.id}`, { token: admin })).body;

    const from = await list(`status=ALL&updated_from=${bert.updated_at}`);
    const to = await list(`status=ALL&updated_to=${bert.updated_at}`);

    expect(namesOf(from)).toContain('Bert Adams');
    expect(namesOf(from)).not.toContain('Anna Baker');
    expect(namesOf(to)).toEqual(['Anna Baker']);
  });

  it('answers 422 for a malformed updated_from', async () => {
    const response = await list('updated_from=yesterday');

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe('#/query/updated_from');
  });

  it('combines filters with AND', async () => {
    const response = await list(`status=ALL&role=driver&tag_names=${encodeURIComponent(tagB.name)}`);

    expect(namesOf(response)).toEqual(['Carl Adams']);
  });

  it('never lists service accounts', async () => {
    const me = await call('GET', '/api/v2/me', { token: dispatcher });

    const everyone = await call('GET', '/api/v2/users?status=ALL&size=100', { token: admin });
    let ids: string[] = everyone.body.items.map((u: { id: string }) => u.id);
    for (let page = 1; page < everyone.body.page.total_pages; page++) {
      const next = await call('GET', `/api/v2/users?status=ALL&size=100&page=${page}`, { token: admin });
      ids = ids.concat(next.body.items.map((u: { id: string }) => u.id));
    }

    expect(ids).not.toContain(me.body.id);
    expect(everyone.body.items.every((u: { email?: string }) => typeof u.email === 'string')).toBe(true);
  });
});

describe('Users: list order and pages', () => {
  it.each([
    {
      sort: 'last_name:desc&sort=first_name:desc',
      names: ['Dora Clark', 'Anna Baker', 'Carl Adams', 'Bert Adams'],
    },
    {
      sort: 'lastname:asc&sort=firstname:desc',
      names: ['Carl Adams', 'Bert Adams', 'Anna Baker', 'Dora Clark'],
    },
    { sort: 'first_name:asc', names: ['Anna Baker', 'Bert Adams', 'Carl Adams', 'Dora Clark'] },
    { sort: 'email:asc', names: ['Dora Clark', 'Carl Adams', 'Bert Adams', 'Anna Baker'] },
    { sort: 'created_at:desc', names: ['Dora Clark', 'Carl Adams', 'Bert Adams', 'Anna Baker'] },
    { sort: 'updated_at:asc', names: ['Anna Baker', 'Bert Adams', 'Carl Adams', 'Dora Clark'] },
  ])('sorts by $sort', async ({ sort, names }) => {
    expect(namesOf(await list(`status=ALL&sort=${sort}`))).toEqual(names);
  });

  it('answers 422 for an unknown sort field and for a comma in sort', async () => {
    const unknown = await list('sort=status:asc');
    const comma = await list('sort=email:asc,created_at:desc');

    expect(unknown.status).toBe(422);
    expect(comma.status).toBe(422);
  });

  it('pages with page and size', async () => {
    const first = await list('status=ALL&size=3');
    const second = await list('status=ALL&size=3&page=1');

    expect(namesOf(first)).toEqual(['Bert Adams', 'Carl Adams', 'Anna Baker']);
    expect(namesOf(second)).toEqual(['Dora Clark']);
    expect(second.body.page).toEqual({ size: 3, total_elements: 4, total_pages: 2, number: 1 });
  });

  it.each(['size=0', 'size=101', 'page=-1', 'size=1.5'])('answers 422 for %s', async (query) => {
    const response = await list(query);

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('validation-failed'));
  });
});
