import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../config.ts';
import {
  connectionProfileOf,
  resetSupportedKinds,
  SupportedDeviceKindListSchema,
  setupFor,
  supportedKinds,
} from './supported-kinds.ts';

const variables = ['FSM_DEVICE_KINDS_FILE', 'FSM_TRACKER_HOST', 'FSM_BASE_URL'] as const;
const saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fsm-device-kinds-'));
  for (const name of variables) delete process.env[name];
  process.env.FSM_BASE_URL = 'https://api.fsm.example';
  resetConfig();
  resetSupportedKinds();
});

afterEach(async () => {
  for (const name of variables) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetConfig();
  resetSupportedKinds();
  await rm(dir, { recursive: true, force: true });
});

const customCatalog = {
  items: [
    {
      kind: 'TRACKING_DEVICE',
      connection_profiles: [
        {
          id: 'h02',
          label: 'H02 over TCP',
          protocol: 'h02',
          identity_label: 'IMEI',
          identity_required: true,
          setup: { server: 'gps.acme.example', port: 5013, protocol: 'tcp' },
          compatible_devices: ['Sinotrack ST-901'],
        },
      ],
    },
  ],
};

describe('Function: supportedKinds (built-in catalog)', () => {
  it('lists the three device kinds and validates against the published schema', () => {
    // Act
    const catalog = supportedKinds();

    // Assess
    expect(SupportedDeviceKindListSchema.safeParse(catalog).success).toBe(true);
    expect(catalog.items.map((item) => item.kind)).toEqual([
      'SERVICE_APP',
      'THIRD_PARTY_APP',
      'TRACKING_DEVICE',
    ]);
    expect(catalog.items[2]?.connection_profiles.map((profile) => profile.id)).toEqual([
      'osmand',
      'teltonika',
      'gt06',
    ]);
  });

  it('points the apps at the API origin and the trackers at their default ports', () => {
    // Act & Assess
    expect(setupFor('SERVICE_APP')).toEqual({ server: 'api.fsm.example', port: 443, protocol: 'https' });
    expect(connectionProfileOf('THIRD_PARTY_APP', 'http-intake')?.setup).toEqual(setupFor('SERVICE_APP'));
    expect(setupFor('TRACKING_DEVICE')).toEqual({ server: 'api.fsm.example', port: 5055, protocol: 'http' });
    expect(connectionProfileOf('TRACKING_DEVICE', 'teltonika')).toMatchObject({
      identity_label: 'IMEI',
      identity_required: true,
      setup: { port: 5027, protocol: 'tcp' },
    });
    expect(connectionProfileOf('TRACKING_DEVICE', 'gt06')?.setup.port).toBe(5023);
  });

  it('uses the local API port and scheme when the API runs locally', () => {
    // Prepare
    process.env.FSM_BASE_URL = 'http://127.0.0.1:3000';
    resetConfig();

    // Act & Assess
    expect(setupFor('SERVICE_APP')).toEqual({ server: '127.0.0.1', port: 3000, protocol: 'http' });
  });

  it('sends trackers to FSM_TRACKER_HOST when set', () => {
    // Prepare
    process.env.FSM_TRACKER_HOST = 'trackers.fsm.example';

    // Act & Assess
    expect(setupFor('TRACKING_DEVICE')?.server).toBe('trackers.fsm.example');
    expect(setupFor('SERVICE_APP')?.server).toBe('api.fsm.example');
  });

  it('finds no profile for an unknown id or a profile of another kind', () => {
    // Act & Assess
    expect(connectionProfileOf('TRACKING_DEVICE', 'nope')).toBeUndefined();
    expect(connectionProfileOf('SERVICE_APP', 'teltonika')).toBeUndefined();
  });

  it('cannot be changed by a caller', () => {
    // Act
    const change = () => {
      (supportedKinds().items as unknown[]).push({});
    };

    // Assess
    expect(change).toThrow(TypeError);
  });
});

describe('Function: supportedKinds (FSM_DEVICE_KINDS_FILE)', () => {
  it('replaces the built-in catalog with the file', async () => {
    // Prepare
    const file = join(dir, 'kinds.json');
    await writeFile(file, JSON.stringify(customCatalog));
    process.env.FSM_DEVICE_KINDS_FILE = file;

    // Act
    const catalog = supportedKinds();

    // Assess
    expect(catalog).toEqual(customCatalog);
    expect(setupFor('TRACKING_DEVICE')).toEqual({ server: 'gps.acme.example', port: 5013, protocol: 'tcp' });
    expect(setupFor('SERVICE_APP')).toBeUndefined();
    expect(connectionProfileOf('TRACKING_DEVICE', 'osmand')).toBeUndefined();
  });

  it('refuses an invalid file loudly, naming the file and the first issue', async () => {
    // Prepare
    const file = join(dir, 'kinds.json');
    const broken = structuredClone(customCatalog);
    (broken.items[0]?.connection_profiles[0]?.setup as { port: unknown }).port = '5013';
    await writeFile(file, JSON.stringify(broken));
    process.env.FSM_DEVICE_KINDS_FILE = file;

    // Act & Assess
    expect(() => supportedKinds()).toThrow(file);
    expect(() => supportedKinds()).toThrow(/items\.0\.connection_profiles\.0\.setup\.port/);
  });

  it('refuses a file listing a kind twice', async () => {
    // Prepare
    const file = join(dir, 'kinds.json');
    await writeFile(file, JSON.stringify({ items: [customCatalog.items[0], customCatalog.items[0]] }));
    process.env.FSM_DEVICE_KINDS_FILE = file;

    // Act & Assess
    expect(() => supportedKinds()).toThrow(/lists TRACKING_DEVICE twice/);
  });

  it('refuses a file that is missing or not JSON', async () => {
    // Prepare
    const file = join(dir, 'kinds.json');
    await writeFile(file, '{ items: ');
    process.env.FSM_DEVICE_KINDS_FILE = file;

    // Act & Assess
    expect(() => supportedKinds()).toThrow(`FSM_DEVICE_KINDS_FILE ${file} cannot be read as JSON`);
    process.env.FSM_DEVICE_KINDS_FILE = join(dir, 'missing.json');
    expect(() => supportedKinds()).toThrow(/missing\.json cannot be read/);
  });
});
