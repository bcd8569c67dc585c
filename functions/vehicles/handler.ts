/** Vehicles: parse, call the domain, respond. */
import * as vehicles from '../../shared/domain/vehicles/vehicle.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { vehicleRoutes } from '../../shared/routes/groups/vehicles.routes.ts';

export const handler = createGroupHandler(vehicleRoutes, {
  'vehicles.list': async ({ ctx, query }) => ({ body: await vehicles.listVehicles(ctx, query) }),
  'vehicles.create': async ({ ctx, body }) => {
    const vehicle = await vehicles.createVehicle(ctx, body);
    return { body: vehicle, location: `/api/v2/vehicles/${vehicle.id}` };
  },
  'vehicles.get': async ({ ctx, params }) => ({ body: await vehicles.getVehicle(ctx, params.vehicle_id) }),
  'vehicles.update': async ({ ctx, params, body }) => ({
    body: await vehicles.updateVehicle(ctx, params.vehicle_id, body),
  }),
  'vehicles.delete': async ({ ctx, params }) => {
    await vehicles.deleteVehicle(ctx, params.vehicle_id);
    return {};
  },
  'vehicles.location.replace': async ({ ctx, params, body }) => ({
    body: await vehicles.reportLocation(ctx, params.vehicle_id, body),
  }),
});
