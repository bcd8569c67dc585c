/** How vehicles are listed: in and out of service apart, by name, plate, creation and change (README.md, "Lists", VEHICLE). */
import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, collectionOf, text } from '../../data/list-patterns.ts';
import { foldedText } from '../../data/sort-key.ts';
import type { StoredVehicle } from './vehicle.schema.ts';

/** Vehicles in and out of service are apart, so the `active` filter costs nothing. */
export const vehicleSegments = ['ACTIVE', 'INACTIVE'] as const;

export const vehicleList: ListSpec<StoredVehicle> = {
  name: 'VEHICLE',
  listed: () => true,
  segment: { values: vehicleSegments, of: (record) => (record.active ? 'ACTIVE' : 'INACTIVE') },
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    // Vehicles without a plate come last in ascending order.
    license_plate: {
      pattern: 'byPlate',
      index: 'gsi2',
      key: (record) => [record.license_plate ? foldedText(record.license_plate) : '\u{10FFFF}'],
    },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  basePartition: collectionOf('VEHICLE'),
};
