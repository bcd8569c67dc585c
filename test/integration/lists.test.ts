/**
 * Lists served by their indexes (shared/data/lists.ts), in a workspace of their own: every sort
 * key in both directions and every filter, read page by page and compared with an order and a
 * selection computed here from what the test created, by the published rules (text compared as
 * ICU does with case and accents ignored and numbers by value, ties by id in the direction of
 * the sort; SPEC.md's filters). The test service walks its indexes 7 entries per Query
 * (FSM_LIST_QUERY_MAX), so every list spans many index pages.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { roleIdOf } from '../../shared/domain/roles/role.catalog.ts';
import { adminToken, clientCredentialsToken } from '../support/admin.ts';
import { call } from '../support/api.ts';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

interface UserRef {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
  roles: string[];
  skill_ids: string[];
  tag_ids: string[];
  status: string;
  created_at: string;
  updated_at: string;
}

let token: string;
let users: UserRef[] = [];
const tags: Array<{ id: string; name: string; color: string; created_at: string; updated_at: string }> = [];
const skills: Array<{
  id: string;
  name: string;
  skill_type: string;
  short_key: string;
  created_at: string;
  updated_at: string;
}> = [];
const areas: Array<{ id: string; name: string; color: string; created_at: string; updated_at: string }> = [];

const firstNames = [
  'Lukas',
  'lukas',
  'Jana',
  'Öz',
  'Anna-Lena',
  'Zoë',
  'Zoe',
  'Élodie',
  'Eloise',
  'Ida 9',
  'Ida 10',
  'Mia',
];
const lastNames = [
  'Brandt',
  'brandt',
  'Müller',
  'Muller',
  'van der Berg',
  'Berg',
  'Bergmann',
  'Öztürk',
  'Level 2',
  'Level 10',
  'Weber',
  'Aaron',
];
const roleSets = [
  ['technician'],
  ['driver'],
  ['dispatcher'],
  ['technician', 'driver'],
  ['admin'],
  ['dispatcher', 'technician'],
];

async function runAll<T>(count: number, work: (i: number) => Promise<T>, parallel = 8): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

async function create<T = any>(path: string, body: unknown): Promise<T> {
  const response = await call('POST', path, { token, body });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${response.text}`);
  return response.body as T;
}

beforeAll(async () => {
  const admin = await adminToken();
  const suffix = randomUUID().slice(0, 8);
  const workspace = await call('POST', '/admin-v1/workspaces', {
    token: admin,
    body: {
      name: `Lists ${suffix}`,
      owner: { email: `owner-${suffix}@lists.test`, firstname: 'Olga', lastname: 'Owner' },
    },
  });
  const client = await call('POST', `/admin-v1/workspaces/${workspace.body.id}/clients`, {
    token: admin,
    body: { client_id: `lists-${suffix}`, roles: ['admin'] },
  });
  token = await clientCredentialsToken(client.body.realm, client.body.client_id, client.body.client_secret);

  for (const [i, name] of ['Night shift', 'night Shift 2', 'Früh', 'Fruh', 'Level 10', 'Level 2'].entries()) {
    tags.push(
      await create('/api/v2/tags', { name, color: ['#112233', 'red', '#abc', 'Blue', '#000', '#fff'][i] }),
    );
    skills.push(
      await create('/api/v2/skills', {
        name: `${name} skill`,
        skill_type: ['GENERAL', 'CERTIFICATION', 'language', 'Language', 'GENERAL', 'safety'][i],
        short_key: `K${i}${i % 2 === 0 ? 'a' : 'B'}`,
      }),
    );
  }
  const created = await runAll(120, (i) =>
    create<UserRef>('/api/v2/users', {
      email: `user${i}.${lastNames[i % 12]?.replace(/\W/g, '')}@lists${i % 3}.test`,
      firstname: firstNames[(i * 7) % 12],
      lastname: lastNames[i % 12],
      role_ids: (roleSets[i % 6] ?? []).map((role) => roleIdOf(role as never)),
      skill_ids: skills.filter((_, s) => (i + s) % 4 === 0).map((skill) => skill.id),
      tag_ids: tags.filter((_, t) => (i * 3 + t) % 5 === 0).map((tag) => tag.id),
    }),
  );
  // Some leave: INACTIVE is a segment of its own.
  await runAll(120, async (i) => {
    if (i % 7 === 3) await call('POST', `/api/v2/users/${created[i]?.id}/deactivate`, { token });
  });
  const all = await pages('/api/v2/users?status=ALL', 100);
  users = all.map((user: any) => ({
    ...user,
    roles: user.roles,
    skill_ids: user.skills.map((s: { skill: string }) => s.skill),
    tag_ids: user.tags.map((t: { id: string }) => t.id),
  }));
  expect(users.length).toBe(121); // the owner too
  areas.push(
    ...(await runAll(45, (i) =>
      create('/api/v2/areas', {
        name: [`Berlin ${i}`, `berlin ${i % 5}`, `Zürich`, `Zurich`, `Level ${i}`][i % 5],
        color: ['#3366ff', '#3366FF', '#00aa00', '#fff', '#ABCDEF'][i % 4],
      }),
    )),
  );
}, 180_000);

/** Every item of a list, page by page (`size` per page), checking the page envelope on the way. */
async function pages(path: string, size: number): Promise<any[]> {
  const items: any[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 0; ; page++) {
    const response = await call('GET', `${path}${separator}size=${size}&page=${page}`, { token });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
    const { items: got, page: envelope } = response.body;
    expect(envelope.number).toBe(page);
    expect(envelope.size).toBe(size);
    items.push(...got);
    if (got.length < size) {
      expect(envelope.total_elements).toBe(items.length);
      expect(envelope.total_pages).toBe(Math.ceil(items.length / size));
      return items;
    }
  }
}

