/** Storage of tours, and the tours of a shift. */
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { shiftToken, tourList } from './tour.list.ts';
import type { Tour, TourStatus } from './tour.schema.ts';
import { withStopStatuses } from './tour-stops.ts';

/** Stops stored before they had statuses read as PENDING (tour-stops.ts). */
export const tourStore = resourceStore<Tour>('tour', 'TOUR', tourList, { asRead: withStopStatuses });

/** Tours read per page of a walk. */
const maxShiftTours = 1000;

/**
 * Every tour of the shift (any status), ordered by date, then id. Cost: one Query of the shift's
 * key range of the tours' token partition (tour.list.ts: one small item per tour of the shift)
 * and one BatchGetItem of the tours, whatever the number of tours of the workspace.
 */
export async function toursOfShift(scope: StoreScope, shiftId: string): Promise<Tour[]> {
  const items = await tourStore.of(scope).withToken(shiftToken(shiftId.toLowerCase()));
  return items.sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1));
}

/**
 * Every tour of one status, optionally dated within [from, to] (days, inclusive), by date. Cost:
 * the status partition of the date index (or its key range), one BatchGetItem per 100 tours, in
 * pages of 1,000.
 */
export async function toursOfStatus(
  scope: StoreScope,
  status: TourStatus,
  days?: { from: string; to: string },
): Promise<Tour[]> {
  const tours: Tour[] = [];
  for (let page = 0; ; page++) {
    const { items } = await tourStore.of(scope).page({
      segments: [status],
      order: [{ field: 'date', direction: 'asc' }],
      ...(days ? { range: days } : {}),
      page,
      size: maxShiftTours,
      skipTotal: true,
    });
    tours.push(...items);
    if (items.length < maxShiftTours) return tours;
  }
}
