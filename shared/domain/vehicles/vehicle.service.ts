/**
 * Vehicle rules: creation with defaults (vehicle_type OTHER, is_active), merge-patch edits
 * (license_plate and capacity_kg clearable with null), deletion, paged listing, and location
 * reports. Every edit emits vehicle.created / vehicle.updated / vehicle.deleted; a location
 * report emits only the internal vehicle.location_updated, for the event stream's
 * VEHICLE_LOCATION_UPDATED:V1: reports are telemetry (every few seconds per vehicle), so they reach
 * neither webhooks nor the audit log.
 *
 * license_plate is unique per workspace, compared without letter case, blanks and hyphens
 * (`B-FS 1204` = `bfs 1204`). A guard item per plate, created in the vehicle's transaction,
 * keeps the rule across containers writing at the same instant, and names the holder in the 409.
 *
 * Location reports are last-write-wins by the time they were taken, not by arrival: a report
 * whose recorded_at is not after the stored one changes nothing (200 with the vehicle as it is,
 * no event), so a tracker's buffered backlog arriving late never moves the vehicle back. They
 * leave the vehicle's lock_version and updated_at alone (vehicle-location.store.ts says why).
 * Deleting a vehicle leaves the tours that name it as they are.
 *
 * Dispatchers report any vehicle's location (vehicles:update); a driver or technician
 * (vehicles:location:update:own alone) only the vehicle of a tour it drives that is IN_PROGRESS
 * (tour-drivers.ts), else 403 not_owner.
 */
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import type { TableWrite } from '../../data/table.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { serialized } from '../keyed-mutex.ts';
import { assertOwner, vehicleLocationOwnWork, writesOwnWorkOnly } from '../own-work.ts';
import { isDrivingVehicle } from '../tours/tour-drivers.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import type {
  CreateVehicleSchema,
  ReplaceVehicleLocationSchema,
  StoredVehicle,
  UpdateVehicleSchema,
  Vehicle,
  VehicleListQuery,
  VehicleLocation,
} from './vehicle.schema.ts';
import { vehiclePlateStore, vehicleStore } from './vehicle.store.ts';
import { VehicleError } from './vehicle-error.ts';
import { publishedLocation, type StoredLocation, vehicleLocationStore } from './vehicle-location.store.ts';

const resource = (id: string) => ({ type: 'vehicle', id });

export const defaultVehicleType = 'OTHER';

/** How far ahead of the service's clock a report may be dated (trackers' clocks drift a little). */
export const maxClockSkewMs = 5 * 60_000;

/** Attempts of a location report that keeps losing to reports of other containers. */
const maxReportAttempts = 8;

