/**
 * How shifts are listed (README.md, "Lists", SHIFT): by start, creation and change; a user's
 * shifts are a facet (their own partition, by start), so "these technicians' shifts" costs its
 * page. The time filter is a key range of the start order: a shift lasts at most 24 hours
 * (shift.schema.ts `maxShiftSeconds`), so every shift overlapping [from, to) starts in
 * [from − 24 h, to), and `end` (listedValues) is checked on the entries of that range.
 */
import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, collectionOf, time } from '../../data/list-patterns.ts';
import type { Shift } from './shift.schema.ts';

/** The name of the user facet and of its counters (`user_id=<id>`). */
export const userFacet = 'user_id';

export const shiftList: ListSpec<Shift> = {
  name: 'SHIFT',
  listed: () => true,
  orders: {
    start: { pattern: 'byStart', index: 'gsi1', key: time<Shift>('start') },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  facets: { [userFacet]: { index: 'gsi2', order: 'start', of: (record) => record.user_id } },
  // The overlap filter checks the end on the entries of the start range.
  listedValues: (record) => ({ start: record.start, end: record.end, user_id: record.user_id }),
  basePartition: collectionOf('SHIFT'),
};

/** A shift's longest span in ms (shift.schema.ts `maxShiftSeconds`; kept here so lists load no zod). */
const longestShiftMs = 24 * 3600 * 1000;

type Entry = { start?: unknown; end?: unknown };

/**
 * The key range and entry check of "overlaps [from, to)" (end > from and start < to; either bound
 * may be left out): starts from `from` − 24 h up to `to`, then the bounds themselves on the entry.
 */
export function overlapFilter(from: string | undefined, to: string | undefined) {
  return {
    walk: 'start',
    range: {
      ...(from ? { from: new Date(Date.parse(from) - longestShiftMs).toISOString() } : {}),
      ...(to ? { to } : {}),
    },
    where: (entry: Entry) =>
      (from === undefined || String(entry.end) > from) && (to === undefined || String(entry.start) < to),
  };
}
