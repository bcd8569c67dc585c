/**
 * The supported device kinds: for each kind (SERVICE_APP, THIRD_PARTY_APP, TRACKING_DEVICE)
 * the connection profiles a device of that kind can use, with what to configure on the device
 * (server, port, protocol) and which hardware or apps are known to work. Served by
 * GET /api/v2/devices/supported-kinds, named by a device's `connection_profile`, and the
 * tracker kind's setup payload. Published schema names: SupportedDeviceKindList, SupportedDeviceKind,
 * DeviceConnectionProfile.
 *
 * Configuration, not data: a built-in catalog (the API's own origin for the apps, Traccar's
 * well-known default ports for the trackers), replaced whole by the JSON file that
 * FSM_DEVICE_KINDS_FILE names, for a deployment whose tracker gateway listens elsewhere or
 * speaks other protocols. The file is checked at first use and a bad one throws, so a
 * misconfiguration fails loudly instead of advertising wrong ports to installers.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { config } from '../../config.ts';

/** The device kinds of the Device resource (SPEC.md), in catalog order. */
export const supportedDeviceKindNames = ['SERVICE_APP', 'THIRD_PARTY_APP', 'TRACKING_DEVICE'] as const;
export type SupportedDeviceKind = (typeof supportedDeviceKindNames)[number];

const ConnectionSetupSchema = z
  .object({
    server: z.string().min(1).meta({ description: 'Host name or address the device connects to.' }),
    port: z.int().min(1).max(65_535).meta({ description: 'Port the device connects to.' }),
    protocol: z
      .string()
      .min(1)
      .meta({ description: 'Transport or scheme to configure on the device, e.g. https, http or tcp.' }),
  })
  .meta({ description: 'What to configure on the device so that it reaches the service.' });

export const ConnectionProfileSchema = z
  .object({
    id: z.string().min(1).max(128).meta({
      description:
        'Identifier of the profile, unique within its kind; the value of a device’s connection_profile.',
    }),
    label: z.string().min(1).meta({ description: 'Human-readable name of the profile.' }),
    protocol: z
      .string()
      .min(1)
      .meta({ description: 'The protocol the device speaks, e.g. https, osmand, teltonika or gt06.' }),
    identity_label: z
      .string()
      .min(1)
      .meta({ description: 'What the device’s device_identity_id is called on the device, e.g. IMEI.' }),
    identity_required: z
      .boolean()
      .meta({ description: 'Whether device_identity_id must be set before the device can report.' }),
    setup: ConnectionSetupSchema,
    compatible_devices: z
      .array(z.string())
      .meta({ description: 'Hardware or apps known to work with the profile; may be empty.' }),
  })
  .meta({
    id: 'DeviceConnectionProfile',
    description: 'One way a device of a kind connects to the service.',
  });

const SupportedKindSchema = z
  .object({
    kind: z.enum(supportedDeviceKindNames).meta({ description: 'The device kind.' }),
    connection_profiles: z
      .array(ConnectionProfileSchema)
      .meta({ description: 'The connection profiles of the kind; the first is the default.' }),
  })
  .check((ctx) => {
    const ids = ctx.value.connection_profiles.map((profile) => profile.id);
    const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
    if (duplicate !== undefined) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['connection_profiles'],
        message: `lists the profile id ${duplicate} twice`,
      });
    }
  })
  .meta({ id: 'SupportedDeviceKind', description: 'A supported device kind and its connection profiles.' });

export const SupportedDeviceKindListSchema = z
  .object({
    items: z.array(SupportedKindSchema).meta({ description: 'The supported kinds, each at most once.' }),
  })
  .check((ctx) => {
    const kinds = ctx.value.items.map((item) => item.kind);
    const duplicate = kinds.find((kind, index) => kinds.indexOf(kind) !== index);
    if (duplicate !== undefined) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['items'],
        message: `lists ${duplicate} twice`,
      });
    }
  })
  .meta({
    id: 'SupportedDeviceKindList',
    description: 'The device kinds this service supports and how devices of each kind connect.',
  });

export type ConnectionProfile = z.infer<typeof ConnectionProfileSchema>;
export type ConnectionSetup = ConnectionProfile['setup'];
export type SupportedDeviceKindList = z.infer<typeof SupportedDeviceKindListSchema>;

