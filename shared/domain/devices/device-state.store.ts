/**
 * A device's state item (keys.ts `deviceState`): its latest telemetry, its intake credential and
 * its entry in the geographic index; and its telemetry history (keys.ts `devicePoint`).
 *
 * - Apart from the device item, so intake (a report every few seconds) never bumps the device's
 *   lock_version nor races a PATCH, which replaces the whole device item.
 * - The intake secret is kept as a SHA-256 hash only: the secret is 256 random bits, so a slow
 *   password hash adds nothing; the hash is compared in constant time (device-intake.service.ts).
 * - The geographic index: a located state carries `gsi1pk` = the workspace's DEVICE_GEO index
 *   partition and `gsi1sk` = the geohash cell of its location + the device id, and the
 *   coordinates in `list_values`. A bounding box is then one key range per covering geohash
 *   prefix (geo-cells.ts), and each entry is checked against the box exactly. Intake keeps it
 *   current with the same write that moves the location.
 * - Every write of the item is conditional on its `lock_version` (its own counter, never shown):
 *   a lost race is a DataError the caller answers with a fresh read.
 * - History points expire after FSM_TELEMETRY_RETENTION_DAYS (default 30) through the table's TTL.
 */

import { createHash, randomBytes } from 'node:crypto';
import { devicePointPartition, keys, listKeys } from '../../data/keys.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import {
  discardRecords,
  getRecord,
  getRecords,
  type Key,
  putRecords,
  queryItems,
  type StoredRecord,
  type TableWrite,
  writeItem,
} from '../../data/table.ts';
import { tableDefinition } from '../../data/table-definition.ts';
import type { LiveState } from '../live-day/live-follow.ts';
import { deviceStore } from './device.store.ts';
import { cellOf } from './geo-cells.ts';

const entity = 'device_state';
/** The generic index the geographic entries use (an S/S index; its partition names them apart). */
const geoIndex = 'gsi1';
const geoList = 'DEVICE_GEO';

