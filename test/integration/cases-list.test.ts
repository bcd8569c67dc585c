/**
 * The case list served by its indexes (shared/data/lists.ts `caseList`), in a workspace of its
 * own: every sort key in both directions, further sort keys, every filter and their
 * combinations, a field worker's own view, read page by page and compared with an order and a
 * selection computed here from what the writes answered (not from the list itself), by the
 * published rules: title as ICU compares with case and accents ignored and numbers by value,
 * status and priority in their published order, cases without a window after every scheduled
 * one, ties by id in the direction of the first sort key. The test service walks its indexes
 * 7 entries per Query (FSM_LIST_QUERY_MAX), so every list spans many index pages.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { roleIdOf } from '../../shared/domain/roles/role.catalog.ts';
import { adminToken, clientCredentialsToken } from '../support/admin.ts';
import { call } from '../support/api.ts';
import { tokenOfUser } from '../support/users.ts';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const statuses = ['NEW', 'SCHEDULED', 'IN_PROGRESS', 'ON_HOLD', 'DONE', 'CANCELLED'];
const priorities = ['LOW', 'NORMAL', 'HIGH', 'URGENT'];

interface CaseRef {
  id: string;
  title: string;
  status: string;
  priority: string;
  area_id?: string;
  assignee_id?: string;
  scheduled_start?: string;
  scheduled_end?: string;
  created_at: string;
  updated_at: string;
}

let token: string;
let areas: string[] = [];
let technicians: string[] = [];
/** Every case as its last write answered it; deleted ones removed. */
const cases = new Map<string, CaseRef>();

const titles = [
  'Boiler service',
  'boiler service',
  'Boiler 10',
  'Boiler 9',
  'Zürich pump',
  'Zurich pump',
  'Élodie heat pump',
  'Eloise heat pump',
  'Level 2 leak',
  'Level 10 leak',
  'Öl tank',
  'Aaron meter',
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

async function send<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await call(method, path, { token, body });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.body as T;
}

const day = (offset: number, hour = 8) => new Date(Date.UTC(2026, 2, 1 + offset, hour)).toISOString();

beforeAll(async () => {
  const admin = await adminToken();
  const suffix = randomUUID().slice(0, 8);
  const workspace = await call('POST', '/admin-v1/workspaces', {
    token: admin,
    body: {
      name: `Case lists ${suffix}`,
      owner: { email: `owner-${suffix}@case-lists.test`, firstname: 'Olga', lastname: 'Owner' },
    },
  });
  const client = await call('POST', `/admin-v1/workspaces/${workspace.body.id}/clients`, {
    token: admin,
    body: { client_id: `case-lists-${suffix}`, roles: ['dispatcher'] },
  });
  token = await clientCredentialsToken(client.body.realm, client.body.client_id, client.body.client_secret);
  // Users are created by an admin of the workspace: the dispatcher may not.
  const adminClient = await call('POST', `/admin-v1/workspaces/${workspace.body.id}/clients`, {
    token: admin,
    body: { client_id: `case-lists-admin-${suffix}`, roles: ['admin'] },
  });
  const adminOfWorkspace = await clientCredentialsToken(
    adminClient.body.realm,
    adminClient.body.client_id,
    adminClient.body.client_secret,
  );

  areas = (
    await runAll(3, (i) =>
      send<{ id: string }>('POST', '/api/v2/areas', { name: `Area ${i}`, color: '#123456' }),
    )
  ).map((area) => area.id);
  technicians = await runAll(3, async (i) => {
    const response = await call('POST', '/api/v2/users', {
      token: adminOfWorkspace,
      body: {
        email: `tech${i}-${suffix}@case-lists.test`,
        firstname: 'Tech',
        lastname: `Nr ${i}`,
        role_ids: [roleIdOf('technician')],
      },
    });
    if (response.status !== 201) throw new Error(response.text);
    return response.body.id as string;
  });

  const created = await runAll(96, (i) => {
    const scheduled = i % 3 !== 0;
    const start = day((i * 7) % 20, 6 + (i % 5));
    const end = new Date(Date.parse(start) + (i % 11 === 1 ? 10 * 86_400_000 : ((i % 4) + 1) * 3_600_000));
    return send<CaseRef>('POST', '/api/v2/cases', {
      title: titles[i % titles.length],
      status: statuses[(i * 5) % 6],
      priority: priorities[(i * 3) % 4],
      ...(i % 4 === 3 ? {} : { area_id: areas[i % 3] }),
      ...(i % 5 < 3 ? { assignee_id: technicians[i % 3] } : {}),
      ...(scheduled ? { scheduled_start: start, scheduled_end: end.toISOString() } : {}),
    });
  });
  for (const record of created) cases.set(record.id, record);

  // Later writes move cases between statuses, assignees and areas, and change updated_at.
  await runAll(created.length, async (i) => {
    const record = created[i] as CaseRef;
    if (i % 13 === 5) {
      await send('DELETE', `/api/v2/cases/${record.id}`);
      cases.delete(record.id);
      return;
    }
    const patch: Record<string, unknown> = {};
    if (i % 4 === 1) patch.status = statuses[(i * 3 + 1) % 6];
    if (i % 6 === 2) patch.priority = priorities[(i + 1) % 4];
    if (i % 9 === 2) patch.assignee_id = i % 2 === 0 ? technicians[(i + 1) % 3] : null;
    if (i % 10 === 7) patch.area_id = areas[(i + 2) % 3];
    if (Object.keys(patch).length === 0) return;
    cases.set(record.id, await send<CaseRef>('PATCH', `/api/v2/cases/${record.id}`, patch));
  });
}, 180_000);

