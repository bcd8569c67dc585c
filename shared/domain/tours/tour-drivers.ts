/**
 * Which vehicle a driver drives, for the location reports a driver may send (own-work.ts): a
 * vehicle is theirs while a tour they drive with it is on the road (IN_PROGRESS). Not a planned
 * tour: a van planned for a driver next week is driven by someone else today, and the driver
 * starts the tour (a status they may set) when they set off. Apart from tour.service.ts so the
 * vehicle service can ask without loading the tour rules, which load the vehicle service.
 *
 * Cost: one walk of the driver's IN_PROGRESS tour partitions (a driver has a handful at most).
 */
import { tourStore } from './tour.store.ts';

export async function isDrivingVehicle(
  workspaceId: string,
  driverId: string,
  vehicleId: string,
): Promise<boolean> {
  const vehicle = vehicleId.toLowerCase();
  const { items } = await tourStore.of(workspaceId).page({
    facet: { name: 'driver_id', value: driverId.toLowerCase() },
    segments: ['IN_PROGRESS'],
    where: (entry) => entry.vehicle_id === vehicle,
    order: [{ field: 'date', direction: 'asc' }],
    page: 0,
    size: 1,
  });
  return items.length > 0;
}
