/**
 * Routes of the `devices` operation group (one Lambda): the device registry, its lifecycle,
 * setup, current states and the supported kinds (the telemetry intake is a group of its own:
 * device-intake.routes.ts). Everyone who works in the workspace reads devices (devices:read);
 * dispatchers, admins and owners manage and set them up (devices:update).
 */
import {
  CreateDeviceSchema,
  CurrentStatesQuery,
  DeviceCurrentStateListSchema,
  DeviceCurrentStateSchema,
  DeviceIdParams,
  DeviceListQuery,
  DeviceListSchema,
  DeviceReadQuery,
  DeviceSchema,
  DeviceSetupCodeSchema,
  DeviceSmsSetupSchema,
  UpdateDeviceSchema,
} from '../../domain/devices/device.schema.ts';
import { SupportedDeviceKindListSchema } from '../../domain/devices/supported-kinds.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';
import { exampleDeviceId as deviceId } from './device-intake.routes.ts';

const about =
  'A device of the workspace: the field-service app on a technician phone (SERVICE_APP), another app that ' +
  'reports telemetry (THIRD_PARTY_APP) or a GPS tracker (TRACKING_DEVICE). Telemetry arrives through ' +
  'POST /api/v2/device-intake/{device_id} with the intake secret of a setup code; its latest values are the ' +
  "device's current state, embedded with `include=current_state`.";

// Examples: a tracker in a Berlin van, set up last spring, reporting this morning.
const tracker = {
  id: deviceId,
  natural_id: 42,
  kind: 'TRACKING_DEVICE',
  device_model: 'Teltonika FMB920',
  device_identity_id: '356307042441013',
  connection_profile: 'teltonika',
  provisioning_state: 'PROVISIONED',
  phone_number: '+4915112345678',
  platform: 'UNKNOWN',
  description: 'Van 12, behind the dashboard',
  has_location: true,
  created_at: '2026-04-14T09:30:00Z',
  updated_at: '2026-05-02T16:05:41Z',
  lock_version: 3,
} as const;
const embedded = {
  last_received_at: '2026-06-11T07:42:12Z',
  location: { latitude: 52.5602, longitude: 13.2877 },
  location_recorded_at: '2026-06-11T07:42:10Z',
  connectivity: 'ONLINE',
  battery_level: 87,
} as const;
const currentState = {
  device_id: deviceId,
  last_seen_at: '2026-06-11T07:42:12Z',
  status: { connectivity: 'ONLINE', updated_at: '2026-06-11T07:42:10Z' },
  location: { latitude: 52.5602, longitude: 13.2877 },
  location_recorded_at: '2026-06-11T07:42:10Z',
  battery_level: 87,
} as const;
const secret = 'fsmi.019d2f40-0000-7000-8000-00000000a1b2.k7Qd9vX2mB4nR8tY1wE6uI3oP5aS0dF7gH2jK4lZ9xC';
const intakeUrl = `https://fsm.example.com/api/v2/device-intake/${deviceId}`;

const common = { group: 'devices', tags: ['Devices'], auth: 'bearer' } as const;
const idParams = DeviceIdParams;

function lifecycleRoute<const A extends 'activate' | 'deactivate'>(action: A) {
  return {
    ...common,
    grants: ['devices:update'],
    operationId: `devices.${action}` as `devices.${A}`,
    method: 'POST',
    path: `/api/v2/devices/{device_id}/${action}` as `/api/v2/devices/{device_id}/${A}`,
    summary: action === 'activate' ? 'Activate a device' : 'Deactivate a device',
    description:
      `${about}\n\n` +
      (action === 'activate'
        ? 'DISABLED → PROVISIONED: the device is usable again and its intake accepted.'
        : 'PROVISIONED → DISABLED: its intake is refused (403) from this answer on; its telemetry history and ' +
          'intake secret are kept, so activating it again needs no new setup.') +
      ' Already in that state: 200 with the device unchanged, no event. Otherwise a device.updated event.',
    examples: {
      response: { ...tracker, provisioning_state: action === 'activate' ? 'PROVISIONED' : 'DISABLED' },
    },
    params: idParams,
    success: { status: 200, description: 'The device.', schema: DeviceSchema },
  } as const;
}