/** Every item of a list, page by page (`size` per page), checking the page envelope on the way. */
async function pages(path: string, size: number, as = token): Promise<CaseRef[]> {
  const items: CaseRef[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 0; ; page++) {
    const response = await call('GET', `${path}${separator}size=${size}&page=${page}`, { token: as });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
    const { items: got, page: envelope } = response.body;
    expect(envelope.number).toBe(page);
    items.push(...got);
    if (got.length < size) {
      expect(envelope.total_elements).toBe(items.length);
      expect(envelope.total_pages).toBe(Math.ceil(items.length / size));
      return items;
    }
  }
}

type Comparator = (a: CaseRef, b: CaseRef) => number;
const raw =
  (field: keyof CaseRef): Comparator =>
  (a, b) =>
    String(a[field]) < String(b[field]) ? -1 : String(a[field]) > String(b[field]) ? 1 : 0;
const keys: Record<string, Comparator> = {
  title: (a, b) => collator.compare(a.title, b.title),
  status: (a, b) => statuses.indexOf(a.status) - statuses.indexOf(b.status),
  priority: (a, b) => priorities.indexOf(a.priority) - priorities.indexOf(b.priority),
  scheduled_start: (a, b) => {
    const x = a.scheduled_start ?? '~';
    const y = b.scheduled_start ?? '~';
    return x < y ? -1 : x > y ? 1 : 0;
  },
  created_at: raw('created_at'),
  updated_at: raw('updated_at'),
};
const byId = raw('id');

/** The published order of `sort` (`field:direction`, repeated): the keys in turn, then id. */
function ordered(items: CaseRef[], sort: string[]): string[] {
  const orders = sort.map((s) => {
    const [field = '', direction = 'asc'] = s.split(':');
    return { key: keys[field] as Comparator, sign: direction === 'asc' ? 1 : -1 };
  });
  const first = orders[0]?.sign ?? 1;
  return [...items]
    .sort((a, b) => {
      for (const { key, sign } of orders) {
        const c = key(a, b);
        if (c !== 0) return sign * c;
      }
      return first * byId(a, b);
    })
    .map((item) => item.id);
}

const all = () => [...cases.values()];
const ids = (items: CaseRef[]) => items.map((item) => item.id);

describe('Case list: every sort key', () => {
  it.each(
    Object.keys(keys).flatMap((field) =>
      (['asc', 'desc'] as const).map((direction) => ({ field, direction })),
    ),
  )('orders every case by $field $direction across pages', async ({ field, direction }) => {
    const listed = await pages(`/api/v2/cases?sort=${field}:${direction}`, 13);

    expect(ids(listed)).toEqual(ordered(all(), [`${field}:${direction}`]));
  });

  it('orders newest first by default', async () => {
    const listed = await pages('/api/v2/cases', 20);

    expect(ids(listed)).toEqual(ordered(all(), ['created_at:desc']));
  });

  it.each([
    ['status:asc', 'priority:desc'],
    ['status:desc', 'title:asc'],
    ['priority:desc', 'scheduled_start:asc'],
    ['priority:asc', 'updated_at:desc'],
    ['title:asc', 'created_at:desc'],
    ['scheduled_start:asc', 'priority:desc'],
  ])('orders the ties of %s by %s', async (first, second) => {
    const listed = await pages(`/api/v2/cases?sort=${first}&sort=${second}`, 11);

    expect(ids(listed)).toEqual(ordered(all(), [first, second]));
  });
});

