/**
 * The latest location of each vehicle: one item per vehicle, apart from the vehicle item
 * (keys.ts `vehicleLocation`), so that reports every few seconds neither bump the vehicle's
 * lock_version (a dispatcher's PATCH with lock_version would keep failing with 409) nor race a
 * PATCH, which replaces the whole vehicle item and would put back the location it read.
 *
 * Contract:
 * - `get` / `getMany`: the stored location (undefined when none was reported), 1 GetItem /
 *   1 BatchGetItem per 100 vehicles.
 * - `write`: the transaction writes the new location together with its event, on the
 *   condition that the item is still the version read (`current`), or still absent; a lost race
 *   is a DataError `version-conflict` / `already-exists`, and the caller decides again from a
 *   fresh read. The item's own `lock_version` exists only for that condition and is never shown.
 */

import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, getRecords, type TableWrite, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { VehicleLocation } from './vehicle.schema.ts';

export interface StoredLocation extends VehicleLocation {
  vehicle_id: string;
  /** Condition of the next write only; not the vehicle's lock_version. */
  lock_version: number;
}

const entity = 'vehicle_location';

/** The location as published (without the item's bookkeeping), keys in a fixed order. */
export function publishedLocation(stored: StoredLocation | VehicleLocation): VehicleLocation {
  return {
    latitude: stored.latitude,
    longitude: stored.longitude,
    recorded_at: stored.recorded_at,
    ...(stored.heading !== undefined ? { heading: stored.heading } : {}),
    ...(stored.speed_kmh !== undefined ? { speed_kmh: stored.speed_kmh } : {}),
  };
}

/** One workspace's vehicle locations: every call is scoped to it by construction. */
export interface WorkspaceVehicleLocations {
  get(vehicleId: string): Promise<StoredLocation | undefined>;
  /** The locations of several vehicles, in the order asked (undefined where none was reported). */
  getMany(vehicleIds: readonly string[]): Promise<Array<StoredLocation | undefined>>;
  /** The new location with its event, if the item is still `current` (or still absent). */
  write(
    vehicleId: string,
    location: VehicleLocation,
    current: StoredLocation | undefined,
    event: DomainEvent,
  ): Promise<void>;
  /** Part of a vehicle's delete: its location goes with it (whether one was reported or not). */
  discard(vehicleId: string): TableWrite;
}

export const vehicleLocationStore = {
  of(scope: StoreScope): WorkspaceVehicleLocations {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = (vehicleId: string) => keys.vehicleLocation(workspaceId, vehicleId);
    return {
      async get(vehicleId) {
        return (await getRecord(key(vehicleId))) as StoredLocation | undefined;
      },
      async getMany(vehicleIds) {
        if (vehicleIds.length === 0) return [];
        return (await getRecords(vehicleIds.map(key))) as Array<StoredLocation | undefined>;
      },
      async write(vehicleId, location, current, event) {
        const record = {
          ...location,
          vehicle_id: vehicleId,
          lock_version: (current?.lock_version ?? -1) + 1,
        };
        const write: TableWrite = current
          ? { kind: 'replace', key: key(vehicleId), entity, record, expectedVersion: current.lock_version }
          : { kind: 'create', key: key(vehicleId), entity, record };
        await transactWrite([write, outboxWrite(event)]);
      },
      discard(vehicleId) {
        return { kind: 'discard', key: key(vehicleId) };
      },
    };
  },
};
