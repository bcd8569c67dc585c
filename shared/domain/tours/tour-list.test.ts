/**
 * How a tour is indexed for its list (tour.list.ts `tourList`): the facets that make a driver's
 * and a vehicle's tours cost their page, and the counters that make their totals.
 */
import { describe, expect, it } from 'vitest';
import { counterNames, indexedItem, listWrites } from '../../data/list-index.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { recordOf, type TableWrite } from '../../data/table.ts';
import { tourList } from './tour.list.ts';
import type { Tour } from './tour.schema.ts';
import { driverScopeOf } from './tour.service.ts';

const scope = workspaceScope('w1');

function tour(overrides: Partial<Tour> = {}): Tour {
  return {
    id: 't1',
    date: '2026-06-11',
    vehicle_id: 'v1',
    driver_id: 'd1',
    stops: [],
    status: 'PLANNED',
    created_at: '2026-06-09T15:02:11.000Z',
    updated_at: '2026-06-09T15:02:11.000Z',
    lock_version: 0,
    ...overrides,
  };
}

/** A record as read back from its stored item (so it counts as indexed). */
const stored = (record: Tour) => recordOf(indexedItem(tourList, scope, record)) as unknown as Tour;

const counterChanges = (writes: TableWrite[]) =>
  Object.fromEntries(writes.flatMap((write) => (write.kind === 'add' ? [[write.key.sk, write.by]] : [])));

describe('List: tours', () => {
  describe('Function: indexedItem', () => {
    it('puts a tour in the date index of its status and in the partitions of its driver and vehicle', () => {
      // Act
      const item = indexedItem(tourList, scope, tour());

      // Assess
      expect(item).toMatchObject({
        gsi1pk: 'T#w1#L#TOUR#PLANNED',
        gsi1sk: '2026-06-11\u0001t1',
        gsi2pk: 'T#w1#L#TOUR#PLANNED#driver_id=d1',
        gsi2sk: '2026-06-11\u0001t1',
        gsi3pk: 'T#w1#L#TOUR#PLANNED#vehicle_id=v1',
        gsi3sk: '2026-06-11\u0001t1',
        gsi4sk: '2026-06-09T15:02:11.000Z\u0001t1',
        list_values: { date: '2026-06-11', driver_id: 'd1', vehicle_id: 'v1' },
      });
    });

    it('leaves a tour without driver or vehicle out of those partitions', () => {
      // Prepare
      const { driver_id: _driver, vehicle_id: _vehicle, ...unassigned } = tour();

      // Act
      const item = indexedItem(tourList, scope, unassigned);

      // Assess
      expect(item).not.toHaveProperty('gsi2pk');
      expect(item).not.toHaveProperty('gsi3pk');
      expect(item.list_values).toEqual({ date: '2026-06-11' });
    });
  });

  describe('Function: counterNames', () => {
    it('counts a tour in all, its status, and its driver and vehicle within the status', () => {
      expect(counterNames(tourList, tour())).toEqual([
        'all',
        'PLANNED',
        'PLANNED#driver_id=d1',
        'PLANNED#vehicle_id=v1',
      ]);
    });
  });

  describe('Function: listWrites', () => {
    it('moves the counters when the driver changes and the tour starts', () => {
      // Prepare
      const before = stored(tour());
      const after = tour({ driver_id: 'd2', status: 'IN_PROGRESS', lock_version: 1 });

      // Act
      const writes = listWrites(tourList, scope, before, after);

      // Assess
      expect(counterChanges(writes)).toEqual({
        'TOUR#PLANNED': -1,
        'TOUR#PLANNED#driver_id=d1': -1,
        'TOUR#PLANNED#vehicle_id=v1': -1,
        'TOUR#IN_PROGRESS': 1,
        'TOUR#IN_PROGRESS#driver_id=d2': 1,
        'TOUR#IN_PROGRESS#vehicle_id=v1': 1,
        // What the list's entries hold changed: its kept totals and page boundaries are stale.
        'TOUR#rev': 1,
      });
    });

    it('changes no counter when only the stops change', () => {
      // Prepare
      const before = stored(tour());

      // Act
      const writes = listWrites(
        tourList,
        scope,
        before,
        tour({ stops: [{ case_id: 'c1', status: 'PENDING' }], lock_version: 1 }),
      );

      // Assess
      expect(counterChanges(writes)).toEqual({});
    });

    it('puts the tour’s shift in the token partition, and moves it when the shift changes', () => {
      // Prepare
      const before = stored(tour({ shift_id: 's1' }));

      // Act
      const created = listWrites(tourList, scope, undefined, tour({ shift_id: 's1' }));
      const moved = listWrites(tourList, scope, before, tour({ shift_id: 's2', lock_version: 1 }));
      const cleared = listWrites(tourList, scope, before, tour({ lock_version: 1 }));

      // Assess
      const tokens = (writes: TableWrite[]) =>
        writes.flatMap((write) =>
          write.kind === 'put' || write.kind === 'discard' ? [[write.kind, write.key.sk]] : [],
        );
      expect(tokens(created)).toEqual([['put', 'shift_id=s1\u0001t1']]);
      expect(tokens(moved)).toEqual([
        ['discard', 'shift_id=s1\u0001t1'],
        ['put', 'shift_id=s2\u0001t1'],
      ]);
      expect(tokens(cleared)).toEqual([['discard', 'shift_id=s1\u0001t1']]);
      expect(created.find((write) => write.kind === 'put')?.key.pk).toBe('T#w1#L#TOUR#SEARCH');
    });

    it('takes a deleted tour back from every counter it was in', () => {
      expect(counterChanges(listWrites(tourList, scope, stored(tour()), undefined))).toEqual({
        'TOUR#all': -1,
        'TOUR#PLANNED': -1,
        'TOUR#PLANNED#driver_id=d1': -1,
        'TOUR#PLANNED#vehicle_id=v1': -1,
        'TOUR#rev': 1,
      });
    });
  });
});

describe('Function: driverScopeOf', () => {
  it.each([
    { roles: ['driver'], scope: 'u1' },
    { roles: ['technician'], scope: 'u1' },
    { roles: ['technician', 'driver'], scope: 'u1' },
    { roles: ['driver', 'dispatcher'], scope: undefined },
    { roles: ['admin'], scope: undefined },
    { roles: [], scope: undefined },
  ])('limits $roles to $scope', ({ roles, scope: expected }) => {
    expect(driverScopeOf({ id: 'U1', roles })).toBe(expected);
  });
});
