/** Areas: parse, call the domain, respond. */
import * as areas from '../../shared/domain/areas/area.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { areaRoutes } from '../../shared/routes/groups/areas.routes.ts';

export const handler = createGroupHandler(areaRoutes, {
  'areas.list': async ({ ctx, query }) => ({ body: await areas.listAreas(ctx, query) }),
  'areas.create': async ({ ctx, body }) => {
    const area = await areas.createArea(ctx, body);
    return { body: area, location: `/api/v2/areas/${area.id}` };
  },
  'areas.get': async ({ ctx, params }) => ({ body: await areas.getArea(ctx, params.area_id) }),
  'areas.update': async ({ ctx, params, body }) => ({
    body: await areas.updateArea(ctx, params.area_id, body),
  }),
  'areas.delete': async ({ ctx, params }) => {
    await areas.deleteArea(ctx, params.area_id);
    return {};
  },
});
