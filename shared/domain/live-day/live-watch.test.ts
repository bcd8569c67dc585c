/**
 * What following a device's positions reads: nothing while its watch is kept, one GetItem of the
 * tour when the watch lapsed and the tour is unchanged, the whole watch again (the facet, the
 * cases) when the tour changed or five minutes passed. The stores are fakes counting their reads.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const reads = { facet: 0, tour: 0, cases: 0, settings: 0 };
let tourOnRoad: Record<string, unknown>;

vi.mock('../tours/tour.store.ts', () => ({
  tourStore: {
    of: () => ({
      page: async () => {
        reads.facet++;
        return { items: [tourOnRoad] };
      },
      get: async () => {
        reads.tour++;
        return tourOnRoad;
      },
    }),
  },
}));
vi.mock('../cases/case.store.ts', () => ({
  caseStore: {
    of: () => ({
      getMany: async (ids: string[]) => {
        reads.cases++;
        return ids.map((id) => ({ id, location: { latitude: 52.5, longitude: 13.4 }, duration: 'PT30M' }));
      },
    }),
  },
}));
vi.mock('../settings/settings.service.ts', () => ({
  onSettingsChanged: () => {},
  getSettings: async () => {
    reads.settings++;
    return { arrival_radius_m: 150, dwell: 'PT2M' };
  },
}));

const { watchOf } = await import('./live-watch.ts');

const minute = 60_000;
const start = Date.parse('2026-11-29T08:00:00Z');

describe('Following a device: what its watch reads', () => {
  beforeEach(() => {
    Object.assign(reads, { facet: 0, tour: 0, cases: 0, settings: 0 });
    tourOnRoad = { id: 'tour-1', status: 'IN_PROGRESS', lock_version: 3, stops: [{ case_id: 'case-1' }] };
  });

  it('reads nothing within the minute, one GetItem when the tour is unchanged, the whole watch when it changed', async () => {
    // Prepare
    const device = { id: `device-${Math.random()}`, user_id: 'user-1' };
    await watchOf('ws-1', device, start);
    const whole = { ...reads };

    // Act
    await watchOf('ws-1', device, start + 30_000);
    const withinTheMinute = { ...reads };
    await watchOf('ws-1', device, start + 1.5 * minute);
    const unchanged = { ...reads };
    tourOnRoad = { ...tourOnRoad, lock_version: 4 };
    await watchOf('ws-1', device, start + 3 * minute);

    // Assess
    expect(whole).toMatchObject({ facet: 1, cases: 1, tour: 0 });
    expect(withinTheMinute).toEqual(whole);
    expect(unchanged).toMatchObject({ facet: 1, cases: 1, tour: 1 });
    expect(reads).toMatchObject({ facet: 2, cases: 2, tour: 2 });
  });

  it('takes the watch whole again after five minutes even when the tour never changed', async () => {
    const device = { id: `device-${Math.random()}`, user_id: 'user-2' };
    for (let at = 0; at <= 6; at++) await watchOf('ws-2', device, start + at * minute + 1);

    // Minute 0 whole, minutes 1–4 one GetItem each, minute 5 or 6 whole again.
    expect(reads.facet).toBe(2);
    expect(reads.tour).toBeGreaterThanOrEqual(4);
  });

  it('follows the tour of whom the device speaks for now, not the one it was watched for', async () => {
    const device = { id: `device-${Math.random()}`, user_id: 'user-3' };
    await watchOf('ws-3', device, start);

    await watchOf('ws-3', { ...device, user_id: 'user-4' }, start + 1.5 * minute);

    expect(reads.facet).toBe(2);
  });
});
