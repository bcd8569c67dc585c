/**
 * Storage of vehicles (their latest locations are apart: vehicle-location.store.ts), and the
 * guard items that keep license plates unique per workspace (keys.ts `vehiclePlate`): one per
 * plate identity, naming its vehicle, created in the vehicle's own transaction so two
 * containers writing the same plate at the same instant cannot both win.
 */
import { keys } from '../../data/keys.ts';
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { getRecord, type TableWrite } from '../../data/table.ts';
import { vehicleList } from './vehicle.list.ts';
import type { StoredVehicle } from './vehicle.schema.ts';

export const vehicleStore = resourceStore<StoredVehicle>('vehicle', 'VEHICLE', vehicleList);

/** One workspace's plate guards, by plate identity (vehicle.service.ts `plateIdentity`). */
export interface WorkspaceVehiclePlates {
  /** The vehicle holding the plate, or undefined when it is free (one GetItem). */
  holder(identity: string): Promise<string | undefined>;
  /** Part of a vehicle's write: takes the plate; a taken one fails it with DataError already-exists. */
  claim(identity: string, vehicleId: string): TableWrite;
  /** Part of a vehicle's write: frees the plate. */
  release(identity: string): TableWrite;
}

export const vehiclePlateStore = {
  of(scope: StoreScope): WorkspaceVehiclePlates {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = (identity: string) => keys.vehiclePlate(workspaceId, identity);
    return {
      async holder(identity) {
        const guard = await getRecord(key(identity));
        return guard ? String(guard.vehicle_id) : undefined;
      },
      claim: (identity, vehicleId) => ({
        kind: 'create',
        key: key(identity),
        entity: 'vehicle-plate',
        record: { vehicle_id: vehicleId },
      }),
      release: (identity) => ({ kind: 'discard', key: key(identity) }),
    };
  },
};