describe('Case list: every filter', () => {
  const inWindow = (from?: string, to?: string) => (c: CaseRef) =>
    c.scheduled_start !== undefined &&
    c.scheduled_end !== undefined &&
    (from === undefined || c.scheduled_end > from) &&
    (to === undefined || c.scheduled_start < to);
  const updatedBounds = () => {
    const sorted = all()
      .map((c) => c.updated_at)
      .sort();
    return [sorted[20] as string, sorted[60] as string];
  };
  const filters: Array<{
    title: string;
    query: () => string;
    keep: (c: CaseRef) => boolean;
    sort?: string[];
  }> = [
    { title: 'one status', query: () => 'statuses=SCHEDULED', keep: (c) => c.status === 'SCHEDULED' },
    {
      title: 'open statuses',
      query: () => 'statuses=ON_HOLD&statuses=NEW&statuses=IN_PROGRESS&statuses=SCHEDULED',
      keep: (c) => ['NEW', 'SCHEDULED', 'IN_PROGRESS', 'ON_HOLD'].includes(c.status),
    },
    {
      title: 'open statuses by status',
      query: () => 'statuses=DONE&statuses=NEW&statuses=ON_HOLD&sort=status:desc',
      keep: (c) => ['NEW', 'ON_HOLD', 'DONE'].includes(c.status),
      sort: ['status:desc'],
    },
    { title: 'an area', query: () => `area_id=${areas[1]}`, keep: (c) => c.area_id === areas[1] },
    {
      title: 'an area by priority',
      query: () => `area_id=${areas[0]}&sort=priority:desc`,
      keep: (c) => c.area_id === areas[0],
      sort: ['priority:desc'],
    },
    {
      title: 'an area and statuses',
      query: () => `area_id=${areas[2]}&statuses=NEW&statuses=DONE`,
      keep: (c) => c.area_id === areas[2] && ['NEW', 'DONE'].includes(c.status),
    },
    {
      title: 'an assignee',
      query: () => `assignee_id=${technicians[0]}`,
      keep: (c) => c.assignee_id === technicians[0],
    },
    {
      title: 'an assignee by title',
      query: () => `assignee_id=${technicians[1]}&sort=title:asc&sort=priority:desc`,
      keep: (c) => c.assignee_id === technicians[1],
      sort: ['title:asc', 'priority:desc'],
    },
    {
      title: 'an assignee in an area, by status',
      query: () => `assignee_id=${technicians[2]}&area_id=${areas[2]}&sort=status:asc`,
      keep: (c) => c.assignee_id === technicians[2] && c.area_id === areas[2],
      sort: ['status:asc'],
    },
    {
      title: 'updated_from (inclusive) and updated_to (exclusive)',
      query: () => {
        const [from, to] = updatedBounds();
        return `updated_from=${from}&updated_to=${to}`;
      },
      keep: (c) => {
        const [from, to] = updatedBounds();
        return c.updated_at >= (from as string) && c.updated_at < (to as string);
      },
    },
    {
      title: 'updated_from sorted by updated_at, with a status',
      query: () => `updated_from=${updatedBounds()[0]}&sort=updated_at:asc&statuses=DONE&statuses=NEW`,
      keep: (c) => c.updated_at >= (updatedBounds()[0] as string) && ['NEW', 'DONE'].includes(c.status),
      sort: ['updated_at:asc'],
    },
    {
      title: 'updated_to and an assignee',
      query: () => `updated_to=${updatedBounds()[1]}&assignee_id=${technicians[0]}`,
      keep: (c) => c.updated_at < (updatedBounds()[1] as string) && c.assignee_id === technicians[0],
    },
    {
      title: 'a scheduled window',
      query: () => `scheduled_from=${day(5)}&scheduled_to=${day(9)}`,
      keep: inWindow(day(5), day(9)),
    },
    {
      title: 'a scheduled window by start',
      query: () => `scheduled_from=${day(5)}&scheduled_to=${day(9)}&sort=scheduled_start:asc`,
      keep: inWindow(day(5), day(9)),
      sort: ['scheduled_start:asc'],
    },
    {
      title: 'a scheduled window from only, by priority',
      query: () => `scheduled_from=${day(15)}&sort=priority:desc`,
      keep: inWindow(day(15)),
      sort: ['priority:desc'],
    },
    {
      title: 'a scheduled window to only, with an area',
      query: () => `scheduled_to=${day(4, 9)}&area_id=${areas[1]}`,
      keep: (c) => inWindow(undefined, day(4, 9))(c) && c.area_id === areas[1],
    },
    {
      title: 'a scheduled window of an assignee',
      query: () => `scheduled_from=${day(3)}&scheduled_to=${day(12)}&assignee_id=${technicians[1]}`,
      keep: (c) => inWindow(day(3), day(12))(c) && c.assignee_id === technicians[1],
    },
    {
      title: 'a scheduled window and an updated range',
      query: () => `scheduled_from=${day(2)}&scheduled_to=${day(14)}&updated_from=${updatedBounds()[0]}`,
      keep: (c) => inWindow(day(2), day(14))(c) && c.updated_at >= (updatedBounds()[0] as string),
    },
  ];
  it.each(filters)('lists exactly the cases of $title, with their total', async ({ query, keep, sort }) => {
    const listed = await pages(`/api/v2/cases?${query()}`, 7);

    const expected = ordered(all().filter(keep), sort ?? ['created_at:desc']);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(listed)).toEqual(expected);
  });

  it('answers an empty page past the end, with the total', async () => {
    const response = await call('GET', `/api/v2/cases?area_id=${areas[0]}&page=500&size=100`, { token });

    expect(response.status).toBe(200);
    expect(response.body.items).toEqual([]);
    expect(response.body.page.total_elements).toBe(all().filter((c) => c.area_id === areas[0]).length);
  });
});

