/**
 * Storage of devices. Device items hold no telemetry and no secret: both live in the device's
 * state item (device-state.store.ts). natural_id comes from the workspace's device sequence, an
 * atomic counter (keys.ts `deviceSequence`): never taken twice.
 */
import { keys } from '../../data/keys.ts';
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { incrementCounter } from '../../data/table.ts';
import { deviceList } from './device.list.ts';
import type { StoredDevice } from './device.schema.ts';

export const deviceStore = resourceStore<StoredDevice>('device', 'DEVICE', deviceList);

export const deviceSequence = {
  of(scope: StoreScope) {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      /** The next natural_id of the workspace (one atomic ADD). */
      next: (): Promise<number> => incrementCounter(keys.deviceSequence(workspaceId), 'sequence', 'value', 1),
    };
  },
};