let cached: SupportedDeviceKindList | undefined;

/** The catalog in force: FSM_DEVICE_KINDS_FILE when set, the built-in one otherwise. Read-only. */
export function supportedKinds(): SupportedDeviceKindList {
  cached ??= deepFreeze(
    process.env.FSM_DEVICE_KINDS_FILE ? fromFile(process.env.FSM_DEVICE_KINDS_FILE) : builtIn(),
  );
  return cached;
}

/** Forget the catalog so the next call reads the configuration again (tests). */
export function resetSupportedKinds(): void {
  cached = undefined;
}

/** The profile a device's `connection_profile` names, if its kind has one of that id. */
export function connectionProfileOf(
  kind: SupportedDeviceKind,
  profileId: string,
): ConnectionProfile | undefined {
  return profilesOf(kind).find((profile) => profile.id === profileId);
}

/** The default (first) profile's setup of a kind; undefined when the catalog offers the kind none. */
export function setupFor(kind: SupportedDeviceKind): ConnectionSetup | undefined {
  return profilesOf(kind)[0]?.setup;
}

function profilesOf(kind: SupportedDeviceKind): ConnectionProfile[] {
  return supportedKinds().items.find((item) => item.kind === kind)?.connection_profiles ?? [];
}

function fromFile(file: string): SupportedDeviceKindList {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new Error(`FSM_DEVICE_KINDS_FILE ${file} cannot be read as JSON: ${String(cause)}`, { cause });
  }
  const parsed = SupportedDeviceKindListSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    throw new Error(`FSM_DEVICE_KINDS_FILE ${file} is not a valid catalog: ${where}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * The built-in catalog. The apps talk to the API's own origin; trackers to FSM_TRACKER_HOST
 * (their gateway, often a separate load balancer) or else the API's host, on the ports Traccar
 * uses by default for each protocol, which the trackers' own configuration tools expect.
 */
function builtIn(): SupportedDeviceKindList {
  const api = new URL(config().baseUrl);
  const scheme = api.protocol.replace(/:$/, '');
  // On AWS the origin is https without a port; locally it is plain http on PORT.
  const apiSetup = {
    server: api.hostname,
    port: api.port ? Number(api.port) : scheme === 'http' ? 80 : 443,
    protocol: scheme,
  };
  const trackerHost = process.env.FSM_TRACKER_HOST || api.hostname;
  return {
    items: [
      {
        kind: 'SERVICE_APP',
        connection_profiles: [
          {
            id: 'fsm-app',
            label: 'Field service app',
            protocol: 'https',
            identity_label: 'App installation id',
            identity_required: false,
            setup: apiSetup,
            compatible_devices: ['iOS 16+', 'Android 10+'],
          },
        ],
      },
      {
        kind: 'THIRD_PARTY_APP',
        connection_profiles: [
          {
            id: 'http-intake',
            label: 'HTTPS telemetry intake',
            protocol: 'https',
            identity_label: 'Device id',
            identity_required: false,
            setup: apiSetup,
            compatible_devices: [],
          },
        ],
      },
      {
        kind: 'TRACKING_DEVICE',
        connection_profiles: [
          {
            id: 'osmand',
            label: 'OsmAnd protocol over HTTP',
            protocol: 'osmand',
            identity_label: 'Device identifier',
            identity_required: true,
            setup: { server: trackerHost, port: 5055, protocol: 'http' },
            compatible_devices: ['Traccar Client', 'OsmAnd'],
          },
          {
            id: 'teltonika',
            label: 'Teltonika codec over TCP',
            protocol: 'teltonika',
            identity_label: 'IMEI',
            identity_required: true,
            setup: { server: trackerHost, port: 5027, protocol: 'tcp' },
            compatible_devices: ['Teltonika FMB920', 'Teltonika FMC130'],
          },
          {
            id: 'gt06',
            label: 'GT06 protocol over TCP',
            protocol: 'gt06',
            identity_label: 'IMEI',
            identity_required: true,
            setup: { server: trackerHost, port: 5023, protocol: 'tcp' },
            // Not Coban's GPS103: it speaks its own text protocol (Traccar's gps103, port 5001).
            compatible_devices: ['Concox GT06N', 'Concox TR06'],
          },
        ],
      },
    ],
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
