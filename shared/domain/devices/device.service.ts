/**
 * Device rules (SPEC.md, Device and its States row): creation with defaults (kind SERVICE_APP,
 * platform UNKNOWN, PROVISIONED) and a natural_id from the workspace's sequence; merge-patch
 * edits (kind and platform never null, device_identity_id fixed once set); activate and
 * deactivate (PROVISIONED ↔ DISABLED; telemetry kept); deletion with the state and, in bounded
 * steps after the answer, the whole telemetry history (device-history.consumer.ts).
 * Every edit emits device.created / device.updated / device.deleted.
 *
 * natural_id comes from an atomic counter taken before the create transaction: never taken
 * twice; a create that then fails leaves a gap, which SPEC.md allows ("system-assigned").
 */
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { findVehicle } from '../vehicles/vehicle.service.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import type {
  CreateDeviceSchema,
  Device,
  DeviceCurrentState,
  ProvisioningState,
  StoredDevice,
  UpdateDeviceSchema,
} from './device.schema.ts';
import { deviceSequence, deviceStore } from './device.store.ts';
import { DeviceError } from './device-error.ts';
import { deviceStateStore, type StoredDeviceState } from './device-state.store.ts';

export const resourceOf = (id: string) => ({ type: 'device', id });

/** The device as published: fields in a fixed order; `current_state` only when asked for. */
export function toDevice(stored: StoredDevice, state?: StoredDeviceState | null): Device {
  return {
    id: stored.id,
    natural_id: stored.natural_id,
    kind: stored.kind,
    ...(stored.device_model !== undefined ? { device_model: stored.device_model } : {}),
    ...(stored.device_identity_id !== undefined ? { device_identity_id: stored.device_identity_id } : {}),
    ...(stored.connection_profile !== undefined ? { connection_profile: stored.connection_profile } : {}),
    provisioning_state: stored.provisioning_state,
    ...(stored.phone_number !== undefined ? { phone_number: stored.phone_number } : {}),
    platform: stored.platform,
    ...(stored.description !== undefined ? { description: stored.description } : {}),
    ...(stored.vehicle_id !== undefined ? { vehicle_id: stored.vehicle_id } : {}),
    ...(stored.user_id !== undefined ? { user_id: stored.user_id } : {}),
    has_location: stored.has_location === true,
    ...(state !== undefined ? { current_state: embeddedState(state) } : {}),
    created_at: stored.created_at,
    updated_at: stored.updated_at,
    lock_version: stored.lock_version,
  };
}

/** The embedded current state; none (the key is omitted) when the device never reported. */
export function embeddedState(state: StoredDeviceState | null): Device['current_state'] {
  if (!state?.last_seen_at) return undefined;
  return {
    last_received_at: state.last_seen_at,
    ...(state.latitude !== undefined && state.longitude !== undefined
      ? {
          location: { latitude: state.latitude, longitude: state.longitude },
          ...(state.location_recorded_at ? { location_recorded_at: state.location_recorded_at } : {}),
        }
      : {}),
    ...(state.connectivity !== undefined ? { connectivity: state.connectivity } : {}),
    ...(state.battery_level !== undefined ? { battery_level: state.battery_level } : {}),
  };
}

/**
 * The standalone current-state record. A device that never reported has only its id and an
 * empty status: what it has not reported is omitted, never null (SPEC.md, "Absent values").
 */
export function currentStateOf(deviceId: string, state: StoredDeviceState | undefined): DeviceCurrentState {
  const located = state?.latitude !== undefined && state.longitude !== undefined;
  return {
    device_id: deviceId,
    ...(state?.last_seen_at ? { last_seen_at: state.last_seen_at } : {}),
    status: {
      ...(state?.connectivity != null ? { connectivity: state.connectivity } : {}),
      ...(state?.connectivity_updated_at ? { updated_at: state.connectivity_updated_at } : {}),
    },
    ...(located
      ? { location: { latitude: Number(state?.latitude), longitude: Number(state?.longitude) } }
      : {}),
    ...(located && state?.location_recorded_at ? { location_recorded_at: state.location_recorded_at } : {}),
    ...(state?.battery_level != null ? { battery_level: state.battery_level } : {}),
  };
}

