/** Tours: parse, call the domain, respond. */
import * as tours from '../../shared/domain/tours/tour.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { tourRoutes } from '../../shared/routes/groups/tours.routes.ts';

export const handler = createGroupHandler(tourRoutes, {
  'tours.list': async ({ ctx, query }) => ({ body: await tours.listTours(ctx, query) }),
  'tours.create': async ({ ctx, body }) => {
    const tour = await tours.createTour(ctx, body);
    return { body: tour, location: `/api/v2/tours/${tour.id}` };
  },
  'tours.get': async ({ ctx, params }) => ({ body: await tours.getTour(ctx, params.tour_id) }),
  'tours.update': async ({ ctx, params, body }) => ({
    body: await tours.updateTour(ctx, params.tour_id, body),
  }),
  'tours.delete': async ({ ctx, params }) => {
    await tours.deleteTour(ctx, params.tour_id);
    return {};
  },
});
