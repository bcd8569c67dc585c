/**
 * Telemetry intake: its own function (the hot path, authenticated by intake secrets rather than
 * user tokens). The kernel checks the credential before the body, then the domain stores it.
 */
import {
  acceptTelemetry,
  authenticateIntake,
  type IntakeCaller,
} from '../../shared/domain/devices/device-intake.service.ts';
import { header } from '../../shared/http/api-gateway.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { deviceIntakeRoutes } from '../../shared/routes/groups/device-intake.routes.ts';

export const handler = createGroupHandler(
  deviceIntakeRoutes,
  {
    'device_intake.report': async ({ body, device }) => ({
      body: await acceptTelemetry(device as IntakeCaller, body),
    }),
  },
  {
    authenticateDevice: (event) =>
      authenticateIntake(event.pathParameters?.device_id, header(event, 'authorization')),
  },
);