export async function findDevice(workspaceId: string, id: string): Promise<StoredDevice | undefined> {
  return deviceStore.of(workspaceId).get(id.toLowerCase());
}

export async function getDevice(ctx: Actor, id: string, withState: boolean): Promise<Device> {
  const [device, state] = await Promise.all([
    deviceStore.of(ctx).get(id),
    withState ? deviceStateStore.of(ctx).get(id) : undefined,
  ]);
  if (!device) throw new DeviceError('not-found');
  return toDevice(device, withState ? (state ?? null) : undefined);
}

/** Devices with their embedded states when asked for (one BatchGetItem per 100). */
export async function withStates(
  workspaceId: string,
  devices: readonly StoredDevice[],
  include: boolean,
): Promise<Device[]> {
  if (!include) return devices.map((device) => toDevice(device));
  const states = await deviceStateStore.of(workspaceId).getMany(devices.map((device) => device.id));
  return devices.map((device, index) => toDevice(device, states[index] ?? null));
}

/**
 * 422 for a vehicle or user the device would speak for that is not of the workspace (the live
 * day reads a device's positions as theirs: API-DECISIONS.md, "The live day").
 */
async function assertSpeaksFor(
  workspaceId: string,
  refs: { vehicle_id?: string | null | undefined; user_id?: string | null | undefined },
): Promise<void> {
  const [vehicle, user] = await Promise.all([
    refs.vehicle_id ? findVehicle(workspaceId, refs.vehicle_id) : undefined,
    refs.user_id ? getPrincipal(workspaceId, refs.user_id.toLowerCase()) : undefined,
  ]);
  const fields: FieldError[] = [];
  if (refs.vehicle_id && !vehicle) {
    fields.push({
      type: 'field-invalid',
      pointer: '#/vehicle_id',
      detail: 'no vehicle with this id exists in the workspace',
    });
  }
  if (refs.user_id && user?.kind !== 'user') {
    fields.push({
      type: 'field-invalid',
      pointer: '#/user_id',
      detail: 'no user with this id exists in the workspace',
    });
  }
  if (fields.length > 0) throw new DeviceError('invalid', { fields });
}

export async function createDevice(ctx: Actor, input: z.output<typeof CreateDeviceSchema>): Promise<Device> {
  await assertSpeaksFor(ctx.workspaceId, input);
  const naturalId = await deviceSequence.of(ctx).next();
  const now = new Date().toISOString();
  const device: StoredDevice = {
    id: uuidv7(),
    natural_id: naturalId,
    kind: input.kind ?? 'SERVICE_APP',
    ...(input.device_model !== undefined ? { device_model: input.device_model } : {}),
    ...(input.device_identity_id !== undefined ? { device_identity_id: input.device_identity_id } : {}),
    ...(input.connection_profile !== undefined ? { connection_profile: input.connection_profile } : {}),
    provisioning_state: 'PROVISIONED',
    ...(input.phone_number !== undefined ? { phone_number: input.phone_number } : {}),
    platform: input.platform ?? 'UNKNOWN',
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.vehicle_id !== undefined ? { vehicle_id: input.vehicle_id.toLowerCase() } : {}),
    ...(input.user_id !== undefined ? { user_id: input.user_id.toLowerCase() } : {}),
    has_location: false,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  const published = toDevice(device);
  await deviceStore
    .of(ctx)
    .create(device, domainEvent(ctx, 'device.created', resourceOf(device.id), published));
  return published;
}

