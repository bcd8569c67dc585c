/**
 * Device: a technician's app installation, a third-party app or a tracking unit that reports
 * telemetry for the workspace (SPEC.md, Device). Dispatchers manage devices (devices:update);
 * every role that works in the workspace reads them (devices:read). The latest telemetry is
 * the device's current state (device-state.store.ts), embedded with `include=current_state`.
 * Published schema names: Device, CreateDevice, UpdateDevice, DeviceList, DeviceCurrentState,
 * DeviceCurrentStateList, EmbeddedDeviceState, DeviceSetupCode, DeviceSmsSetup; what a device
 * reports (DeviceTelemetry) is in device-telemetry.schema.ts.
 */
import * as z from 'zod';
import { dateTime, lockVersion, storedVersion, systemManaged, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { phoneNumber } from '../../schema/phone-number.ts';
import {
  booleanParam,
  numberParam,
  paginationQuery,
  searchParam,
  sortParam,
} from '../../schema/query-params.ts';
import { deviceKinds } from './device-kinds.ts';
import { DeviceLocationSchema } from './device-telemetry.schema.ts';

export { type DeviceKind, deviceKinds } from './device-kinds.ts';
export {
  DeviceIdParams,
  DeviceIntakeReceiptSchema,
  DeviceLocationSchema,
  type DeviceTelemetry,
  DeviceTelemetrySchema,
} from './device-telemetry.schema.ts';

export const devicePlatforms = ['UNKNOWN', 'IOS', 'ANDROID'] as const;
export const provisioningStates = ['PROVISIONED', 'DISABLED'] as const;
export type ProvisioningState = (typeof provisioningStates)[number];

/** Limits of SPEC.md (Limits, Devices). */
export const deviceLimits = {
  device_model: 128,
  device_identity_id: 255,
  connection_profile: 128,
  phone_number: 32,
  description: 2048,
} as const;

const kind = z.enum(deviceKinds).meta({
  description:
    'SERVICE_APP: the field-service app on a technician phone; THIRD_PARTY_APP: another app that reports ' +
    'through the intake; TRACKING_DEVICE: a GPS tracker.',
});
const platform = z.enum(devicePlatforms).meta({ description: 'Operating system: UNKNOWN, IOS or ANDROID.' });

export const EmbeddedDeviceStateSchema = z
  .object({
    last_received_at: z.iso.datetime().meta({ description: 'When the latest telemetry arrived.' }),
    location: DeviceLocationSchema.optional().meta({
      description: 'The newest location by its recorded_at; omitted until one is reported.',
    }),
    location_recorded_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the location was taken (the report’s recorded_at, or its arrival).' }),
    connectivity: z
      .string()
      .optional()
      .meta({ description: 'The newest connectivity reported, e.g. ONLINE.' }),
    battery_level: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .meta({ description: 'The newest battery level, %.' }),
  })
  .meta({
    id: 'EmbeddedDeviceState',
    description: 'The latest telemetry of a device, embedded with `include=current_state`.',
  });

export const DeviceSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the device.' }),
    natural_id: z.int().min(1).meta({
      description: 'Number assigned per workspace at creation (1, 2, …); never reused, gaps possible.',
    }),
    kind,
    device_model: z.string().optional().meta({ description: 'Human-readable model or tracker type.' }),
    device_identity_id: z.string().optional().meta({
      description: 'Stable identifier of the hardware or installation (IMEI, app id); once set, fixed.',
    }),
    connection_profile: z.string().optional().meta({
      description: 'Connection profile of tracking hardware (GET /api/v2/devices/supported-kinds).',
    }),
    provisioning_state: z.enum(provisioningStates).meta({
      description: 'PROVISIONED (usable; intake accepted) or DISABLED (deactivated; intake refused).',
    }),
    phone_number: z.string().optional().meta({ description: 'E.164; omitted when absent.' }),
    platform,
    description: z.string().optional().meta({ description: 'Operator notes.' }),
    vehicle_id: z
      .uuid()
      .optional()
      .meta({
        description:
          'The vehicle the device rides in (a tracker, a van’s tablet): its positions are the vehicle’s, and so the ' +
          'position of whoever drives that vehicle’s current shift. Omitted when none.',
      }),
    user_id: z.uuid().optional().meta({
      description:
        'The user the device belongs to (a technician’s phone): its positions are theirs. Omitted when none.',
    }),
    has_location: z.boolean().meta({
      description: 'true once the device reported a location through the intake (read only).',
    }),
    current_state: EmbeddedDeviceStateSchema.optional().meta({
      description:
        'Only with `include=current_state`: the latest telemetry; omitted when the device never reported.',
    }),
    created_at: z.iso.datetime().meta({ description: 'When the device was created.' }),
    updated_at: z.iso
      .datetime()
      .meta({ description: 'When the device was last edited (telemetry does not count).' }),
    lock_version: storedVersion().meta({ description: 'Starts at 0, one more with every edit.' }),
  })
  .meta({ id: 'Device', description: 'A device of the workspace.' });