export interface StoredDeviceState {
  device_id: string;
  lock_version: number;
  secret_hash?: string;
  /** An issued secret must be used for the first time before then (setup codes' expires_at). */
  secret_expires_at?: string;
  secret_used?: boolean;
  last_seen_at?: string;
  latitude?: number;
  longitude?: number;
  location_recorded_at?: string;
  connectivity?: string;
  connectivity_updated_at?: string;
  battery_level?: number;
  battery_recorded_at?: string;
  /** As the device's, written by activate/deactivate (stateVersionBump). */
  provisioning_state?: string;
  /** The live day: the tour the device's positions follow and its visits (live-day/live-follow.ts). */
  live?: LiveState;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * A new intake secret: the workspace id (where the device's items are) and 256 random bits.
 * The workspace part only routes the lookup; the random part is what authenticates.
 */
export function newIntakeSecret(workspaceId: string): string {
  return `fsmi.${workspaceId}.${randomBytes(32).toString('base64url')}`;
}

/** The workspace an intake secret names, or undefined when it is not one of ours. */
export function workspaceOfSecret(secret: string): string | undefined {
  const match = /^fsmi\.([0-9a-zA-Z-]{1,64})\.[A-Za-z0-9_-]{43}$/.exec(secret);
  return match?.[1];
}

/** One workspace's device state items: every call is scoped to it by construction. */
export interface WorkspaceDeviceStates {
  /** One GetItem; undefined when the device never had a state item. */
  get(deviceId: string): Promise<StoredDeviceState | undefined>;
  /** Many, in the order asked (undefined: none): one BatchGetItem per 100. */
  getMany(deviceIds: readonly string[]): Promise<Array<StoredDeviceState | undefined>>;
  /** The device item and its state, strongly consistent (a rotated secret is refused at once): one call. */
  readForIntake(deviceId: string): Promise<[StoredRecord | undefined, StoredDeviceState | undefined]>;
  /**
   * Sets a new secret's hash (creating the state item when absent): every earlier secret is
   * refused from this write on. One UpdateItem, so it never races telemetry into losing either.
   */
  storeSecret(deviceId: string, secretHash: string, expiresAt: string): Promise<void>;
  /** Replaces the state read (`current.lock_version`); DataError version-conflict/not-found when it moved. */
  replace(next: StoredDeviceState, current: StoredDeviceState): Promise<void>;
  /**
   * Part of activate/deactivate: the state item records the provisioning state and moves its
   * version, so intake's write conditional on a version it knew fails and it verifies again.
   */
  versionBump(deviceId: string, provisioningState: string): TableWrite;
  /** Part of a device's delete: its state (and secret, and index entry) goes with it. */
  discard(deviceId: string): TableWrite;
  /** The located devices whose cell starts with one of `prefixes`: one key range each, in parallel. */
  locatedIn(prefixes: readonly string[]): Promise<LocatedDevice[]>;
}

export interface LocatedDevice {
  device_id: string;
  latitude: number;
  longitude: number;
}

export const deviceStateStore = {
  of(scope: StoreScope): WorkspaceDeviceStates {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = (deviceId: string) => keys.deviceState(workspaceId, deviceId);
    return {
      async get(deviceId) {
        return (await getRecord(key(deviceId))) as StoredDeviceState | undefined;
      },
      async getMany(deviceIds) {
        if (deviceIds.length === 0) return [];
        return (await getRecords(deviceIds.map(key))) as Array<StoredDeviceState | undefined>;
      },
      async readForIntake(deviceId) {
        const [device, state] = await getRecords([deviceStore.of(workspaceId).key(deviceId), key(deviceId)], {
          consistent: true,
        });
        return [device, state as StoredDeviceState | undefined];
      },
      async storeSecret(deviceId, secretHash, expiresAt) {
        await writeItem({
          kind: 'add',
          key: key(deviceId),
          entity,
          attribute: 'lock_version',
          by: 1,
          fields: {
            device_id: deviceId,
            secret_hash: secretHash,
            secret_expires_at: expiresAt,
            secret_used: false,
          },
        });
      },
      async replace(next, current) {
        await writeItem({
          kind: 'replace',
          key: key(next.device_id),
          entity,
          record: stateItem(workspaceId, { ...next, lock_version: current.lock_version + 1 }),
          expectedVersion: current.lock_version,
        });
      },
      versionBump(deviceId, provisioningState) {
        return {
          kind: 'add',
          key: key(deviceId),
          entity,
          attribute: 'lock_version',
          by: 1,
          fields: { device_id: deviceId, provisioning_state: provisioningState },
        };
      },
      discard(deviceId) {
        return { kind: 'discard', key: key(deviceId) };
      },
      locatedIn: (prefixes) => locatedIn(workspaceId, prefixes),
    };
  },
};

/** The state item as written: its fields and, when located, its geographic index entry. */
function stateItem(workspaceId: string, state: StoredDeviceState): StoredRecord {
  const item: StoredRecord = { ...state };
  if (state.latitude !== undefined && state.longitude !== undefined) {
    const index = geoIndexDefinition();
    item[index.partitionKey] = listKeys.indexPartition(workspaceScope(workspaceId), geoList);
    item[index.sortKey] = `${cellOf(state.latitude, state.longitude)}\u0001${state.device_id}`;
    item.list_values = { latitude: state.latitude, longitude: state.longitude };
  }
  return item;
}

function geoIndexDefinition() {
  const index = tableDefinition.indexes.find((candidate) => candidate.name === geoIndex);
  if (!index) throw new Error(`no index ${geoIndex}`);
  return index;
}

async function locatedIn(workspaceId: string, prefixes: readonly string[]): Promise<LocatedDevice[]> {
  const index = geoIndexDefinition();
  const partition = listKeys.indexPartition(workspaceScope(workspaceId), geoList);
  const found = await Promise.all(
    prefixes.map(async (prefix) => {
      const located: LocatedDevice[] = [];
      for await (const raw of queryItems({
        index: index.name,
        partitionKey: { name: index.partitionKey, value: partition },
        sortKeyName: index.sortKey,
        beginsWith: prefix,
        pageSize: () => 1000,
      })) {
        // Index entries hold the projection only: the id is the sort key's second part.
        const values = raw.list_values as { latitude?: number; longitude?: number } | undefined;
        const deviceId = String(raw[index.sortKey] ?? '').split('\u0001')[1];
        if (!deviceId || values?.latitude === undefined || values.longitude === undefined) continue;
        located.push({ device_id: deviceId, latitude: values.latitude, longitude: values.longitude });
      }
      return located;
    }),
  );
  return found.flat();
}

/** Days a telemetry point is kept. */
export function retentionDays(): number {
  const days = Number(process.env.FSM_TELEMETRY_RETENTION_DAYS ?? 30);
  return Number.isFinite(days) && days > 0 ? days : 30;
}

export interface TelemetryPoint {
  device_id: string;
  recorded_at: string;
  received_at: string;
  latitude?: number;
  longitude?: number;
  connectivity?: string;
  battery_level?: number;
}

/** One workspace's telemetry history (keys.ts `devicePoint`): every call is scoped to it. */
export interface WorkspaceDeviceHistory {
  /** History points, written in BatchWriteItem calls of 25 (concurrent reports share calls). */
  append(points: ReadonlyArray<TelemetryPoint & { point_id: string }>): Promise<void>;
  /**
   * Deletes up to `max` points of a device's history (BatchWriteItem calls of 25); true when
   * points remain. Callers repeat until false, each step bounded in time.
   */
  purge(deviceId: string, max: number): Promise<boolean>;
  /** How many history points a device has (tests and the purge's progress). */
  count(deviceId: string): Promise<number>;
}

export const deviceHistoryStore = {
  of(scope: StoreScope): WorkspaceDeviceHistory {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const points = (deviceId: string, pageSize: () => number) =>
      queryItems({
        partitionKey: {
          name: tableDefinition.partitionKey,
          value: devicePointPartition(workspaceId, deviceId),
        },
        pageSize,
      });
    return {
      async append(entries) {
        const expiresAt = Math.floor(Date.now() / 1000) + retentionDays() * 86_400;
        await putRecords(
          entries.map(({ point_id: pointId, ...point }) => ({
            key: keys.devicePoint(workspaceId, point.device_id, point.recorded_at, pointId),
            entity: 'device_point',
            record: point,
            expiresAt,
          })),
        );
      },
      async purge(deviceId, max) {
        const batch: Key[] = [];
        let more = false;
        for await (const raw of points(deviceId, () => Math.min(1000, max + 1 - batch.length))) {
          if (batch.length >= max) {
            more = true;
            break;
          }
          batch.push({ pk: String(raw.pk), sk: String(raw.sk) });
        }
        await discardRecords(batch);
        return more;
      },
      async count(deviceId) {
        let count = 0;
        for await (const _ of points(deviceId, () => 1000)) count++;
        return count;
      },
    };
  },
};
