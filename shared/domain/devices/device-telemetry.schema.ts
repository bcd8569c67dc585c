/**
 * What a device reports through the intake (POST /api/v2/device-intake/{device_id}) and the
 * answer it gets. Apart from device.schema.ts so that the intake function, the hot path, does
 * not build the device registry's schemas nor load libphonenumber for their phone numbers.
 * Published schema names: DeviceLocation, CreateDeviceTelemetry, DeviceIntakeReceipt.
 */
import * as z from 'zod';
import { dateTime, latitude, longitude, text } from '../../schema/fields.ts';

export const DeviceLocationSchema = z
  .object({ latitude: latitude(), longitude: longitude() })
  .meta({ id: 'DeviceLocation', description: 'A WGS 84 position.' });

export const DeviceIdParams = z.object({
  device_id: z.uuid().meta({ description: 'Identifier of the device.' }),
});

export const DeviceTelemetrySchema = z
  .object({
    recorded_at: dateTime()
      .optional()
      .meta({
        description:
          'When the values were taken (RFC 3339); default: arrival. More than 5 minutes ahead of the service ' +
          'clock is 422. An older location than the current one is kept as history only.',
      }),
    location: DeviceLocationSchema.optional(),
    connectivity: text({ max: 32 }).optional().meta({ description: 'e.g. ONLINE, OFFLINE, WIFI, LTE.' }),
    battery_level: z.number().min(0).max(100).optional().meta({ description: 'Battery level in %, 0..100.' }),
  })
  .meta({ id: 'CreateDeviceTelemetry', description: 'One telemetry report of a device.' });

export type DeviceTelemetry = z.output<typeof DeviceTelemetrySchema>;

export const DeviceIntakeReceiptSchema = z
  .object({
    device_id: z.uuid(),
    received_at: z.iso.datetime().meta({ description: 'When the service took the report.' }),
    has_updated_current_state: z.boolean().meta({
      description: 'false when the report was older than the current state (kept as history only).',
    }),
  })
  .meta({ id: 'DeviceIntakeReceipt', description: 'The report is stored.' });