export async function updateDevice(
  ctx: Actor,
  id: string,
  patch: z.output<typeof UpdateDeviceSchema>,
): Promise<Device> {
  const { lock_version: expectedVersion, provisioning_state: _state, natural_id: _number, ...sent } = patch;
  await assertSpeaksFor(ctx.workspaceId, sent);
  const fields = {
    ...sent,
    ...(sent.vehicle_id ? { vehicle_id: sent.vehicle_id.toLowerCase() } : {}),
    ...(sent.user_id ? { user_id: sent.user_id.toLowerCase() } : {}),
  };
  const { after } = await updateVersioned<StoredDevice>({
    key: `device:${ctx.workspaceId}:${id}`,
    load: () => deviceStore.of(ctx).get(id),
    expectedVersion,
    apply: (stored) => {
      if (
        fields.device_identity_id !== undefined &&
        stored.device_identity_id !== undefined &&
        fields.device_identity_id !== stored.device_identity_id
      ) {
        throw new DeviceError('invalid', {
          fields: [
            {
              type: 'field-invalid',
              pointer: '#/device_identity_id',
              detail: `is fixed once set (stored: ${stored.device_identity_id}); send the stored value or omit it`,
            },
          ],
        });
      }
      return mergePatch(stored, fields);
    },
    save: (next, stored) => deviceStore.of(ctx).replace(next, stored, updatedEvent(ctx, next, stored)),
  });
  return toDevice(after);
}

/** device.updated with the previous values of the fields that changed. */
function updatedEvent(ctx: Actor, next: StoredDevice, stored: StoredDevice) {
  return domainEvent(
    ctx,
    'device.updated',
    resourceOf(next.id),
    toDevice(next),
    previousAttributes(toDevice(stored), toDevice(next)),
  );
}

/** activate / deactivate: the state asked for (already there: the device as it is, no event). */
export async function setProvisioningState(
  ctx: Actor,
  id: string,
  state: ProvisioningState,
): Promise<Device> {
  const current = await deviceStore.of(ctx).get(id);
  if (!current) throw new DeviceError('not-found');
  if (current.provisioning_state === state) return toDevice(current);
  const { after } = await updateVersioned<StoredDevice>({
    key: `device:${ctx.workspaceId}:${id}`,
    load: () => deviceStore.of(ctx).get(id),
    expectedVersion: undefined,
    apply: (stored) => ({ ...stored, provisioning_state: state }),
    save: (next, stored) =>
      deviceStore.of(ctx).replace(
        next,
        stored,
        updatedEvent(ctx, next, stored),
        // The state item's version moves too: intake's conditional write notices at once.
        [deviceStateStore.of(ctx).versionBump(id, state)],
      ),
  });
  return toDevice(after);
}

/**
 * The device and its state go in one transaction (its secret with it: intake is refused at
 * once); the telemetry history follows in bounded steps (device-history.consumer.ts).
 */
export async function deleteDevice(ctx: Actor, id: string): Promise<void> {
  await deleteExisting<StoredDevice>({
    load: () => deviceStore.of(ctx).get(id),
    remove: (current) =>
      deviceStore
        .of(ctx)
        .remove(current, domainEvent(ctx, 'device.deleted', resourceOf(id), toDevice(current)), [
          deviceStateStore.of(ctx).discard(id),
        ]),
  });
}

export async function getCurrentState(ctx: Actor, id: string): Promise<DeviceCurrentState> {
  const [device, state] = await Promise.all([deviceStore.of(ctx).get(id), deviceStateStore.of(ctx).get(id)]);
  if (!device) throw new DeviceError('not-found');
  return currentStateOf(device.id, state);
}

/**
 * States of the devices asked for that exist in the caller's workspace, in the order asked;
 * ids of other workspaces or of no device are left out (they are not visible). Two BatchGetItem.
 */
export async function getCurrentStates(
  ctx: Actor,
  ids: readonly string[],
): Promise<{ items: DeviceCurrentState[] }> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const [devices, states] = await Promise.all([
    deviceStore.of(ctx).getMany(unique),
    deviceStateStore.of(ctx).getMany(unique),
  ]);
  return {
    items: unique.flatMap((id, index) => (devices[index] ? [currentStateOf(id, states[index])] : [])),
  };
}
