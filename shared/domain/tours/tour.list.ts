import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, collectionOf, time } from '../../data/list-patterns.ts';
import type { Tour } from './tour.schema.ts';
import { tourStatuses } from './tour-statuses.ts';

/** The key-range item of a tour's shift (tour.store.ts `toursOfShift`). */
export const shiftToken = (shiftId: string) => `shift_id=${shiftId}`;

/**
 * Tours by status (segment), by date, creation and change; a driver's and a vehicle's tours are
 * facets (their own partitions, by date), so "my tours" and "this van's tours" cost their page.
 * A shift's tours: every index is taken, so the shift is the one "search token" of a tour
 * (`shift_id=<uuid>`, an item of the list's token partition, moved with the tour in its
 * transaction): a key range of that partition holds exactly the shift's tours.
 */
export const tourList: ListSpec<Tour> = {
  name: 'TOUR',
  listed: () => true,
  segment: { values: tourStatuses, of: (record) => record.status },
  orders: {
    date: { pattern: 'byDate', index: 'gsi1', key: time<Tour>('date') },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  facets: {
    driver_id: { index: 'gsi2', order: 'date', of: (record) => record.driver_id },
    vehicle_id: { index: 'gsi3', order: 'date', of: (record) => record.vehicle_id },
  },
  tokens: (record) => (record.shift_id ? [shiftToken(record.shift_id)] : []),
  // The date orders in memory; driver_id and vehicle_id are checked when both are asked for.
  listedValues: (record) => ({
    date: record.date,
    driver_id: record.driver_id,
    vehicle_id: record.vehicle_id,
  }),
  basePartition: collectionOf('TOUR'),
};
