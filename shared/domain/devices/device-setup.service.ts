/**
 * Setting devices up: setup codes (a payload for a QR code), the setup SMS of app devices, and
 * rotating the intake secret.
 *
 * Secrets are stored as hashes only (device-state.store.ts), so a secret can be shown once: each
 * setup code (and each setup SMS) issues a new intake secret, and from then on every earlier one
 * is refused. That is the "rotating enrollment link": the QR shown last is the one that works.
 * Rotating issues a secret nobody sees, which refuses the current one at once; the device gets
 * its new configuration from a new setup code. A new secret must be used for the first time
 * within 24 hours (the code's expires_at); once used it stays valid until replaced.
 *
 * Payloads hold secrets: they are in this answer (or the SMS) only, never in device reads, events
 * or logs.
 */

import type { Actor } from '../../auth/actor.ts';
import { config } from '../../config.ts';
import { smsSender } from '../../sms/sms-sender.ts';
import type { DeviceKind, StoredDevice } from './device.schema.ts';
import { deviceStore } from './device.store.ts';
import { DeviceError } from './device-error.ts';
import { deviceStateStore, hashSecret, newIntakeSecret } from './device-state.store.ts';
import { connectionProfileOf, setupFor } from './supported-kinds.ts';

/** How long a new secret may wait for its first use. */
export const setupCodeLifetimeMs = 24 * 3600_000;

const setupTypes: Record<DeviceKind, 'ENROLLMENT_LINK' | 'INTAKE_URL' | 'CONNECTION_PROFILE'> = {
  SERVICE_APP: 'ENROLLMENT_LINK',
  THIRD_PARTY_APP: 'INTAKE_URL',
  TRACKING_DEVICE: 'CONNECTION_PROFILE',
};

async function existing(ctx: Actor, id: string): Promise<StoredDevice> {
  const device = await deviceStore.of(ctx).get(id);
  if (!device) throw new DeviceError('not-found');
  return device;
}

/** A new secret for the device, stored as its hash; every earlier secret is refused from now on. */
async function issueSecret(
  workspaceId: string,
  deviceId: string,
): Promise<{ secret: string; expiresAt: string }> {
  const secret = newIntakeSecret(workspaceId);
  const expiresAt = new Date(Date.now() + setupCodeLifetimeMs).toISOString();
  await deviceStateStore.of(workspaceId).storeSecret(deviceId, hashSecret(secret), expiresAt);
  return { secret, expiresAt };
}

export const intakeUrlOf = (deviceId: string) => `${config().baseUrl}/api/v2/device-intake/${deviceId}`;

/**
 * The link an app device opens (the app claims the URL as a universal / app link). The secret
 * is in the fragment, which browsers and proxies never send to a server or write to a log.
 */
export function enrollmentLinkOf(deviceId: string, secret: string): string {
  return `${config().baseUrl}/enroll?device_id=${deviceId}#secret=${encodeURIComponent(secret)}`;
}

export async function issueSetupCode(ctx: Actor, id: string) {
  const device = await existing(ctx, id);
  const { secret, expiresAt } = await issueSecret(ctx.workspaceId, device.id);
  const intake = { intake_url: intakeUrlOf(device.id), intake_secret: secret };
  const type = setupTypes[device.kind];
  if (type === 'ENROLLMENT_LINK') {
    const link = enrollmentLinkOf(device.id, secret);
    return {
      device_id: device.id,
      type,
      expires_at: expiresAt,
      payload: { qr_content: link, enrollment_link: link, ...intake },
    };
  }
  if (type === 'INTAKE_URL') {
    return {
      device_id: device.id,
      type,
      expires_at: expiresAt,
      payload: { qr_content: JSON.stringify(intake), ...intake },
    };
  }
  const profile =
    (device.connection_profile
      ? connectionProfileOf(device.kind, device.connection_profile)?.setup
      : undefined) ?? setupFor(device.kind);
  const tracker = {
    connection_profile_url: `${config().baseUrl}/api/v2/devices/supported-kinds`,
    ...(profile ? { server: profile.server, port: profile.port, protocol: profile.protocol } : {}),
  };
  return {
    device_id: device.id,
    type,
    expires_at: expiresAt,
    payload: { qr_content: JSON.stringify({ ...tracker, ...intake }), ...intake, ...tracker },
  };
}

/** SERVICE_APP devices only, to their phone_number: the enrollment link goes into the SMS alone. */
export async function sendSetupSms(ctx: Actor, id: string) {
  const device = await existing(ctx, id);
  if (device.kind !== 'SERVICE_APP') {
    throw new DeviceError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/kind',
          detail: `is ${device.kind}: setup SMS are for SERVICE_APP devices only; use setup codes for this kind`,
        },
      ],
    });
  }
  if (!device.phone_number) {
    throw new DeviceError('invalid', {
      fields: [
        {
          type: 'field-required',
          pointer: '#/phone_number',
          detail: 'the device has no phone_number to send the SMS to; set it with PATCH first',
        },
      ],
    });
  }
  const { secret, expiresAt } = await issueSecret(ctx.workspaceId, device.id);
  await smsSender().send({
    to: device.phone_number,
    text: `Set up the field service app on this phone: ${enrollmentLinkOf(device.id, secret)} (valid for 24 hours)`,
  });
  return { device_id: device.id, sent_to: device.phone_number, expires_at: expiresAt };
}

/** A new secret nobody is shown: the current one is refused at once. */
export async function rotateIntakeSecret(ctx: Actor, id: string): Promise<void> {
  const device = await existing(ctx, id);
  await issueSecret(ctx.workspaceId, device.id);
}