type Comparator<T> = (a: T, b: T) => number;
const text =
  <T>(field: keyof T): Comparator<T> =>
  (a, b) =>
    collator.compare(String(a[field] ?? ''), String(b[field] ?? ''));
const raw =
  <T>(field: keyof T): Comparator<T> =>
  (a, b) =>
    String(a[field]) < String(b[field]) ? -1 : String(a[field]) > String(b[field]) ? 1 : 0;
const byId = raw<{ id: string }>('id');

/** The published order: the keys in turn, then id; descending reverses all of it. */
function ordered<T extends { id: string }>(
  items: T[],
  keys: Comparator<T>[],
  direction: 'asc' | 'desc',
): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...items]
    .sort((a, b) => {
      for (const key of keys) {
        const c = key(a, b);
        if (c !== 0) return sign * c;
      }
      return sign * byId(a, b);
    })
    .map((item) => item.id);
}

describe('Lists: users by every sort key', () => {
  const orders: Array<[string, Comparator<UserRef>[]]> = [
    ['last_name', [text('lastname'), text('firstname')]],
    ['first_name', [text('firstname'), text('lastname')]],
    ['email', [text('email')]],
    ['created_at', [raw('created_at')]],
    ['updated_at', [raw('updated_at')]],
  ];
  it.each(
    orders.flatMap(([field, keys]) =>
      (['asc', 'desc'] as const).map((direction) => ({ field, keys, direction })),
    ),
  )('orders every status by $field $direction across pages', async ({ field, keys, direction }) => {
    const listed = await pages(`/api/v2/users?status=ALL&sort=${field}:${direction}`, 13);

    expect(listed.map((user) => user.id)).toEqual(ordered(users, keys, direction));
  });

  it('orders by last name, then first name, by default, ACTIVE users only', async () => {
    const listed = await pages('/api/v2/users', 20);

    const active = users.filter((user) => user.status === 'ACTIVE');
    expect(listed.map((user) => user.id)).toEqual(
      ordered(active, [text('lastname'), text('firstname')], 'asc'),
    );
  });

  it('orders ties of a first sort key by the next one', async () => {
    const listed = await pages('/api/v2/users?status=ALL&sort=last_name:asc&sort=created_at:desc', 11);

    const expected = [...users]
      .sort((a, b) => text<UserRef>('lastname')(a, b) || -raw<UserRef>('created_at')(a, b) || byId(a, b))
      .map((user) => user.id);
    expect(listed.map((user) => user.id)).toEqual(expected);
  });
});