export type Device = z.infer<typeof DeviceSchema>;
/** What the device item holds (the state is an item of its own). */
export type StoredDevice = Omit<Device, 'current_state'>;

const model = text({ max: deviceLimits.device_model });
const identity = text({ max: deviceLimits.device_identity_id });
const profile = text({ max: deviceLimits.connection_profile });
const notes = text({ max: deviceLimits.description });
const managedState = systemManaged(
  'PROVISIONED on creation; changed by the activate and deactivate actions.',
);
const managedNumber = systemManaged('Assigned by the service.');

export const CreateDeviceSchema = z
  .object({
    kind: kind.optional().meta({ description: 'Default SERVICE_APP.' }),
    device_model: model.optional().meta({ description: `Up to ${deviceLimits.device_model} characters.` }),
    device_identity_id: identity.optional().meta({
      description: `Up to ${deviceLimits.device_identity_id} characters; cannot change to another value later.`,
    }),
    connection_profile: profile
      .optional()
      .meta({ description: `Up to ${deviceLimits.connection_profile} characters.` }),
    phone_number: phoneNumber()
      .optional()
      .meta({ description: 'With + and the country code; stored as E.164 (national numbers are 422).' }),
    platform: platform.optional().meta({ description: 'Default UNKNOWN.' }),
    description: notes.optional().meta({ description: `Up to ${deviceLimits.description} characters.` }),
    vehicle_id: z
      .uuid()
      .optional()
      .meta({ description: 'A vehicle of the workspace (422 at `#/vehicle_id` otherwise).' }),
    user_id: z
      .uuid()
      .optional()
      .meta({ description: 'A user of the workspace (422 at `#/user_id` otherwise).' }),
    provisioning_state: managedState,
    natural_id: managedNumber,
  })
  .meta({
    id: 'CreateDevice',
    description: 'Every field is optional: an empty object creates a SERVICE_APP device.',
  });

export const UpdateDeviceSchema = z
  .object({
    kind: kind.optional().meta({ description: 'null is 422.' }),
    platform: platform.optional().meta({ description: 'null is 422.' }),
    device_model: model.nullable().optional().meta({ description: 'null clears it.' }),
    device_identity_id: identity
      .nullable()
      .optional()
      .meta({
        description:
          'Set once: sending another value than the stored one is 422; the stored value (or null while none ' +
          'is stored) is accepted.',
      }),
    connection_profile: profile.nullable().optional().meta({ description: 'null clears it.' }),
    phone_number: phoneNumber()
      .nullable()
      .optional()
      .meta({ description: 'E.164 after normalising; null clears it.' }),
    description: notes.nullable().optional().meta({ description: 'null clears it.' }),
    vehicle_id: z.uuid().nullable().optional().meta({
      description: 'A vehicle of the workspace (422 at `#/vehicle_id` otherwise); null clears it.',
    }),
    user_id: z.uuid().nullable().optional().meta({
      description: 'A user of the workspace (422 at `#/user_id` otherwise); null clears it.',
    }),
    provisioning_state: managedState,
    natural_id: managedNumber,
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateDevice',
    description:
      'JSON Merge Patch of a device: device_model, connection_profile, phone_number and description are ' +
      'cleared with null; kind and platform cannot be null; device_identity_id cannot change once set.',
  });

export const deviceSortFields = [
  'natural_id',
  'created_at',
  'updated_at',
  'device_model',
  'device_identity_id',
  'kind',
] as const;

export const deviceIncludes = ['current_state'] as const;
const include = z.array(z.enum(deviceIncludes)).optional().meta({
  description: 'Repeated; `current_state` embeds each device’s latest telemetry (`current_state`).',
});

export const DeviceReadQuery = z.object({ include });

export const DeviceListQuery = z.object({
  ...paginationQuery,
  sort: sortParam(deviceSortFields).meta({
    description:
      'Repeated `sort=<field>:<asc|desc>`. Fields: natural_id, created_at, updated_at, device_model (case and ' +
      'accents ignored, numbers by value; devices without a model last ascending), device_identity_id (the ' +
      'same), kind (SERVICE_APP, THIRD_PARTY_APP, TRACKING_DEVICE). Default natural_id:asc. Further keys order ' +
      'the ties of the first; remaining ties by id.',
  }),
  search: searchParam(
    'Words, each matching the start of a word (or of the whole value) of the model, the identity, the phone ' +
      'number (its digits, with or without +) or the first words of the description; case and accents ' +
      'ignored; every word must match.',
  ),
  model: z.string().min(1).max(deviceLimits.device_model).optional().meta({
    description: 'Only devices whose device_model contains this text (case and accents ignored).',
  }),
  kind: z.enum(deviceKinds).optional().meta({ description: 'Only devices of this kind.' }),
  has_location: booleanParam().optional().meta({
    description: 'true: only devices that reported a location; false: only those that never did.',
  }),
  updated_from: dateTime().optional().meta({ description: 'Inclusive lower bound of updated_at.' }),
  updated_to: dateTime().optional().meta({ description: 'Exclusive upper bound of updated_at.' }),
  min_lat: numberParam(-90, 90)
    .optional()
    .meta({
      type: 'number',
      minimum: -90,
      maximum: 90,
      description:
        'Bounding box on the latest location: min_lat, min_lon, max_lat and max_lon together (422 naming the ' +
        'missing ones otherwise); min_lat ≤ max_lat. min_lon > max_lon is a box crossing the antimeridian ' +
        '(from min_lon east to 180 and from -180 to max_lon). Edges included; devices without a location ' +
        'never match.',
    }),
  min_lon: numberParam(-180, 180).optional().meta({ type: 'number', minimum: -180, maximum: 180 }),
  max_lat: numberParam(-90, 90).optional().meta({ type: 'number', minimum: -90, maximum: 90 }),
  max_lon: numberParam(-180, 180).optional().meta({ type: 'number', minimum: -180, maximum: 180 }),
  include,
});
export type DeviceListQueryInput = z.output<typeof DeviceListQuery>;

