/**
 * Routes of the `device-intake` operation group: telemetry reported by devices, its own Lambda
 * (the hot path, authenticated by intake secrets, not user tokens). Apart from
 * devices.routes.ts so that the intake function builds only the telemetry schemas.
 */
import {
  DeviceIdParams,
  DeviceIntakeReceiptSchema,
  DeviceTelemetrySchema,
} from '../../domain/devices/device-telemetry.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

/** The device of the examples (devices.routes.ts shows the same tracker). */
export const exampleDeviceId = '019d2f4a-5b7c-7d20-8e1f-3a9b6c4d2e51';

export const deviceIntakeRoutes = [
  {
    group: 'device-intake',
    tags: ['Devices'],
    auth: 'device',
    operationId: 'device_intake.report',
    method: 'POST',
    path: '/api/v2/device-intake/{device_id}',
    summary: 'Report device telemetry',
    description:
      'Telemetry of one device, sent by the device (or its gateway) with `Authorization: Bearer <intake ' +
      'secret>` from a setup code. 202: the report is stored as a history point (kept ' +
      'FSM_TELEMETRY_RETENTION_DAYS, default 30 days) and its values update the current state, each only ' +
      'forward in recorded time: a report older than the current location is history only ' +
      '(`has_updated_current_state: false`). `recorded_at` defaults to the arrival; more than 5 minutes ahead is 422. ' +
      'Any credential failure (no or malformed header, wrong or rotated secret, unknown device, a first use ' +
      'after the setup code expired) is 401 with `WWW-Authenticate`; a deactivated device is 403 ' +
      'access-denied (data.reason resource_locked). With a valid secret, a deactivated workspace is 403 ' +
      '`tenant-disabled` (data.reason TENANT_INACTIVE) and a billing-locked one 402 `tenant-billing-locked` ' +
      '(data.reason BILLING_LOCKED), as for every workspace operation; nothing is stored. Every field is ' +
      'optional: `{}` is a keep-alive that moves only last_seen_at.',
    examples: {
      request: {
        recorded_at: '2026-06-11T07:42:10Z',
        location: { latitude: 52.5602, longitude: 13.2877 },
        connectivity: 'ONLINE',
        battery_level: 87,
      },
      response: {
        device_id: exampleDeviceId,
        received_at: '2026-06-11T07:42:12Z',
        has_updated_current_state: true,
      },
    },
    params: DeviceIdParams,
    body: DeviceTelemetrySchema,
    // 402 tenant-billing-locked; 403 (tenant-disabled too) comes with every device route.
    errors: [402],
    success: { status: 202, description: 'Stored.', schema: DeviceIntakeReceiptSchema },
  },
] as const satisfies readonly RouteSpec[];
