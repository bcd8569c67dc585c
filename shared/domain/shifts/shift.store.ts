/**
 * Storage of shifts, and the shifts a planning horizon needs: every shift overlapping it, read
 * through the start order's key range (shift.list.ts), never the whole collection.
 */
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { overlapFilter, shiftList } from './shift.list.ts';
import type { Shift } from './shift.schema.ts';

export const shiftStore = resourceStore<Shift>('shift', 'SHIFT', shiftList);

/** Matches read per page of a walk that wants them all. */
const walkPage = 1000;

/**
 * Every shift of the workspace overlapping [from, to) (end > from and start < to), ordered by
 * start (ties by id). Cost: the index entries of the shifts starting in [from − 24 h, to) (about
 * 1 read unit per 27: a week of 50 technicians, ~350 shifts, is ~13 units), then one
 * BatchGetItem per 100 shifts; a longer range is read in pages of 1,000.
 */
export async function shiftsOverlapping(scope: StoreScope, from: string, to: string): Promise<Shift[]> {
  const filter = overlapFilter(from, to);
  const shifts: Shift[] = [];
  for (let page = 0; ; page++) {
    const { items } = await shiftStore.of(scope).page({
      ...filter,
      order: [{ field: 'start', direction: 'asc' }],
      page,
      size: walkPage,
      skipTotal: true,
    });
    shifts.push(...items);
    if (items.length < walkPage) return shifts;
  }
}