describe('Case list: a technician sees its own cases', () => {
  it.each([
    { query: '', sort: ['created_at:desc'], keep: () => true },
    { query: 'sort=scheduled_start:asc', sort: ['scheduled_start:asc'], keep: () => true },
    {
      query: 'statuses=SCHEDULED&statuses=IN_PROGRESS&sort=priority:desc',
      sort: ['priority:desc'],
      keep: (c: CaseRef) => ['SCHEDULED', 'IN_PROGRESS'].includes(c.status),
    },
  ])('lists its cases for "$query"', async ({ query, sort, keep }) => {
    const technician = technicians[2] as string;

    const listed = await pages(`/api/v2/cases?${query}`, 5, tokenOfUser(token, technician));

    const expected = ordered(
      all().filter((c) => c.assignee_id === technician && keep(c)),
      sort,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(listed)).toEqual(expected);
  });
});

describe('Case list: totals under concurrent writes', () => {
  it('counts every status exactly after creates, moves and deletes racing each other', async () => {
    // Prepare
    const racing = await runAll(12, (i) =>
      send<CaseRef>('POST', '/api/v2/cases', { title: `Racing ${i}`, assignee_id: technicians[0] }),
    );

    // Act
    await Promise.all([
      runAll(12, async (i) => {
        const record = racing[i] as CaseRef;
        if (i % 3 === 0) {
          await send('DELETE', `/api/v2/cases/${record.id}`);
          cases.delete(record.id);
        } else {
          cases.set(
            record.id,
            await send<CaseRef>('PATCH', `/api/v2/cases/${record.id}`, { status: 'DONE' }),
          );
        }
      }),
      runAll(10, async (i) => {
        const record = await send<CaseRef>('POST', '/api/v2/cases', {
          title: `Late ${i}`,
          status: 'ON_HOLD',
        });
        cases.set(record.id, record);
      }),
    ]);

    // Assess
    for (const status of statuses) {
      const response = await call('GET', `/api/v2/cases?statuses=${status}&size=1`, { token });
      expect(response.body.page.total_elements).toBe(all().filter((c) => c.status === status).length);
    }
    const mine = await call('GET', `/api/v2/cases?assignee_id=${technicians[0]}&size=1`, { token });
    expect(mine.body.page.total_elements).toBe(all().filter((c) => c.assignee_id === technicians[0]).length);
  }, 60_000);
});
