import { describe, expect, it } from 'vitest';
import { counterNames, indexedItem, listWrites } from '../../data/list-index.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { recordOf, type TableWrite } from '../../data/table.ts';
import { caseList } from './case.list.ts';
import type { Case, CaseListQueryInput } from './case.schema.ts';
import { caseListPlan } from './case-list.ts';

const scope = workspaceScope('w1');
const area = '01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e6f';
const lukas = '019cad9d-67a0-77f5-96b9-283bd392bece';

function aCase(overrides: Partial<Case> = {}): Case {
  return {
    id: 'c1',
    title: 'Boiler service',
    status: 'SCHEDULED',
    priority: 'HIGH',
    area_id: area,
    assignee_id: lukas,
    scheduled_start: '2026-03-04T08:00:00.000Z',
    scheduled_end: '2026-03-04T10:00:00.000Z',
    created_at: '2026-03-02T08:15:00.042Z',
    updated_at: '2026-03-03T16:40:12.310Z',
    lock_version: 2,
    ...overrides,
  };
}

const query = (q: Partial<CaseListQueryInput> = {}) => q as CaseListQueryInput;

describe('List: caseList', () => {
  it('indexes a case by every sort key and in its assignee facet, in the partition of its status', () => {
    // Act
    const item = indexedItem(caseList, scope, aCase());

    // Assess
    expect(item).toMatchObject({
      gsi1pk: 'T#w1#L#CASE#SCHEDULED',
      gsi1sk: 'boiler service\u0001c1',
      gsi2pk: `T#w1#L#CASE#SCHEDULED#assignee_id=${lukas}`,
      gsi2sk: '2026-03-02T08:15:00.042Z\u0001c1',
      gsi3sk: '2026-03-04T08:00:00.000Z\u0001c1',
      gsi4sk: '2026-03-02T08:15:00.042Z\u0001c1',
      gsi5sk: '2026-03-03T16:40:12.310Z\u0001c1',
      gsi6sk: 2e13 + Date.parse('2026-03-02T08:15:00.042Z'),
      list_values: {
        title: 'Boiler service',
        priority: 'HIGH',
        area_id: area,
        scheduled_start: '2026-03-04T08:00:00.000Z',
        scheduled_end: '2026-03-04T10:00:00.000Z',
      },
    });
  });

  it('puts an unscheduled, unassigned case after every window and in no facet partition', () => {
    // Act
    const item = indexedItem(
      caseList,
      scope,
      aCase({ assignee_id: undefined, scheduled_start: undefined, scheduled_end: undefined }),
    );

    // Assess
    expect(item.gsi3sk).toBe('\u{10FFFF}\u0001c1');
    expect(item).not.toHaveProperty('gsi2pk');
    expect(item.list_values).not.toHaveProperty('scheduled_start');
  });

  it('keeps the list values out of the record read back', () => {
    expect(recordOf(indexedItem(caseList, scope, aCase()))).not.toHaveProperty('list_values');
  });

  it('counts a case in all, its status, its assignee and its area', () => {
    expect(counterNames(caseList, aCase())).toEqual([
      'all',
      'SCHEDULED',
      `SCHEDULED#area_id=${area}`,
      `SCHEDULED#assignee_id=${lukas}`,
    ]);
  });

  it('moves a reassigned case that is done from one status and assignee counter to the others', () => {
    // Prepare
    const before = recordOf(indexedItem(caseList, scope, aCase())) as unknown as Case;
    const other = '019cad9d-0000-7000-8000-000000000001';

    // Act
    const writes = listWrites(caseList, scope, before, aCase({ status: 'DONE', assignee_id: other }));

    // Assess
    const changes = Object.fromEntries(
      writes.flatMap((write: TableWrite) => (write.kind === 'add' ? [[write.key.sk, write.by]] : [])),
    );
    expect(changes).toEqual({
      'CASE#SCHEDULED': -1,
      [`CASE#SCHEDULED#area_id=${area}`]: -1,
      [`CASE#SCHEDULED#assignee_id=${lukas}`]: -1,
      'CASE#DONE': 1,
      [`CASE#DONE#area_id=${area}`]: 1,
      [`CASE#DONE#assignee_id=${other}`]: 1,
      'CASE#rev': 1,
    });
  });

  it('orders by status through the segments, walking each by creation', () => {
    expect(caseList.orders.status?.segmentOrder?.within).toBe('created_at');
    expect(caseList.orders.status?.index).toBe(caseList.orders.created_at?.index);
  });

  it('orders by priority first, then by creation time', () => {
    // Prepare
    const key = caseList.orders.priority?.key as (record: Case) => number;
    const leading = caseList.orders.priority?.leading as (key: number) => number;
    const urgentOld = key(aCase({ priority: 'URGENT', created_at: '2020-01-01T00:00:00.000Z' }));
    const lowNew = key(aCase({ priority: 'LOW', created_at: '2286-01-01T00:00:00.000Z' }));

    // Assess
    expect(urgentOld).toBeGreaterThan(lowNew);
    expect([leading(urgentOld), leading(lowNew)]).toEqual([3, 0]);
    expect(Number.isSafeInteger(urgentOld)).toBe(true);
  });
});

