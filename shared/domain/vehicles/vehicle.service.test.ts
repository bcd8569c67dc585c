import { describe, expect, it } from 'vitest';
import { plateIdentity, toVehicle } from './vehicle.service.ts';

describe('Function: plateIdentity', () => {
  it.each([
    { a: 'B-FS 1204', b: 'bfs1204' },
    { a: 'M AB 12', b: 'm-ab-12' },
    { a: 'ＢＦＳ１２０４', b: 'BFS1204' },
    { a: 'ÖL 1', b: 'öl1' },
  ])('takes $a and $b for the same plate', ({ a, b }) => {
    expect(plateIdentity(a)).toBe(plateIdentity(b));
  });

  it('keeps plates that differ in letters or digits apart', () => {
    expect(plateIdentity('B-FS 1204')).not.toBe(plateIdentity('B-FS 1205'));
  });
});

describe('Function: toVehicle', () => {
  const stored = {
    id: 'v1',
    name: 'Van 12',
    vehicle_type: 'VAN' as const,
    active: true,
    created_at: '2026-03-02T08:15:00.000Z',
    updated_at: '2026-03-02T08:15:00.000Z',
    lock_version: 0,
  };

  it('publishes the location without the bookkeeping of its item', () => {
    // Act
    const vehicle = toVehicle(stored, {
      vehicle_id: 'v1',
      lock_version: 7,
      latitude: 52.5,
      longitude: 13.4,
      recorded_at: '2026-06-11T07:42:10.000Z',
    });

    // Assess
    expect(vehicle.location).toEqual({
      latitude: 52.5,
      longitude: 13.4,
      recorded_at: '2026-06-11T07:42:10.000Z',
    });
    expect(vehicle.lock_version).toBe(0);
  });

  it('publishes the stored in-service flag `active` as is_active, as items written before the rename hold it', () => {
    // Act
    const vehicle = toVehicle({ ...stored, active: false });

    // Assess
    expect(vehicle.is_active).toBe(false);
    expect(vehicle).not.toHaveProperty('active');
  });

  it('omits absent values instead of sending undefined or null', () => {
    expect(Object.keys(toVehicle(stored))).toEqual([
      'id',
      'name',
      'vehicle_type',
      'is_active',
      'created_at',
      'updated_at',
      'lock_version',
    ]);
  });
});
