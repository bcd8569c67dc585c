/**
 * The kinds of device. Apart from device.schema.ts so that the list declarations
 * (device.list.ts), which the device store loads, do not load the device schemas, whose phone
 * number field brings libphonenumber's metadata.
 */
export const deviceKinds = ['SERVICE_APP', 'THIRD_PARTY_APP', 'TRACKING_DEVICE'] as const;
export type DeviceKind = (typeof deviceKinds)[number];