/** The identity a plate is unique by: letters and digits, upper case. */
export function plateIdentity(plate: string): string {
  return plate
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The vehicle as published: its fields in a fixed order, with its latest location. */
export function toVehicle(stored: StoredVehicle, location?: StoredLocation | VehicleLocation): Vehicle {
  return {
    id: stored.id,
    name: stored.name,
    ...(stored.license_plate !== undefined ? { license_plate: stored.license_plate } : {}),
    vehicle_type: stored.vehicle_type,
    ...(stored.capacity_kg !== undefined ? { capacity_kg: stored.capacity_kg } : {}),
    is_active: stored.active,
    ...(location ? { location: publishedLocation(location) } : {}),
    created_at: stored.created_at,
    updated_at: stored.updated_at,
    lock_version: stored.lock_version,
  };
}

/** A page through the list indexes (vehicle.list.ts); default order name ascending, ties by id. */
export async function listVehicles(ctx: Actor, query: z.output<typeof VehicleListQuery>) {
  const { items, total } = await vehicleStore.of(ctx).page({
    ...(query.is_active === undefined ? {} : { segments: [query.is_active ? 'ACTIVE' : 'INACTIVE'] }),
    order: query.sort?.length ? query.sort : [{ field: 'name', direction: 'asc' }],
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
  });
  const locations = await vehicleLocationStore.of(ctx).getMany(items.map((vehicle) => vehicle.id));
  return {
    items: items.map((vehicle, index) => toVehicle(vehicle, locations[index])),
    page: pageOf(total, query),
  };
}

export async function getVehicle(ctx: Actor, id: string): Promise<Vehicle> {
  const [vehicle, location] = await Promise.all([
    vehicleStore.of(ctx).get(id),
    vehicleLocationStore.of(ctx).get(id),
  ]);
  if (!vehicle) throw new VehicleError('not-found');
  return toVehicle(vehicle, location);
}

/** The stored vehicle (no location), for references from other resources (tours). */
export async function findVehicle(workspaceId: string, id: string): Promise<StoredVehicle | undefined> {
  return vehicleStore.of(workspaceId).get(id.toLowerCase());
}

export async function createVehicle(
  ctx: Actor,
  input: z.output<typeof CreateVehicleSchema>,
): Promise<Vehicle> {
  const now = new Date().toISOString();
  const vehicle: StoredVehicle = {
    id: uuidv7(),
    name: input.name,
    ...(input.license_plate !== undefined ? { license_plate: input.license_plate } : {}),
    vehicle_type: input.vehicle_type ?? defaultVehicleType,
    ...(input.capacity_kg !== undefined ? { capacity_kg: input.capacity_kg } : {}),
    active: input.is_active ?? true,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  if (vehicle.license_plate !== undefined) await assertPlateFree(ctx, vehicle.license_plate);
  const published = toVehicle(vehicle);
  await guardedPlate(vehicle.license_plate, () =>
    vehicleStore
      .of(ctx)
      .create(
        vehicle,
        domainEvent(ctx, 'vehicle.created', resource(vehicle.id), published),
        vehicle.license_plate === undefined ? [] : [claimPlate(ctx, vehicle)],
      ),
  );
  return published;
}

export async function updateVehicle(
  ctx: Actor,
  id: string,
  patch: z.output<typeof UpdateVehicleSchema>,
): Promise<Vehicle> {
  const [current] = await Promise.all([
    vehicleLocationStore.of(ctx).get(id),
    // Uniqueness is checked only for a plate that is sent (SPEC.md rule 5).
    typeof patch.license_plate === 'string' ? assertPlateFree(ctx, patch.license_plate, id) : undefined,
  ]);
  const { after } = await updateVersioned<StoredVehicle>({
    key: `vehicle:${ctx.workspaceId}:${id}`,
    load: () => vehicleStore.of(ctx).get(id),
    expectedVersion: patch.lock_version,
    // Published is_active is stored as active (vehicle.schema.ts, StoredVehicle).
    apply: (stored) => {
      const { is_active: isActive, ...fields } = patch;
      return mergePatch(stored, isActive === undefined ? fields : { ...fields, active: isActive });
    },
    save: (next, stored) =>
      guardedPlate(next.license_plate, () =>
        vehicleStore
          .of(ctx)
          .replace(
            next,
            stored,
            domainEvent(
              ctx,
              'vehicle.updated',
              resource(id),
              toVehicle(next, current),
              previousAttributes(toVehicle(stored), toVehicle(next)),
            ),
            plateWrites(ctx, stored, next),
          ),
      ),
  });
  return toVehicle(after, current);
}

export async function deleteVehicle(ctx: Actor, id: string): Promise<void> {
  const location = await vehicleLocationStore.of(ctx).get(id);
  await deleteExisting<StoredVehicle>({
    load: () => vehicleStore.of(ctx).get(id),
    remove: (current) =>
      vehicleStore
        .of(ctx)
        .remove(current, domainEvent(ctx, 'vehicle.deleted', resource(id), toVehicle(current, location)), [
          ...plateWrites(ctx, current, undefined),
          vehicleLocationStore.of(ctx).discard(id),
        ]),
  });
}

/**
 * A location report: replaces the latest location when it was taken after the stored one;
 * otherwise answers the vehicle unchanged and emits nothing.
 */
export async function reportLocation(
  ctx: Actor,
  id: string,
  input: z.output<typeof ReplaceVehicleLocationSchema>,
): Promise<Vehicle> {
  const now = Date.now();
  const recordedAt = input.recorded_at ?? new Date(now).toISOString();
  if (Date.parse(recordedAt) > now + maxClockSkewMs) {
    // A report from the future would shadow every real report until that time comes.
    throw new VehicleError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/recorded_at',
          detail: `must not be more than ${maxClockSkewMs / 60_000} minutes ahead of the service's clock`,
        },
      ],
    });
  }
  const location: VehicleLocation = {
    latitude: input.latitude,
    longitude: input.longitude,
    recorded_at: recordedAt,
    ...(input.heading !== undefined ? { heading: input.heading } : {}),
    ...(input.speed_kmh !== undefined ? { speed_kmh: input.speed_kmh } : {}),
  };
  // A driver (vehicles:location:update:own alone) reports only the vehicle it drives now.
  const driving = writesOwnWorkOnly(ctx.principal, vehicleLocationOwnWork)
    ? isDrivingVehicle(ctx.workspaceId, ctx.principal.id, id)
    : undefined;
  // Settled here, so a 404 below does not leave it rejected unobserved.
  driving?.catch(() => {});
  return serialized(`vehicle-location:${ctx.workspaceId}:${id}`, async () => {
    for (let attempt = 1; ; attempt++) {
      const [vehicle, stored] = await Promise.all([
        vehicleStore.of(ctx).get(id),
        vehicleLocationStore.of(ctx).get(id),
      ]);
      if (!vehicle) throw new VehicleError('not-found');
      if (driving) assertOwner(await driving, vehicleLocationOwnWork);
      if (stored && stored.recorded_at >= location.recorded_at) return toVehicle(vehicle, stored);
      const next = toVehicle(vehicle, location);
      const event = domainEvent(ctx, 'vehicle.location_updated', resource(id), next, {
        location: stored ? publishedLocation(stored) : null,
      });
      try {
        await vehicleLocationStore.of(ctx).write(id, location, stored, event);
        return next;
      } catch (error) {
        const lostRace =
          error instanceof DataError &&
          (error.code === 'version-conflict' || error.code === 'already-exists');
        if (!lostRace || attempt >= maxReportAttempts) throw error;
      }
    }
  });
}