describe('Function: caseListPlan', () => {
  it('lists every status newest first by default, totals from counters', () => {
    expect(caseListPlan(query(), undefined)).toEqual({
      order: [{ field: 'created_at', direction: 'desc' }],
    });
  });

  it('walks the wanted statuses in lifecycle order, each once', () => {
    expect(caseListPlan(query({ statuses: ['DONE', 'NEW', 'DONE'] }), undefined)?.segments).toEqual([
      'NEW',
      'DONE',
    ]);
  });

  it('serves an assignee, and a field worker, from the assignee facet', () => {
    expect(caseListPlan(query({ assignee_id: lukas }), undefined)?.facet).toEqual({
      name: 'assignee_id',
      value: lukas,
    });
    expect(caseListPlan(query(), lukas)?.facet).toEqual({ name: 'assignee_id', value: lukas });
    expect(caseListPlan(query({ assignee_id: lukas }), lukas)?.facet?.value).toBe(lukas);
  });

  it('matches nothing when a field worker asks for somebody else', () => {
    expect(caseListPlan(query({ assignee_id: area }), lukas)).toBeUndefined();
  });

  it('checks an area on the entries and takes its total from the area counter', () => {
    // Act
    const plan = caseListPlan(query({ area_id: area }), undefined);

    // Assess
    expect(plan?.countedBy).toBe(`area_id=${area}`);
    expect(plan?.where?.({ area_id: area })).toBe(true);
    expect(plan?.where?.({ area_id: lukas })).toBe(false);
    expect(plan?.where?.({})).toBe(false);
  });

  it('checks a service level on the entries and takes its total from its counter per status', () => {
    // Act
    const plan = caseListPlan(query({ sla_status: 'BREACHED', statuses: ['NEW', 'SCHEDULED'] }), undefined);

    // Assess
    expect(plan?.segments).toEqual(['NEW', 'SCHEDULED']);
    expect(plan?.countedBy).toBe('sla_status=BREACHED');
    expect(plan?.where?.({ sla_status: 'BREACHED' })).toBe(true);
    expect(plan?.where?.({ sla_status: 'AT_RISK' })).toBe(false);
    expect(plan?.where?.({})).toBe(false);
  });

  it('counts a service level within an area by walking, both checked on the entries', () => {
    // Act
    const plan = caseListPlan(query({ sla_status: 'AT_RISK', area_id: area }), undefined);

    // Assess
    expect(plan?.countedBy).toBeUndefined();
    expect(plan?.where?.({ sla_status: 'AT_RISK', area_id: area })).toBe(true);
    expect(plan?.where?.({ sla_status: 'AT_RISK', area_id: lukas })).toBe(false);
  });

  it('counts a case with a service level in the counter of its status and level, and moves it with the level', () => {
    // Prepare
    const before = aCase({ due_by: '2026-03-04T14:00:00.000Z', sla_status: 'AT_RISK' });
    const after = { ...before, sla_status: 'BREACHED' as const, lock_version: 3 };

    // Act
    const names = counterNames(caseList, before);
    const stored = recordOf(indexedItem(caseList, scope, before)) as unknown as Case;
    const moved = listWrites(caseList, scope, stored, after)
      .filter((write): write is Extract<TableWrite, { kind: 'add' }> => write.kind === 'add')
      .map((write) => [write.key.sk, write.by]);

    // Assess
    expect(names).toContain('SCHEDULED#sla_status=AT_RISK');
    expect(moved).toEqual(
      expect.arrayContaining([
        ['CASE#SCHEDULED#sla_status=AT_RISK', -1],
        ['CASE#SCHEDULED#sla_status=BREACHED', 1],
      ]),
    );
  });

  it('counts an area within an assignee by walking the assignee facet', () => {
    // Act
    const plan = caseListPlan(query({ area_id: area, assignee_id: lukas }), undefined);

    // Assess
    expect(plan?.facet?.value).toBe(lukas);
    expect(plan?.countedBy).toBeUndefined();
    expect(plan?.where?.({ area_id: area })).toBe(true);
  });

  it('serves updated_from and updated_to as a key range of the updated_at index, to exclusive', () => {
    // Act
    const plan = caseListPlan(
      query({
        updated_from: '2026-03-01T00:00:00.000Z',
        updated_to: '2026-03-02T00:00:00.000Z',
        area_id: area,
      }),
      undefined,
    );

    // Assess
    expect(plan).toMatchObject({
      walk: 'updated_at',
      range: { from: '2026-03-01T00:00:00.000Z', to: '2026-03-01T23:59:59.999Z' },
    });
    expect(plan?.countedBy).toBeUndefined();
    expect(plan?.where?.({ area_id: area })).toBe(true);
  });

  it('checks the updated range on the entries of an assignee', () => {
    // Act
    const plan = caseListPlan(query({ updated_from: '2026-03-01T00:00:00.000Z' }), lukas);

    // Assess
    expect(plan?.range).toBeUndefined();
    expect(plan?.where?.({ updated_at: '2026-03-01T00:00:00.000Z' })).toBe(true);
    expect(plan?.where?.({ updated_at: '2026-02-28T23:59:59.999Z' })).toBe(false);
  });

  it.each([
    {
      title: 'a window inside',
      start: '2026-03-04T08:00:00.000Z',
      end: '2026-03-04T10:00:00.000Z',
      keep: true,
    },
    {
      title: 'a window around',
      start: '2026-03-01T00:00:00.000Z',
      end: '2026-03-09T00:00:00.000Z',
      keep: true,
    },
    {
      title: 'a window ending at from',
      start: '2026-03-01T00:00:00.000Z',
      end: '2026-03-02T00:00:00.000Z',
      keep: false,
    },
    {
      title: 'a window starting at to',
      start: '2026-03-07T00:00:00.000Z',
      end: '2026-03-07T01:00:00.000Z',
      keep: false,
    },
    { title: 'no window', start: undefined, end: undefined, keep: false },
  ])('keeps $title of [from, to): $keep', ({ start, end, keep }) => {
    // Act
    const plan = caseListPlan(
      query({ scheduled_from: '2026-03-02T00:00:00.000Z', scheduled_to: '2026-03-07T00:00:00.000Z' }),
      undefined,
    );

    // Assess
    expect(plan).toMatchObject({ walk: 'scheduled_start', range: { to: '2026-03-06T23:59:59.999Z' } });
    expect(plan?.where?.({ scheduled_start: start, scheduled_end: end })).toBe(keep);
  });
});