describe('Lists: users by every filter', () => {
  const lastNameOrder = [text<UserRef>('lastname'), text<UserRef>('firstname')];
  const some = () => ({ tag: tags[0] as { id: string; name: string }, skill: skills[1] as { id: string } });
  const words = (user: UserRef) => {
    const fields = [user.firstname, user.lastname, user.email].map((value) =>
      value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase(),
    );
    return [...fields, ...fields.flatMap((value) => value.split(/[^\p{L}\p{N}]+/u))];
  };
  const searching = (search: string) => (user: UserRef) =>
    search
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .every((word) => words(user).some((token) => token.startsWith(word)));
  const cases: Array<{ title: string; query: () => string; keep: (user: UserRef) => boolean }> = [
    { title: 'status INACTIVE', query: () => 'status=INACTIVE', keep: (u) => u.status === 'INACTIVE' },
    { title: 'status ALL', query: () => 'status=ALL', keep: () => true },
    {
      title: 'role technician',
      query: () => 'role=technician',
      keep: (u) => u.status === 'ACTIVE' && u.roles.includes('technician'),
    },
    {
      title: 'role in another case',
      query: () => 'role=DRIVER&status=ALL',
      keep: (u) => u.roles.includes('driver'),
    },
    {
      title: 'role owner',
      query: () => 'role=owner',
      keep: (u) => u.status === 'ACTIVE' && u.roles.includes('owner'),
    },
    {
      title: 'role_ids, any of two',
      query: () => `role_ids=${roleIdOf('admin')}&role_ids=${roleIdOf('dispatcher')}`,
      keep: (u) => u.status === 'ACTIVE' && (u.roles.includes('admin') || u.roles.includes('dispatcher')),
    },
    {
      title: 'one role_id',
      query: () => `role_ids=${roleIdOf('driver')}`,
      keep: (u) => u.status === 'ACTIVE' && u.roles.includes('driver'),
    },
    {
      title: 'skill_ids',
      query: () => `skill_ids=${some().skill.id}&status=ALL`,
      keep: (u) => u.skill_ids.includes(some().skill.id),
    },
    {
      title: 'tag_names, any letter case',
      query: () => `tag_names=${encodeURIComponent(some().tag.name.toUpperCase())}`,
      keep: (u) => u.status === 'ACTIVE' && u.tag_ids.includes(some().tag.id),
    },
    {
      title: 'updated_from (inclusive) and updated_to (exclusive)',
      query: () => {
        const sorted = users.map((u) => u.updated_at).sort();
        return `status=ALL&updated_from=${sorted[30]}&updated_to=${sorted[90]}`;
      },
      keep: (u) => {
        const sorted = users.map((x) => x.updated_at).sort();
        return u.updated_at >= (sorted[30] ?? '') && u.updated_at < (sorted[90] ?? '');
      },
    },
    {
      title: 'search on a last name prefix',
      query: () => 'search=brand',
      keep: (u) => u.status === 'ACTIVE' && searching('brand')(u),
    },
    { title: 'search without accents', query: () => 'search=muller&status=ALL', keep: searching('muller') },
    {
      title: 'search on a word inside a name',
      query: () => 'search=Berg&status=ALL',
      keep: searching('berg'),
    },
    {
      title: 'search on two words',
      query: () => 'search=lukas%20br&status=ALL',
      keep: searching('lukas br'),
    },
    { title: 'search on an e-mail prefix', query: () => 'search=user1&status=ALL', keep: searching('user1') },
    {
      title: 'search on an e-mail domain word',
      query: () => 'search=lists2',
      keep: (u) => u.status === 'ACTIVE' && searching('lists2')(u),
    },
    {
      title: 'search with a role',
      query: () => 'search=lukas&role=driver&status=ALL',
      keep: (u) => searching('lukas')(u) && u.roles.includes('driver'),
    },
    {
      title: 'role and skill together',
      query: () => `role=technician&skill_ids=${some().skill.id}`,
      keep: (u) =>
        u.status === 'ACTIVE' && u.roles.includes('technician') && u.skill_ids.includes(some().skill.id),
    },
  ];
  it.each(cases)('lists exactly the users of $title, with their total', async ({ query, keep }) => {
    const listed = await pages(`/api/v2/users?${query()}`, 7);

    const expected = ordered(users.filter(keep), lastNameOrder, 'asc');
    expect(expected.length).toBeGreaterThan(0);
    expect(listed.map((user) => user.id)).toEqual(expected);
  });

  it('answers an empty page past the end, with the total', async () => {
    const response = await call('GET', '/api/v2/users?role=technician&page=500&size=100', { token });

    expect(response.status).toBe(200);
    expect(response.body.items).toEqual([]);
    expect(response.body.page.total_elements).toBe(
      users.filter((u) => u.status === 'ACTIVE' && u.roles.includes('technician')).length,
    );
  });
});