export const DeviceListSchema = pagedListSchema(DeviceSchema, 'DeviceList');

export const DeviceCurrentStateSchema = z
  .object({
    device_id: z.uuid(),
    last_seen_at: z.iso.datetime().optional().meta({
      description: 'When telemetry last arrived; omitted while the device never reported.',
    }),
    status: z
      .object({
        connectivity: z
          .string()
          .optional()
          .meta({ description: 'e.g. ONLINE, OFFLINE; omitted until reported.' }),
        updated_at: z.iso
          .datetime()
          .optional()
          .meta({ description: 'When that connectivity was recorded; omitted until reported.' }),
      })
      .meta({ description: 'Connectivity as the device last reported it.' }),
    location: DeviceLocationSchema.optional().meta({
      description: 'The newest location; omitted until reported.',
    }),
    location_recorded_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the location was taken; omitted until reported.' }),
    battery_level: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .meta({ description: 'The newest battery level, %; omitted until reported.' }),
  })
  .meta({ id: 'DeviceCurrentState', description: 'The latest telemetry of one device.' });

export type DeviceCurrentState = z.infer<typeof DeviceCurrentStateSchema>;

export const DeviceCurrentStateListSchema = z
  .object({ items: z.array(DeviceCurrentStateSchema) })
  .meta({ id: 'DeviceCurrentStateList', description: 'Current states of the visible devices asked for.' });

/** Bulk reads name at most this many devices (SPEC.md, Limits). */
export const maxBulkDeviceIds = 100;

export const CurrentStatesQuery = z.object({
  device_ids: z
    .array(z.uuid())
    .min(1)
    .max(maxBulkDeviceIds)
    .meta({
      description: `Repeated (\`device_ids=<uuid>&device_ids=<uuid>\`), 1..${maxBulkDeviceIds}. Ids of other workspaces or of no device are left out of the answer.`,
    }),
});

export const setupCodeTypes = ['ENROLLMENT_LINK', 'INTAKE_URL', 'CONNECTION_PROFILE'] as const;

export const DeviceSetupCodeSchema = z
  .object({
    device_id: z.uuid(),
    type: z.enum(setupCodeTypes).meta({
      description:
        'ENROLLMENT_LINK (SERVICE_APP: a link the app opens), INTAKE_URL (THIRD_PARTY_APP: where and how to ' +
        'post telemetry), CONNECTION_PROFILE (TRACKING_DEVICE: server, port and protocol to configure).',
    }),
    expires_at: z.iso.datetime().meta({
      description: 'The intake secret in this payload must be used for the first time before then.',
    }),
    payload: z
      .object({
        qr_content: z.string().meta({ description: 'The text to render as a QR code.' }),
        enrollment_link: z.string().optional().meta({ description: 'SERVICE_APP: the link the app opens.' }),
        intake_url: z.string().meta({ description: 'POST telemetry here (absolute URL).' }),
        intake_secret: z.string().meta({ description: 'Send as `Authorization: Bearer <intake_secret>`.' }),
        connection_profile_url: z
          .string()
          .optional()
          .meta({ description: 'TRACKING_DEVICE: the connection profiles (supported kinds) endpoint.' }),
        server: z.string().optional().meta({ description: 'TRACKING_DEVICE: host to configure.' }),
        port: z.int().optional().meta({ description: 'TRACKING_DEVICE: port to configure.' }),
        protocol: z.string().optional().meta({ description: 'TRACKING_DEVICE: protocol to configure.' }),
      })
      .meta({ description: 'Secret-bearing: shown in this answer only, never in reads or logs.' }),
  })
  .meta({
    id: 'DeviceSetupCode',
    description:
      'A setup payload for QR rendering. Each request issues a new intake secret: the secret of every earlier ' +
      'setup code is refused from then on.',
  });

export const DeviceSmsSetupSchema = z
  .object({
    device_id: z.uuid(),
    sent_to: z
      .string()
      .meta({ description: 'The E.164 number the SMS went to (the device’s phone_number).' }),
    expires_at: z.iso.datetime().meta({ description: 'The enrollment link in the SMS works until then.' }),
  })
  .meta({ id: 'DeviceSmsSetup', description: 'An enrollment SMS handed over for delivery.' });
