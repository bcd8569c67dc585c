/** Maintenance plans: parse, call the domain, respond. */
import * as plans from '../../shared/domain/maintenance-plans/maintenance-plan.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { maintenancePlanRoutes } from '../../shared/routes/groups/maintenance-plans.routes.ts';

export const handler = createGroupHandler(maintenancePlanRoutes, {
  'maintenance-plans.list': async ({ ctx, query }) => ({
    body: await plans.listMaintenancePlans(ctx, query),
  }),
  'maintenance-plans.create': async ({ ctx, body }) => {
    const plan = await plans.createMaintenancePlan(ctx, body);
    return { body: plan, location: `/api/v2/maintenance-plans/${plan.id}` };
  },
  'maintenance-plans.get': async ({ ctx, params }) => ({
    body: await plans.getMaintenancePlan(ctx, params.maintenance_plan_id),
  }),
  'maintenance-plans.update': async ({ ctx, params, body }) => ({
    body: await plans.updateMaintenancePlan(ctx, params.maintenance_plan_id, body),
  }),
  'maintenance-plans.delete': async ({ ctx, params }) => {
    await plans.deleteMaintenancePlan(ctx, params.maintenance_plan_id);
    return {};
  },
});
