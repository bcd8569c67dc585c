/**
 * A report moves each value of the current state only forward in recorded time: a tracker's
 * buffered backlog, arriving late, never moves the device back.
 */
import { describe, expect, it } from 'vitest';
import { nextState } from './device-intake.service.ts';
import type { StoredDeviceState } from './device-state.store.ts';

const state: StoredDeviceState = {
  device_id: 'd1',
  lock_version: 3,
  secret_hash: 'ab',
  last_seen_at: '2026-06-11T08:00:00.000Z',
  latitude: 1,
  longitude: 1,
  location_recorded_at: '2026-06-11T07:59:00.000Z',
  connectivity: 'ONLINE',
  connectivity_updated_at: '2026-06-11T07:59:00.000Z',
  battery_level: 50,
  battery_recorded_at: '2026-06-11T07:59:00.000Z',
};

describe('Function: nextState', () => {
  it('takes a newer report whole and marks the secret used', () => {
    const { next, moved } = nextState(
      state,
      { location: { latitude: 2, longitude: 3 }, connectivity: 'OFFLINE', battery_level: 40 },
      '2026-06-11T08:01:00.000Z',
      '2026-06-11T08:01:01.000Z',
    );
    expect(moved).toBe(true);
    expect(next).toMatchObject({
      latitude: 2,
      longitude: 3,
      location_recorded_at: '2026-06-11T08:01:00.000Z',
      connectivity: 'OFFLINE',
      battery_level: 40,
      last_seen_at: '2026-06-11T08:01:01.000Z',
      secret_used: true,
    });
  });

  it('keeps every value of an older report out of the state, but counts its arrival', () => {
    const { next, moved } = nextState(
      state,
      { location: { latitude: 9, longitude: 9 }, connectivity: 'OFFLINE', battery_level: 10 },
      '2026-06-11T07:00:00.000Z',
      '2026-06-11T08:02:00.000Z',
    );
    expect(moved).toBe(false);
    expect(next).toMatchObject({ latitude: 1, longitude: 1, connectivity: 'ONLINE', battery_level: 50 });
    expect(next.last_seen_at).toBe('2026-06-11T08:02:00.000Z');
  });

  it('moves only the values a report carries', () => {
    const { next } = nextState(
      state,
      { battery_level: 20 },
      '2026-06-11T08:05:00.000Z',
      '2026-06-11T08:05:00.000Z',
    );
    expect(next).toMatchObject({ latitude: 1, connectivity: 'ONLINE', battery_level: 20 });
  });
});
