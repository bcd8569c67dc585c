/** Devices: parse, call the domain, respond. */
import * as devices from '../../shared/domain/devices/device.service.ts';
import { listDevices } from '../../shared/domain/devices/device-list.ts';
import * as setup from '../../shared/domain/devices/device-setup.service.ts';
import { supportedKinds } from '../../shared/domain/devices/supported-kinds.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { deviceRoutes } from '../../shared/routes/groups/devices.routes.ts';

const withState = (include: readonly string[] | undefined) => include?.includes('current_state') ?? false;

export const handler = createGroupHandler(deviceRoutes, {
  'devices.list': async ({ ctx, query }) => ({ body: await listDevices(ctx, query) }),
  'devices.create': async ({ ctx, body }) => {
    const device = await devices.createDevice(ctx, body);
    return { body: device, location: `/api/v2/devices/${device.id}` };
  },
  'devices.get': async ({ ctx, params, query }) => ({
    body: await devices.getDevice(ctx, params.device_id, withState(query.include)),
  }),
  'devices.update': async ({ ctx, params, body }) => ({
    body: await devices.updateDevice(ctx, params.device_id, body),
  }),
  'devices.delete': async ({ ctx, params }) => {
    await devices.deleteDevice(ctx, params.device_id);
    return {};
  },
  'devices.activate': async ({ ctx, params }) => ({
    body: await devices.setProvisioningState(ctx, params.device_id, 'PROVISIONED'),
  }),
  'devices.deactivate': async ({ ctx, params }) => ({
    body: await devices.setProvisioningState(ctx, params.device_id, 'DISABLED'),
  }),
  'devices.supported_kinds': async () => ({ body: supportedKinds() }),
  'devices.current_states': async ({ ctx, query }) => ({
    body: await devices.getCurrentStates(ctx, query.device_ids),
  }),
  'devices.current_state': async ({ ctx, params }) => ({
    body: await devices.getCurrentState(ctx, params.device_id),
  }),
  'devices.setup_codes': async ({ ctx, params }) => ({
    body: await setup.issueSetupCode(ctx, params.device_id),
  }),
  'devices.setup_sms': async ({ ctx, params }) => ({
    body: await setup.sendSetupSms(ctx, params.device_id),
  }),
  'devices.rotate_intake_secret': async ({ ctx, params }) => {
    await setup.rotateIntakeSecret(ctx, params.device_id);
    return {};
  },
});
