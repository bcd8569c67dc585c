/**
 * Telemetry intake (POST /api/v2/device-intake/{device_id}): a device authenticates with its
 * intake secret (`Authorization: Bearer <secret>`), not a user token.
 *
 * - The secret names its workspace (device-state.store.ts `newIntakeSecret`); the device item and
 *   its state are read strongly consistent in one BatchGetItem, unless this container verified
 *   the device before (`verified` below: the state write's condition then does the checking),
 *   so a rotated secret or a deactivation is refused from the moment it was written. The SHA-256
 *   of the secret is compared with the stored one in constant time. Any failure of the credential
 *   is the same 401, whether the device exists or not: the endpoint tells a stranger nothing.
 * - A secret from a setup code must be used for the first time before the code's expires_at.
 * - A deactivated (DISABLED) device is 403 access-denied (data.reason resource_locked).
 * - A deactivated or billing-locked workspace is 403 tenant-disabled / 402 tenant-billing-locked,
 *   the rule of every workspace-scoped operation (auth/workspace-state.ts). The workspace is read
 *   beside the credential (both usually from this container's caches) and judged after it, so a
 *   caller without a valid secret learns nothing about the workspace.
 * - Each value of the current state moves only forward in recorded time: a location older than
 *   the current one is kept as history only (SPEC.md; trackers send buffered backlogs late).
 *   last_seen_at is the arrival of the newest report.
 * - Every report is a history point (TTL-bounded), written once its state write succeeded (a
 *   refused report leaves nothing). Points of concurrent reports share BatchWriteItem calls; each
 *   answer waits for its point's call (202 means stored).
 * - A device's first location sets its `has_location` (a device.updated, actor SYSTEM), which the
 *   `has_location` filter and its counter read.
 */
import { timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { assertWorkspaceOpen, cachedWorkspace } from '../../auth/workspace-state.ts';
import { DataError } from '../../data/data-error.ts';
import type { StoredRecord } from '../../data/table.ts';
import { previousAttributes, systemEvent } from '../../events/domain-event.ts';
import { DomainError } from '../domain-error.ts';
import { followReport } from '../live-day/live-day.service.ts';
import { updateVersioned } from '../versioned-write.ts';
import type { DeviceTelemetry, StoredDevice } from './device.schema.ts';
import { resourceOf, toDevice } from './device.service.ts';
import { deviceStore } from './device.store.ts';
import { DeviceError } from './device-error.ts';
import {
  deviceHistoryStore,
  deviceStateStore,
  hashSecret,
  type StoredDeviceState,
  type TelemetryPoint,
  workspaceOfSecret,
} from './device-state.store.ts';

/** How far ahead of the service's clock a report may be dated (device clocks drift a little). */
export const maxClockSkewMs = 5 * 60_000;
const maxAttempts = 8;

/**
 * 401 with the challenge that names the credential (the transport adds `www-authenticate`) and
 * SPEC.md's data.reason, present on every 401: token_missing without a usable Authorization
 * header, token_invalid for a secret that is not (or no longer) this device's.
 */
function unauthorized(
  detail: string,
  reason: 'token_missing' | 'token_invalid' = 'token_invalid',
): DeviceError {
  return new DeviceError('unauthenticated', { detail, data: { reason } });
}

/** The secret of `Authorization: Bearer <secret>`, or a 401. */
function secretOf(authorization: string | undefined): string {
  const match = /^Bearer ([^\s,]+)$/i.exec(authorization?.trim() ?? '');
  if (!match?.[1]) {
    throw unauthorized(
      'Send the device intake secret as `Authorization: Bearer <intake secret>`.',
      authorization?.trim() ? 'token_invalid' : 'token_missing',
    );
  }
  return match[1];
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export interface IntakeAccepted {
  device_id: string;
  received_at: string;
  has_updated_current_state: boolean;
}

/** A device whose intake secret was verified: where it is, what it is, its state as read. */
export interface IntakeCaller {
  workspaceId: string;
  deviceId: string;
  device: StoredRecord;
  state: StoredDeviceState;
  secretHash: string;
}

/**
 * Devices this container verified, with the state it last read or wrote. A report of such a
 * device skips the strongly consistent read: its state write is conditional on the version
 * cached, and everything that can refuse a secret changes that version (a new setup code or a
 * rotation writes the secret's hash into the state item, activate/deactivate write the
 * provisioning state there too, a delete removes it). So a write that lost its condition is a
 * signal to read again and verify again; a rotated secret or a deactivation is still refused from
 * the moment it was written, and a refused report leaves no trace (its history point is written
 * after its state).
 */
const verified = new Map<string, { device: StoredRecord; state: StoredDeviceState }>();
const maxVerified = 20_000;
const cacheKey = (workspaceId: string, deviceId: string) => `${workspaceId}/${deviceId}`;

function remember(caller: IntakeCaller): void {
  const key = cacheKey(caller.workspaceId, caller.deviceId);
  verified.delete(key);
  if (verified.size >= maxVerified) verified.delete(verified.keys().next().value ?? '');
  verified.set(key, { device: caller.device, state: caller.state });
}

/** 401 for any failure of the credential, 403 for a deactivated device. */
function verify(
  device: StoredRecord | undefined,
  state: StoredDeviceState | undefined,
  secretHash: string,
): asserts state is StoredDeviceState {
  if (!device || !state?.secret_hash || !sameHash(secretHash, state.secret_hash)) {
    throw unauthorized('The intake secret is not valid for this device (rotated, or never issued).');
  }
  if (!state.secret_used && state.secret_expires_at && Date.parse(state.secret_expires_at) < Date.now()) {
    throw unauthorized('The setup code of this secret expired before its first use; issue a new setup code.');
  }
  if (device.provisioning_state === 'DISABLED') {
    throw new DeviceError('forbidden', {
      detail: 'The device is deactivated; its intake is refused until it is activated again.',
      data: { reason: 'resource_locked' },
    });
  }
}

/** Reads the device and its state strongly consistent and verifies the secret against them. */
async function freshCaller(workspaceId: string, deviceId: string, secretHash: string): Promise<IntakeCaller> {
  try {
    const [device, state] = await deviceStateStore.of(workspaceId).readForIntake(deviceId);
    verify(device, state, secretHash);
    return { workspaceId, deviceId, device: device as StoredRecord, state, secretHash };
  } catch (error) {
    verified.delete(cacheKey(workspaceId, deviceId));
    throw error;
  }
}

/** The device of the path, authenticated by the request's intake secret. */
export async function authenticateIntake(
  deviceId: string | undefined,
  authorization: string | undefined,
): Promise<IntakeCaller> {
  const secret = secretOf(authorization);
  const workspaceId = workspaceOfSecret(secret);
  const id = (deviceId ?? '').toLowerCase();
  if (!workspaceId || !/^[0-9a-f-]{36}$/.test(id)) {
    throw unauthorized('The intake secret is not valid for this device (rotated, or never issued).');
  }
  const secretHash = hashSecret(secret);
  const workspace = cachedWorkspace(workspaceId);
  // Awaited only once the credential holds: a refused one must not leave it rejecting unheard.
  workspace.catch(() => undefined);
  const known = verified.get(cacheKey(workspaceId, id));
  const caller =
    known?.state.secret_hash && sameHash(secretHash, known.state.secret_hash)
      ? { workspaceId, deviceId: id, device: known.device, state: known.state, secretHash }
      : await freshCaller(workspaceId, id, secretHash);
  const record = await workspace;
  if (!record)
    throw unauthorized('The intake secret is not valid for this device (rotated, or never issued).');
  assertWorkspaceOpen(record);
  return caller;
}

export async function acceptTelemetry(
  caller: IntakeCaller,
  report: DeviceTelemetry,
): Promise<IntakeAccepted> {
  const { workspaceId, deviceId: id } = caller;
  const now = Date.now();
  const receivedAt = new Date(now).toISOString();
  const recordedAt = report.recorded_at ?? receivedAt;
  if (Date.parse(recordedAt) > now + maxClockSkewMs) {
    throw new DeviceError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/recorded_at',
          detail: `must not be more than ${maxClockSkewMs / 60_000} minutes ahead of the service's clock`,
        },
      ],
    });
  }

  const { moved, current } = await updateState(caller, report, recordedAt, receivedAt);
  await historyWriter.add(workspaceId, {
    point_id: uuidv7(),
    device_id: id,
    recorded_at: recordedAt,
    received_at: receivedAt,
    ...(report.location ? { latitude: report.location.latitude, longitude: report.location.longitude } : {}),
    ...(report.connectivity !== undefined ? { connectivity: report.connectivity } : {}),
    ...(report.battery_level !== undefined ? { battery_level: report.battery_level } : {}),
  });
  if (report.location && current.device.has_location !== true) {
    await markLocated(workspaceId, id);
    remember({ ...current, device: { ...current.device, has_location: true } });
  }
  return { device_id: id, received_at: receivedAt, has_updated_current_state: moved };
}