export const deviceRoutes = [
  {
    ...common,
    grants: ['devices:read'],
    operationId: 'devices.supported_kinds',
    method: 'GET',
    path: '/api/v2/devices/supported-kinds',
    summary: 'List supported device kinds',
    description:
      `${about}\n\n` +
      'The kinds a device can have and, per kind, the connection profiles the service supports: what a ' +
      'tracker is configured with (server, port, protocol) and which hardware is known to work. From the ' +
      "service's configuration (FSM_DEVICE_KINDS_FILE replaces the built-in catalog).",
    examples: {
      response: {
        items: [
          {
            kind: 'TRACKING_DEVICE',
            connection_profiles: [
              {
                id: 'teltonika',
                label: 'Teltonika (Codec 8)',
                protocol: 'teltonika',
                identity_label: 'IMEI',
                identity_required: true,
                setup: { server: 'fsm.example.com', port: 5027, protocol: 'tcp' },
                compatible_devices: ['Teltonika FMB920', 'Teltonika FMC130'],
              },
            ],
          },
        ],
      },
    },
    success: { status: 200, description: 'The supported kinds.', schema: SupportedDeviceKindListSchema },
  },
  {
    ...common,
    grants: ['devices:read'],
    operationId: 'devices.current_states',
    method: 'GET',
    path: '/api/v2/devices/current-states',
    summary: 'Get current states in bulk',
    description:
      `${about}\n\n` +
      'The current states of up to 100 devices, in the order asked. Ids of devices that are not in the ' +
      "caller's workspace (another workspace's, deleted, never existing) are left out silently, so the " +
      'answer never tells whether such an id exists. A device that never reported is present with nulls.',
    examples: { query: `device_ids=${deviceId}`, response: { items: [currentState] } },
    query: CurrentStatesQuery,
    success: {
      status: 200,
      description: 'The states of the visible devices.',
      schema: DeviceCurrentStateListSchema,
    },
  },
  ...crudRoutes({
    group: 'devices',
    collection: '/api/v2/devices',
    idParam: 'device_id',
    singular: 'device',
    plural: 'devices',
    tag: 'Devices',
    readGrants: ['devices:read'],
    writeGrants: ['devices:update'],
    schemas: {
      listQuery: DeviceListQuery,
      idParams,
      getQuery: DeviceReadQuery,
      item: DeviceSchema,
      list: DeviceListSchema,
      create: CreateDeviceSchema,
      update: UpdateDeviceSchema,
    },
    docs: {
      about,
      list:
        'Default order: `natural_id` ascending. `kind`, `model` (a case-insensitive substring of device_model), ' +
        '`has_location`, `updated_from`/`updated_to`, `search` and the bounding box (`min_lat`, `min_lon`, ' +
        '`max_lat`, `max_lon`: all four or 422 naming the missing ones; min_lat ≤ max_lat; min_lon > max_lon ' +
        'crosses the antimeridian) combine with AND. The box filters on the latest location. ' +
        '`include=current_state` embeds each device’s latest telemetry.',
      create:
        'Every field is optional. `kind` defaults to SERVICE_APP and `platform` to UNKNOWN; the device starts ' +
        'PROVISIONED with the next `natural_id` of the workspace (never reused). `phone_number` needs + and the ' +
        'country code and is stored as E.164. `provisioning_state` and `natural_id` are system-managed: sending ' +
        'them is 422. No intake secret exists until a setup code is issued. A device.created event records it.',
      update:
        '`device_model`, `connection_profile`, `phone_number` and `description` are cleared with null; `kind` and ' +
        '`platform` cannot be null (422). `device_identity_id` can be set once: another value afterwards (or null) ' +
        'is 422, the stored value is accepted. `provisioning_state` changes only through activate/deactivate ' +
        '(sending it is 422). Emits device.updated with the previous values of the changed fields.',
      delete:
        'The device, its current state and its intake secret are gone at once (intake is refused from then on); ' +
        'its telemetry history is deleted in batches right after the answer (a long history takes a few ' +
        'seconds per 5,000 points, with no time limit). A device.deleted event records it.',
    },
    examples: {
      item: { ...tracker, current_state: embedded },
      create: {
        kind: 'TRACKING_DEVICE',
        device_model: 'Teltonika FMB920',
        device_identity_id: '356307042441013',
        connection_profile: 'teltonika',
        phone_number: '+49 151 12345678',
        description: 'Van 12, behind the dashboard',
      },
      created: {
        ...tracker,
        has_location: false,
        updated_at: tracker.created_at,
        lock_version: 0,
      },
      update: { description: 'Van 12, glovebox', lock_version: 3 },
    },
  }),
  lifecycleRoute('activate'),
  lifecycleRoute('deactivate'),
  {
    ...common,
    grants: ['devices:update'],
    operationId: 'devices.setup_codes',
    method: 'POST',
    path: '/api/v2/devices/{device_id}/setup-codes',
    summary: 'Issue a device setup code',
    description:
      `${about}\n\n` +
      'A setup payload to render as a QR code: for SERVICE_APP an enrollment link the app opens, for ' +
      'THIRD_PARTY_APP the intake URL with its secret, for TRACKING_DEVICE the connection-profile endpoint with ' +
      'the server, port and protocol of its profile (its `connection_profile`, else the kind’s first). Every ' +
      'payload carries `intake_url` and `intake_secret`.\n\n' +
      'Each request issues a new intake secret and every earlier secret of the device is refused from then on ' +
      '(the secret is stored as a hash only, so it can be shown once: here). The new secret must be used for ' +
      'the first time before `expires_at` (24 hours); once used, it stays valid until the next setup code or ' +
      'rotation. The payload is never part of device reads, events or logs.',
    examples: {
      response: {
        device_id: deviceId,
        type: 'CONNECTION_PROFILE',
        expires_at: '2026-06-12T07:40:00Z',
        payload: {
          qr_content: JSON.stringify({ intake_url: intakeUrl, intake_secret: secret }),
          intake_url: intakeUrl,
          intake_secret: secret,
          connection_profile_url: 'https://fsm.example.com/api/v2/devices/supported-kinds',
          server: 'fsm.example.com',
          port: 5027,
          protocol: 'tcp',
        },
      },
    },
    params: idParams,
    success: { status: 200, description: 'The setup code (shown once).', schema: DeviceSetupCodeSchema },
  },
  {
    ...common,
    grants: ['devices:update'],
    operationId: 'devices.setup_sms',
    method: 'POST',
    path: '/api/v2/devices/{device_id}/setup-sms',
    summary: 'Send a device setup SMS',
    description:
      `${about}\n\n` +
      'SERVICE_APP devices only (any other kind is 422 at `#/kind`), to the device’s `phone_number` (none is ' +
      '422 at `#/phone_number`). The SMS carries an enrollment link with a new intake secret, which refuses every ' +
      'earlier one; the link is in the SMS only, never in this answer. 202: the SMS was handed over for ' +
      'delivery (Amazon SNS on AWS; a file under DATA_DIR/sms locally). 503 when the SMS service cannot take it.',
    examples: {
      response: { device_id: deviceId, sent_to: '+4915112345678', expires_at: '2026-06-12T07:40:00Z' },
    },
    params: idParams,
    errors: [503],
    success: { status: 202, description: 'The SMS is on its way.', schema: DeviceSmsSetupSchema },
  },
  {
    ...common,
    grants: ['devices:update'],
    operationId: 'devices.rotate_intake_secret',
    method: 'POST',
    path: '/api/v2/devices/{device_id}/rotate-intake-secret',
    summary: "Rotate a device's intake secret",
    description:
      `${about}\n\n` +
      'The current intake secret is refused from this answer on (a leaked secret, a device handed on). The ' +
      'device gets its new configuration from a new setup code. No body.',
    examples: {},
    params: idParams,
    success: { status: 204, description: 'Rotated.' },
  },
  {
    ...common,
    grants: ['devices:read'],
    operationId: 'devices.current_state',
    method: 'GET',
    path: '/api/v2/devices/{device_id}/current-state',
    summary: 'Get a device’s current state',
    description:
      `${about}\n\n` +
      'The latest telemetry: when it last arrived (`last_seen_at`), connectivity, location and battery, each ' +
      'the newest by the time it was recorded. Nulls for a device that never reported.',
    examples: { response: currentState },
    params: idParams,
    success: { status: 200, description: 'The current state.', schema: DeviceCurrentStateSchema },
  },
] as const satisfies readonly RouteSpec[];
