/**
 * The latest location of each vehicle: one item per vehicle, apart from the vehicle item
 * (keys.ts `vehicleLocation`), so that reports every few seconds neither bump the vehicle's
 * lock_version (a dispatcher's PATCH with lock_version would keep failing with 409) nor race a
 * PATCH, which replaces the whole vehicle item and would put back the location it read.
 *
 * Contract:
 * - `read` / `readMany`: the stored location (undefined when none was reported), 1 GetItem /
 *   1 BatchGetItem per 100 vehicles.
 * - `writeLocation`: the transaction writes the new location together with its event, on the
 *   condition that the item is still the version read (`current`), or still absent; a lost race
 *   is a DataError `version-conflict` / `already-exists`, and the caller decides again from a
 *   fresh read. The item's own `lock_version` exists only for that condition and is never shown.
 */

import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { getRecord, getRecords, type TableWrite, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { VehicleLocation } from './vehicle.schema.ts';

export interface StoredLocation extends VehicleLocation {
  vehicle_id: string;
  /** Condition of the next write only; not the vehicle's lock_version. */
  lock_version: number;
}

const entity = 'vehicle_location';

export async function readLocation(
  workspaceId: string,
  vehicleId: string,
): Promise<StoredLocation | undefined> {
  return (await getRecord(keys.vehicleLocation(workspaceId, vehicleId))) as StoredLocation | undefined;
}

/** The locations of several vehicles, in the order asked (undefined where none was reported). */
export async function readLocations(
  workspaceId: string,
  vehicleIds: readonly string[],
): Promise<Array<StoredLocation | undefined>> {
  if (vehicleIds.length === 0) return [];
  return (await getRecords(vehicleIds.map((id) => keys.vehicleLocation(workspaceId, id)))) as Array<
    StoredLocation | undefined
  >;
}

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

export async function writeLocation(
  workspaceId: string,
  vehicleId: string,
  location: VehicleLocation,
  current: StoredLocation | undefined,
  event: DomainEvent,
): Promise<void> {
  const key = keys.vehicleLocation(workspaceId, vehicleId);
  const record = { ...location, vehicle_id: vehicleId, lock_version: (current?.lock_version ?? -1) + 1 };
  const write: TableWrite = current
    ? { kind: 'replace', key, entity, record, expectedVersion: current.lock_version }
    : { kind: 'create', key, entity, record };
  await transactWrite([write, outboxWrite(event)]);
}

/** Part of a vehicle's delete: its location goes with it (whether one was reported or not). */
export function discardLocation(workspaceId: string, vehicleId: string): TableWrite {
  return { kind: 'discard', key: keys.vehicleLocation(workspaceId, vehicleId) };
}
