/**
 * Telemetry intake: its own function (the hot path, authenticated by intake secrets rather than
 * user tokens). The kernel checks the credential before the body, then the domain stores it.
 * Every report is counted, accepted or refused (TelemetryReports, shared/observability/).
 */
import {
  acceptTelemetry,
  authenticateIntake,
  type IntakeCaller,
} from '../../shared/domain/devices/device-intake.service.ts';
import { header } from '../../shared/http/api-gateway.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { recordTelemetryReport } from '../../shared/observability/metrics.ts';
import { deviceIntakeRoutes } from '../../shared/routes/groups/device-intake.routes.ts';

const kernel = createGroupHandler(
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

/** The kernel, and each report counted as accepted (2xx) or refused (any other answer). */
export const handler: typeof kernel = async (event, context) => {
  const result = await kernel(event, context);
  recordTelemetryReport(result.statusCode < 300 ? 'accepted' : 'refused');
  return result;
};
