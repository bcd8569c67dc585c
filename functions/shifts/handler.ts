/** Shifts: parse, call the domain, respond. */
import * as shifts from '../../shared/domain/shifts/shift.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { shiftRoutes } from '../../shared/routes/groups/shifts.routes.ts';

export const handler = createGroupHandler(shiftRoutes, {
  'shifts.list': async ({ ctx, query }) => ({ body: await shifts.listShifts(ctx, query) }),
  'shifts.create': async ({ ctx, body }) => {
    const shift = await shifts.createShift(ctx, body);
    return { body: shift, location: `/api/v2/shifts/${shift.id}` };
  },
  'shifts.get': async ({ ctx, params }) => ({ body: await shifts.getShift(ctx, params.shift_id) }),
  'shifts.update': async ({ ctx, params, body }) => ({
    body: await shifts.updateShift(ctx, params.shift_id, body),
  }),
  'shifts.delete': async ({ ctx, params }) => {
    await shifts.deleteShift(ctx, params.shift_id);
    return {};
  },
});