/** The state after a report: each value only forward in recorded time. */
export function nextState(
  state: StoredDeviceState,
  report: DeviceTelemetry,
  recordedAt: string,
  receivedAt: string,
): { next: StoredDeviceState; moved: boolean } {
  const next: StoredDeviceState = { ...state, secret_used: true };
  if (!state.last_seen_at || receivedAt > state.last_seen_at) next.last_seen_at = receivedAt;
  let moved = false;
  if (report.location && (!state.location_recorded_at || recordedAt > state.location_recorded_at)) {
    next.latitude = report.location.latitude;
    next.longitude = report.location.longitude;
    next.location_recorded_at = recordedAt;
    moved = true;
  }
  if (
    report.connectivity !== undefined &&
    (!state.connectivity_updated_at || recordedAt >= state.connectivity_updated_at)
  ) {
    next.connectivity = report.connectivity;
    next.connectivity_updated_at = recordedAt;
    moved = true;
  }
  if (
    report.battery_level !== undefined &&
    (!state.battery_recorded_at || recordedAt >= state.battery_recorded_at)
  ) {
    next.battery_level = report.battery_level;
    next.battery_recorded_at = recordedAt;
    moved = true;
  }
  return { next, moved };
}

/**
 * Writes the next state conditionally on the version known; a lost condition reads and verifies
 * again (the secret may have been rotated, the device deactivated or deleted) and re-decides.
 */
async function updateState(
  first: IntakeCaller,
  report: DeviceTelemetry,
  recordedAt: string,
  receivedAt: string,
): Promise<{ moved: boolean; current: IntakeCaller }> {
  let caller = first;
  for (let attempt = 1; ; attempt++) {
    const { next, moved } = nextState(caller.state, report, recordedAt, receivedAt);
    // The live day: a new position of a device that speaks for a technician on the road.
    const followed =
      moved && report.location
        ? await followReport(caller.workspaceId, caller.device, caller.state.live, {
            ...report.location,
            at: Date.parse(recordedAt),
          })
        : undefined;
    if (followed) {
      if (followed.live) next.live = followed.live;
      else delete next.live;
    }
    try {
      await deviceStateStore.of(caller.workspaceId).replace(next, caller.state);
      const current = { ...caller, state: { ...next, lock_version: caller.state.lock_version + 1 } };
      remember(current);
      await followed?.apply();
      return { moved, current };
    } catch (error) {
      const lostRace =
        error instanceof DataError && (error.code === 'version-conflict' || error.code === 'not-found');
      if (!lostRace || attempt >= maxAttempts) throw error;
      caller = await freshCaller(caller.workspaceId, caller.deviceId, caller.secretHash);
    }
  }
}

/** The device's first location: has_location becomes true (updated_at stays: telemetry, not an edit). */
async function markLocated(workspaceId: string, deviceId: string): Promise<void> {
  try {
    await updateVersioned<StoredDevice>({
      key: `device:${workspaceId}:${deviceId}`,
      load: () => deviceStore.of(workspaceId).get(deviceId),
      expectedVersion: undefined,
      apply: (stored) => ({ ...stored, has_location: true }),
      save: async (next, stored) => {
        if (stored.has_location) return;
        const kept = { ...next, updated_at: stored.updated_at };
        await deviceStore
          .of(workspaceId)
          .replace(
            kept,
            stored,
            systemEvent(
              workspaceId,
              'device.updated',
              resourceOf(deviceId),
              toDevice(kept),
              previousAttributes(toDevice(stored), toDevice(kept)),
            ),
          );
      },
    });
  } catch (error) {
    // Deleted meanwhile: nothing to mark.
    if (!(error instanceof DomainError && error.code === 'not-found')) throw error;
  }
}

/**
 * History points of concurrent reports in shared BatchWriteItem calls: points arriving while a
 * call is being prepared join it (at most 25 per call, putRecords splits). Each report's promise
 * settles with its call, so a 202 is only sent once its point is stored.
 */
function pointBatcher() {
  let pending: Array<{
    workspaceId: string;
    point: TelemetryPoint & { point_id: string };
    done: (error?: unknown) => void;
  }> = [];
  let scheduled = false;
  const flush = async () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    const byWorkspace = new Map<string, typeof batch>();
    for (const entry of batch)
      byWorkspace.set(entry.workspaceId, [...(byWorkspace.get(entry.workspaceId) ?? []), entry]);
    await Promise.all(
      [...byWorkspace].map(async ([workspaceId, entries]) => {
        try {
          await deviceHistoryStore.of(workspaceId).append(entries.map((entry) => entry.point));
          for (const entry of entries) entry.done();
        } catch (error) {
          for (const entry of entries) entry.done(error);
        }
      }),
    );
  };
  return {
    add(workspaceId: string, point: TelemetryPoint & { point_id: string }): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        pending.push({ workspaceId, point, done: (error) => (error ? reject(error) : resolve()) });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}

const historyWriter = pointBatcher();
