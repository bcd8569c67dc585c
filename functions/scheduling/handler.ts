/** Scheduling: parse, call the domain, respond. */

import { amazonLocationTravel } from '../../shared/aws/location-route-matrix.ts';
import { caseEta } from '../../shared/domain/live-day/case-eta.service.ts';
import { applyRun } from '../../shared/domain/optimization-runs/apply.service.ts';
import { runMap } from '../../shared/domain/optimization-runs/map.service.ts';
import * as runs from '../../shared/domain/optimization-runs/optimization-run.service.ts';
import { travelPortFor } from '../../shared/domain/optimization-runs/travel-selection.ts';
import { dayBoard } from '../../shared/domain/scheduling/board.service.ts';
import { bookCase } from '../../shared/domain/scheduling/booking.service.ts';
import { findSlots } from '../../shared/domain/scheduling/slots.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { schedulingRoutes } from '../../shared/routes/groups/scheduling.routes.ts';

const runPath = (id: string) => `/api/v2/scheduling/optimization-runs/${id}`;

// Amazon Location's matrices where the deployment grants them (lib/api.ts); locally none, as the local solver.
const amazonLocation = process.env.FSM_TRAVEL_PROVIDERS?.split(',').includes('amazon-location')
  ? amazonLocationTravel()
  : undefined;
/** Slots and bookings see the day with the workspace's travel, as its runs do. */
const planning = async (workspaceId: string) => ({
  travel: await travelPortFor(workspaceId, amazonLocation ? { amazonLocation } : {}),
});

export const handler = createGroupHandler(schedulingRoutes, {
  'scheduling.create_optimization_run': async ({ ctx, body }) => {
    const run = await runs.createRun(ctx, body);
    return { body: run, location: runPath(run.id) };
  },
  'scheduling.list_optimization_runs': async ({ ctx, query }) => ({ body: await runs.listRuns(ctx, query) }),
  'scheduling.get_optimization_run': async ({ ctx, params }) => ({
    body: await runs.getRun(ctx, params.run_id),
  }),
  'scheduling.cancel_optimization_run': async ({ ctx, params }) => ({
    body: await runs.cancelRun(ctx, params.run_id),
  }),
  'scheduling.apply_optimization_run': async ({ ctx, params }) => {
    const run = await applyRun(ctx, params.run_id);
    return { body: run, location: runPath(run.id) };
  },
  'scheduling.optimization_run_map': async ({ ctx, params }) => ({
    body: await runMap(ctx, params.run_id),
    contentType: 'image/svg+xml',
  }),
  'scheduling.case_eta': async ({ ctx, params }) => ({ body: await caseEta(ctx, params.case_id) }),
  'scheduling.day_board': async ({ ctx, query }) => ({
    body: await dayBoard(ctx, query.date),
    contentType: 'image/svg+xml',
  }),
  'scheduling.list_appointment_slots': async ({ ctx, query }) => ({
    body: await findSlots(ctx, query, await planning(ctx.workspaceId)),
  }),
  'scheduling.book_appointment': async ({ ctx, params, body }) => ({
    body: await bookCase(ctx, params.case_id, body, await planning(ctx.workspaceId)),
  }),
});
