/** Storage of vehicles. Vehicle items hold no location: the latest report is an item of its own (vehicle-location.store.ts). */
import { resourceStore } from '../../data/resource-store.ts';
import { vehicleList } from './vehicle.list.ts';
import type { StoredVehicle } from './vehicle.schema.ts';

export const vehicleStore = resourceStore<StoredVehicle>('vehicle', 'VEHICLE', vehicleList);