const claimPlate = (ctx: Actor, vehicle: StoredVehicle): TableWrite =>
  vehiclePlateStore.of(ctx).claim(plateIdentity(vehicle.license_plate ?? ''), vehicle.id);

const releasePlate = (ctx: Actor, vehicle: StoredVehicle): TableWrite =>
  vehiclePlateStore.of(ctx).release(plateIdentity(vehicle.license_plate ?? ''));

/** The guard items a change of plate moves (none when its identity stays the same). */
function plateWrites(ctx: Actor, before: StoredVehicle, after: StoredVehicle | undefined): TableWrite[] {
  const old = before.license_plate === undefined ? undefined : plateIdentity(before.license_plate);
  const next = after?.license_plate === undefined ? undefined : plateIdentity(after.license_plate);
  if (old === next) return [];
  return [
    ...(old === undefined ? [] : [releasePlate(ctx, before)]),
    ...(after && next !== undefined ? [claimPlate(ctx, after)] : []),
  ];
}

/** 409 when another vehicle of the workspace holds the plate (its guard item names it). */
async function assertPlateFree(ctx: Actor, plate: string, ownId?: string): Promise<void> {
  const holder = await vehiclePlateStore.of(ctx).holder(plateIdentity(plate));
  if (holder && holder !== ownId) throw plateTaken(plate, holder);
}

/** A guard taken between the check and the write (another container won the race) is the same 409. */
async function guardedPlate(plate: string | undefined, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists' && plate !== undefined) {
      throw plateTaken(plate);
    }
    throw error;
  }
}

function plateTaken(plate: string, holderId?: string): VehicleError {
  return new VehicleError('already-exists', {
    detail: `Another vehicle of this workspace already has the license plate ${plate}.`,
    fields: [
      {
        type: 'field-invalid',
        detail: 'is already used by another vehicle (plates are compared without case, blanks and hyphens)',
        pointer: '#/license_plate',
        ...(holderId ? { data: { vehicle_id: holderId } } : {}),
      },
    ],
  });
}