describe('Lists: areas, tags and skills by every sort key', () => {
  it.each(
    (['name', 'color', 'created_at', 'updated_at', 'id'] as const).flatMap((field) =>
      (['asc', 'desc'] as const).map((direction) => ({ field, direction })),
    ),
  )('orders areas by $field $direction', async ({ field, direction }) => {
    const listed = await pages(`/api/v2/areas?sort=${field}:${direction}`, 8);

    const key =
      field === 'name' || field === 'color'
        ? text<(typeof areas)[number]>(field)
        : raw<(typeof areas)[number]>(field);
    expect(listed.map((area) => area.id)).toEqual(ordered(areas, field === 'id' ? [] : [key], direction));
  });

  it('orders areas by created_at ascending by default', async () => {
    const listed = await pages('/api/v2/areas', 10);

    expect(listed.map((area) => area.id)).toEqual(ordered(areas, [raw('created_at')], 'asc'));
  });

  it.each([
    'name:asc',
    'name:desc',
    'color:asc',
    'created_at:desc',
    'usage_count:desc',
    'usage_count:asc',
    'id:asc',
  ])('orders tags by %s, with their usage counts', async (sort) => {
    const listed = await pages(`/api/v2/tags?sort=${sort}`, 4);

    const [field = 'name', direction = 'asc'] = sort.split(':');
    const usage = (tag: { id: string }) => users.filter((u) => u.tag_ids.includes(tag.id)).length;
    const withUsage = tags.map((tag) => ({ ...tag, usage_count: usage(tag) }));
    const key: Comparator<(typeof withUsage)[number]> =
      field === 'usage_count'
        ? (a, b) => a.usage_count - b.usage_count
        : field === 'name' || field === 'color'
          ? text(field)
          : raw(field as 'created_at');
    expect(listed.map((tag) => tag.id)).toEqual(
      ordered(withUsage, field === 'id' ? [] : [key], direction as 'asc'),
    );
    for (const tag of listed) expect(tag.usage_count).toBe(usage(tag));
  });

  it.each(['name:asc', 'skill_type:asc', 'skill_type:desc', 'short_key:asc', 'updated_at:desc', 'id:desc'])(
    'orders skills by %s',
    async (sort) => {
      const listed = await pages(`/api/v2/skills?sort=${sort}`, 4);

      const [field = 'name', direction = 'asc'] = sort.split(':');
      const key = ['name', 'skill_type', 'short_key'].includes(field)
        ? text<(typeof skills)[number]>(field as 'name')
        : raw<(typeof skills)[number]>(field as 'updated_at');
      expect(listed.map((skill) => skill.id)).toEqual(
        ordered(skills, field === 'id' ? [] : [key], direction as 'asc'),
      );
    },
  );
});

describe('Lists: totals under concurrent writes', () => {
  it('counts exactly after creates and deletes racing each other', async () => {
    const before = (await call('GET', '/api/v2/areas?size=1', { token })).body.page.total_elements;
    const doomed = await runAll(20, (i) =>
      create('/api/v2/areas', { name: `Doomed ${i}`, color: '#123456' }),
    );

    await Promise.all([
      runAll(30, (i) => create('/api/v2/areas', { name: `Racing ${i}`, color: '#654321' })),
      runAll(20, (i) => call('DELETE', `/api/v2/areas/${(doomed[i] as { id: string }).id}`, { token })),
    ]);

    const total = (await call('GET', '/api/v2/areas?size=1', { token })).body.page.total_elements;
    const listed = await pages('/api/v2/areas?sort=name:asc', 50);
    expect(total).toBe(before + 30);
    expect(listed.length).toBe(total);
  }, 60_000);
});

describe('Lists: the largest write of a user fits its transaction', () => {
  it('renames a user and replaces 25 tags with 25 others in one PATCH, counting usage exactly', async () => {
    // Prepare
    const many = await runAll(50, (i) =>
      create<{ id: string }>('/api/v2/tags', { name: `Bulk ${i}`, color: '#777' }),
    );
    const [first, second] = [many.slice(0, 25), many.slice(25)];
    const user = await create<{ id: string }>('/api/v2/users', {
      email: `bulk.tags@lists.test`,
      firstname: 'Bulk',
      lastname: 'Tagged',
      role_ids: [roleIdOf('technician')],
      tag_ids: first.map((tag) => tag.id),
    });

    // Act
    const patched = await call('PATCH', `/api/v2/users/${user.id}`, {
      token,
      body: {
        firstname: 'Renamed Many Words Here',
        lastname: 'Also Renamed',
        tag_ids: second.map((tag) => tag.id),
      },
    });
    const tooMany = await call('PATCH', `/api/v2/users/${user.id}`, {
      token,
      body: { tag_ids: [...second.map((tag) => tag.id), first[0]?.id] },
    });

    // Assess
    expect(patched.status).toBe(200);
    expect(tooMany.status).toBe(422);
    const usage = new Map(
      (await pages('/api/v2/tags?sort=usage_count:desc', 100)).map((tag) => [tag.id, tag.usage_count]),
    );
    expect(first.map((tag) => usage.get(tag.id))).toEqual(first.map(() => 0));
    expect(second.map((tag) => usage.get(tag.id))).toEqual(second.map(() => 1));
    const found = await call('GET', '/api/v2/users?search=renamed%20many', { token });
    expect(found.body.items.map((u: { id: string }) => u.id)).toEqual([user.id]);
  }, 60_000);
});
