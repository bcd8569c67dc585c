/** Storage of devices. Device items hold no telemetry and no secret: both live in the device's state item (device-state.store.ts). */
import { resourceStore } from '../../data/resource-store.ts';
import { deviceList } from './device.list.ts';
import type { StoredDevice } from './device.schema.ts';

export const deviceStore = resourceStore<StoredDevice>('device', 'DEVICE', deviceList);
