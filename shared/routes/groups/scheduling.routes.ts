/**
 * Routes of the `scheduling` operation group (one Lambda): optimization runs (API-DECISIONS.md,
 * "Optimization runs") — create (202, solved off the request path), list, read, cancel, apply,
 * and the run's map; appointment slots ("Appointment slots"). Dispatchers, admins and owners plan
 * (scheduling:read, scheduling:update).
 */
import * as z from 'zod';
import { CaseIdParams, CaseSchema } from '../../domain/cases/case.schema.ts';
import { CaseEtaSchema } from '../../domain/live-day/case-eta.schema.ts';
import {
  CreateOptimizationRunSchema,
  OptimizationRunIdParams,
  OptimizationRunListQuery,
  OptimizationRunListSchema,
  OptimizationRunSchema,
} from '../../domain/optimization-runs/optimization-run.schema.ts';
import { DayBoardQuery } from '../../domain/scheduling/board.schema.ts';
import { BookAppointmentSchema } from '../../domain/scheduling/booking.schema.ts';
import { AppointmentSlotListSchema, SlotQuery, slotLimits } from '../../domain/scheduling/slots.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { onePage } from '../crud-routes.ts';

const collection = '/api/v2/scheduling/optimization-runs';
const item = `${collection}/{run_id}` as const;
const common = { group: 'scheduling', tags: ['Scheduling'], auth: 'bearer' } as const;

// Examples: a Tuesday in Berlin, two technicians, three cases.
const ids = {
  run: '019d4b10-2a3c-7e10-8b21-5c6d7e8f9a01',
  dispatcher: '019cad9d-67a0-77f5-96b9-283bd392bece',
  anna: '019d2e01-1111-7a10-9b6e-2f8c4d1a0b31',
  shiftAnna: '019d4a00-0aa1-7c10-8d21-1e2f3a4b5c61',
  van: '019d2f4a-1c3e-7a10-9b6e-2f8c4d1a0b31',
  boiler: '019d3a02-0b1e-7c44-8a9f-1e2d3c4b5a61',
  meter: '019d3a02-7d3a-7f10-b2c4-5a6b7c8d9e02',
  heatPump: '019d3a03-11aa-7b55-9c0d-2e3f4a5b6c73',
};

const queued = {
  id: ids.run,
  status: 'QUEUED' as const,
  mode: 'PLAN' as const,
  from: '2026-06-16T06:00:00.000Z',
  to: '2026-06-16T18:00:00.000Z',
  time_limit_seconds: 30,
  requested_by: ids.dispatcher,
  created_at: '2026-06-15T16:20:00.000Z',
  updated_at: '2026-06-15T16:20:00.000Z',
};

const summary = {
  assigned: 2,
  unassigned: 1,
  distance_m: 18_420,
  travel_duration: 'PT38M',
  solve_ms: 29_870,
};

const succeeded = {
  ...queued,
  status: 'SUCCEEDED' as const,
  updated_at: '2026-06-15T16:20:33.000Z',
  started_at: '2026-06-15T16:20:01.000Z',
  finished_at: '2026-06-15T16:20:33.000Z',
  travel_model: 'great-circle' as const,
  summary,
  result: {
    routes: [
      {
        shift_id: ids.shiftAnna,
        user_id: ids.anna,
        vehicle_id: ids.van,
        stops: [
          {
            case_id: ids.boiler,
            arrival: '2026-06-16T07:14:00.000Z',
            start: '2026-06-16T07:14:00.000Z',
            end: '2026-06-16T08:14:00.000Z',
          },
          {
            case_id: ids.meter,
            arrival: '2026-06-16T08:31:00.000Z',
            start: '2026-06-16T09:00:00.000Z',
            end: '2026-06-16T09:45:00.000Z',
          },
        ],
        distance_m: 18_420,
        travel_duration: 'PT38M',
      },
    ],
    unassigned: [{ case_id: ids.heatPump, reason: 'NO_SKILLED_TECHNICIAN' as const }],
    summary,
  },
};

const lifecycle =
  'A run plans cases into shifts over a horizon [from, to) and is solved off the request path: QUEUED (waiting ' +
  'for the solver) → RUNNING (`started_at`, `expected_finish_at`) → SUCCEEDED (`result`: a route per shift that ' +
  'gets work, the cases left out with their reason, a summary) or FAILED (`failure_code`, `failure_reason`); a ' +
  'QUEUED or RUNNING run can be CANCELLED. Every move emits an event (optimization_run.created, .succeeded, ' +
  '.failed, .cancelled, .applied for webhooks and the audit log; OPTIMIZATION_RUN_UPDATED:V1 on the event ' +
  'stream for each, RUNNING included). A solver that stops mid-run (out of memory, a timeout, a crash) never ' +
  'leaves its run RUNNING: once `expected_finish_at` has passed, the run reads as FAILED (SOLVER_STOPPED). ' +
  'Travel times come from the travel model in `travel_model`. Its map: GET ' +
  '/api/v2/scheduling/optimization-runs/{run_id}/map.svg.';

const apply =
  'Applies a SUCCEEDED run’s plan, as background work: answers 202 at once with the run, whose `application` ' +
  'is `APPLYING`, and a Location naming the run; the run then reaches `APPLIED` (every write made; ' +
  'optimization_run.applied), `CONFLICT` or `FAILED` (nothing of the plan written; optimization_run.apply_failed). ' +
  'Read the run (or follow OPTIMIZATION_RUN_UPDATED:V1 on the event stream) to see it; `application.progress` ' +
  'shows how far a large apply got.\n\n' +
  'What it writes: for each route, the shift’s PLANNED tour (found by `shift_id`) gets the route’s stops in order ' +
  'with `planned_arrival`, or a PLANNED tour is created for the shift (date: the shift’s start day, UTC; driver: ' +
  'the shift’s user; vehicle: the shift’s vehicle); a planned shift that gets no route has its PLANNED tour ' +
  'emptied. Each planned case gets `assignee_id` (the shift’s user), `scheduled_start`, `scheduled_end` (the ' +
  'stop’s start and end) and status SCHEDULED. A case is a stop of one open tour at most: a planned case that is ' +
  'a stop of another PLANNED tour leaves it (tour.updated). A case that was a stop of a replaced tour and that ' +
  'the plan places nowhere returns to NEW (assignee_id and the scheduled window removed) — unless it is locked ' +
  '(`schedule_lock`) or pinned (under way, done or due before the run read it): such a stop stays where it is, ' +
  'and a locked case is never moved off what its lock keeps. A case on hold leaves the replaced tour and keeps ' +
  'everything else. Only tours of the shifts the run planned are replaced. Every write emits its own ' +
  'tour.created, tour.updated or case.updated event and audit entry.\n\n' +
  'Conflicts: the run recorded the lock_version of every case, shift and PLANNED tour it planned with. If any ' +
  'changed since (or a shift got a PLANNED tour since), the run ends with `application.status` CONFLICT and ' +
  '`application.conflicts` (`[{type: case|tour|shift, id}]`), and nothing of the plan is written. All or ' +
  'nothing holds over more writes than one DynamoDB transaction takes, and after any crash: each write carries ' +
  'a journal entry, a conflict found mid-way undoes every write made (each restored on the version the apply ' +
  'wrote; one someone changed since is left and named in `application.not_restored`), and a crashed apply is ' +
  'finished or undone by the service itself; the run shows APPLIED only once every write is made. ' +
  'docs/scheduling.md has the details.\n\n' +
  'A run is applied at most once: an apply while APPLYING is 409 with `data.reason` `apply_in_progress`, after ' +
  'APPLIED `run_applied`; a run that is not SUCCEEDED is 409 `run_not_succeeded` with `data.status`. After ' +
  'CONFLICT or FAILED the run may be applied again (application.attempt counts), which checks everything again.';

const slots =
  'The windows in which a case can be booked without breaking anything already planned, best first: for each ' +
  'window of `slot_length` from `from` to `to`, the shift (of a technician offering every skill the case ' +
  'requires) and the place in its current tour (IN_PROGRESS, else PLANNED) where the case adds the least driving, ' +
  'among the places where the whole day still works: every stop keeps its order, a stop with a `scheduled_start` ' +
  'starts exactly then and the others within their time windows, breaks fit wherever the optimizer could place ' +
  'them (inside their windows, between stops), the case starts inside the window and one of its own time windows, ' +
  'and the technician is back at the shift’s end place by its end. What is under way or past is fixed: the stops ' +
  'up to the last one started, done or due before now stay, and the case goes after them, from when the last of ' +
  'them ends; nothing starts before now. A shift whose tours are all DONE offers nothing. A case on a tour is ' +
  'taken off it for the search (booking moves it). Each slot is verified by re-inserting the case into the tour ' +
  'and recomputing the day. Travel: the workspace’s, as its optimization runs use (Amazon Location where its ' +
  'geoservices settings route with it on AWS; else great-circle distance × 1.3 at 40 km/h).\n\n' +
  'Best first: least `added_travel_duration`, then earliest; `score` (0..1, higher is better) is 1 when the ' +
  'case adds no driving and halves with every 10 minutes it adds. Not paginated: at most `limit` slots. ' +
  `The search spans at most ${slotLimits.maxHorizonDays} days (\`to\` after \`from\`, 422 at \`#/query/to\`). ` +
  'A `case_id` that names no case of the workspace is 404; a case without a location, or IN_PROGRESS, DONE or ' +
  'CANCELLED, is 422 at `#/query/case_id`. Reads only: book a slot with POST /api/v2/cases/{case_id}/book — ' +
  'every slot offered can be booked at that moment.';

const booking =
  'Books a case into a slot, as GET /api/v2/scheduling/slots offered it (`shift_id`, `start`, `end`): the slot ' +
  'is the arrival window promised to the customer (the technician arrives and starts within it). In one ' +
  'transaction: the day of the shift is checked again exactly as the slot search reads it (same travel, same ' +
  'fixed stops, same breaks) and the case is inserted into the shift’s current tour where the search places it ' +
  '(the least added driving), with `planned_arrival` — a PLANNED tour is created for a shift that has none (date: ' +
  'the shift’s start day; driver: its user; vehicle: its vehicle) — and taken off another open tour it was a stop ' +
  'of (a booking moves it; both tours emit tour.updated). The case becomes SCHEDULED with `assignee_id` (the ' +
  'shift’s user), `time_windows` = `[{start, end}]` (the promise, which every later optimization run keeps), ' +
  '`scheduled_start` inside it where the day puts it, `scheduled_end` after its duration, and `schedule_lock` ' +
  '(default NONE); case.updated is emitted.\n\n' +
  'A slot that is no longer feasible (taken meanwhile, past, outside the case’s own windows, a technician ' +
  'without the required skills, a day that is over) is 409 resource-conflict with `data.reason` ' +
  '`slot_unavailable`: read the slots again. Two bookings racing for room for one are one 200 and one 409 (every ' +
  'record is written on the version read; the loser reads the day again and checks once more). A case that ' +
  'cannot be booked (no location, or IN_PROGRESS, DONE or CANCELLED) is 409 with `data.reason` ' +
  '`case_not_bookable` and `data.status`; a case of another workspace is 404; a `shift_id` that names no shift ' +
  'of the workspace is 422 at `#/shift_id`.';

export const schedulingRoutes = [
  {
    ...common,
    operationId: 'scheduling.create_optimization_run',
    method: 'POST',
    path: collection,
    summary: 'Create an optimization run',
    description:
      `${lifecycle}\n\nChecked and answered at once: 202 with the QUEUED run and its Location. \`to\` must be ` +
      'after `from` and at most 7 days later (422 at `#/to`); each of `case_ids` / `shift_ids` must name a case or ' +
      'shift of the workspace (422 at its index, e.g. `#/case_ids/2`), a case not in progress, done or cancelled, ' +
      'a shift overlapping the horizon; `time_limit_seconds` 1..300, default 30. `from` and `to` are required ' +
      '(422 `field-required` at the pointer) unless `mode` is REPAIR. Cases with a `due_by` are planned before ' +
      'other work (after URGENT and locked work) to end by it; one that cannot end by it is planned as early as it ' +
      'can be, its stop `late` with `late_by` in the result.\n\n' +
      '`mode: "REPAIR"` with `shift_ids` (required, 422 at `#/shift_ids`) re-plans the rest of those shifts’ day ' +
      'when it drifted from its plan (API-DECISIONS.md, "The live day"): stops started, done or skipped stay as ' +
      'they are, first on the tour; the rest of the day starts where and when the current work ends (or at the ' +
      'last position the tour’s device reported); locks are kept; and the remaining stops keep their order and ' +
      'technician wherever the day still works. Only where a window or the shift’s end cannot be kept is a stop ' +
      'moved in its order, given to another of the shifts, or left out (the least urgent first); `summary` ' +
      'counts `reordered` and `reassigned`. Applying writes the tour on the road (an ETA rewritten since by the ' +
      'live day is no conflict) and returns cases left out to NEW, as any apply does. A shift whose hours are ' +
      'over is 422 at its index.',
    examples: {
      request: { from: '2026-06-16T06:00:00Z', to: '2026-06-16T18:00:00Z', time_limit_seconds: 30 },
      response: queued,
    },
    grants: ['scheduling:update'],
    body: CreateOptimizationRunSchema,
    success: {
      status: 202,
      location: true,
      description: 'Accepted: the QUEUED run; Location names it.',
      schema: OptimizationRunSchema,
    },
  },
  {
    ...common,
    operationId: 'scheduling.list_optimization_runs',
    method: 'GET',
    path: collection,
    summary: 'List optimization runs',
    description: `${lifecycle}\n\nNewest first. \`status\` keeps the runs in one status. Items leave \`result\` out (\`summary\` is there); read a run for its routes.`,
    examples: { query: 'status=SUCCEEDED&size=10', response: onePage(queued, 10) },
    grants: ['scheduling:read'],
    query: OptimizationRunListQuery,
    success: { status: 200, description: 'A page of runs.', schema: OptimizationRunListSchema },
  },
  {
    ...common,
    operationId: 'scheduling.get_optimization_run',
    method: 'GET',
    path: item,
    summary: 'Get an optimization run',
    description: `${lifecycle}\n\nThe run with this id, \`result\` included once SUCCEEDED. An id of another workspace is 404.`,
    examples: { response: succeeded },
    grants: ['scheduling:read'],
    params: OptimizationRunIdParams,
    success: { status: 200, description: 'The run.', schema: OptimizationRunSchema },
  },
  {
    ...common,
    operationId: 'scheduling.cancel_optimization_run',
    method: 'POST',
    path: `${item}/cancel`,
    summary: 'Cancel an optimization run',
    description:
      `${lifecycle}\n\nQUEUED or RUNNING → CANCELLED (optimization_run.cancelled). A RUNNING run’s solver ` +
      'finishes its search but its answer is discarded. Cancelling a CANCELLED run again answers it unchanged ' +
      '(a retry is safe). A SUCCEEDED or FAILED run is final: 409 resource-conflict with `data.reason` ' +
      '`run_finished` and `data.status`.',
    examples: {
      response: {
        ...queued,
        status: 'CANCELLED',
        finished_at: '2026-06-15T16:20:05.000Z',
        updated_at: '2026-06-15T16:20:05.000Z',
      },
    },
    grants: ['scheduling:update'],
    params: OptimizationRunIdParams,
    errors: [409],
    success: { status: 202, description: 'The CANCELLED run.', schema: OptimizationRunSchema },
  },
  {
    ...common,
    operationId: 'scheduling.apply_optimization_run',
    method: 'POST',
    path: `${item}/apply`,
    summary: 'Apply an optimization run’s plan',
    description: apply,
    examples: {
      response: {
        ...succeeded,
        updated_at: '2026-06-15T16:25:12.000Z',
        application: {
          status: 'APPLYING' as const,
          attempt: 1,
          requested_at: '2026-06-15T16:25:12.000Z',
          requested_by: ids.dispatcher,
        },
      },
    },
    grants: ['scheduling:update', 'tours:update', 'cases:update'],
    params: OptimizationRunIdParams,
    errors: [409],
    success: {
      status: 202,
      location: true,
      description: 'Accepted: the run, application APPLYING; Location names the run.',
      schema: OptimizationRunSchema,
    },
  },
  {
    ...common,
    operationId: 'scheduling.optimization_run_map',
    method: 'GET',
    path: `${item}/map.svg`,
    summary: 'Draw an optimization run’s plan (SVG)',
    description:
      'The plan of a SUCCEEDED run as an SVG picture (`image/svg+xml`), drawn without map tiles or any network: ' +
      'each route in its own colour from the shift’s start through its numbered stops to its end, the cases left ' +
      'out as grey crosses, and a legend (stops and kilometres per route). Places are where they were when the ' +
      'run read them. Open it in a browser, e.g. ' +
      '[GET /api/v2/scheduling/optimization-runs/{run_id}/map.svg](/api/v2/scheduling/optimization-runs/{run_id}/map.svg) ' +
      '(with your token). A run that is not SUCCEEDED has no map yet: 404 with `data.status`.',
    examples: {
      response:
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 750" width="960" height="750" role="img" ' +
        'aria-label="Optimization run 019d4b10">…</svg>',
    },
    grants: ['scheduling:read'],
    params: OptimizationRunIdParams,
    success: {
      status: 200,
      description: 'The map as image/svg+xml.',
      schema: z.string(),
      contentType: 'image/svg+xml',
    },
  },
  {
    ...common,
    operationId: 'scheduling.list_appointment_slots',
    method: 'GET',
    path: '/api/v2/scheduling/slots',
    summary: 'Find appointment slots for a case',
    description: slots,
    examples: {
      query: `case_id=${ids.boiler}&from=2026-06-16T08:00:00Z&to=2026-06-16T18:00:00Z&limit=3&slot_length=PT2H`,
      response: {
        items: [
          {
            start: '2026-06-16T10:00:00.000Z',
            end: '2026-06-16T12:00:00.000Z',
            user_id: ids.anna,
            shift_id: ids.shiftAnna,
            added_travel_duration: 'PT4M',
            score: 0.758,
          },
          {
            start: '2026-06-16T12:00:00.000Z',
            end: '2026-06-16T14:00:00.000Z',
            user_id: ids.anna,
            shift_id: ids.shiftAnna,
            added_travel_duration: 'PT9M',
            score: 0.536,
          },
        ],
      },
    },
    grants: ['scheduling:read'],
    query: SlotQuery,
    errors: [404],
    success: { status: 200, description: 'The slots, best first.', schema: AppointmentSlotListSchema },
  },
  {
    ...common,
    operationId: 'scheduling.day_board',
    method: 'GET',
    path: '/api/v2/scheduling/board.svg',
    summary: 'Draw the day board (SVG)',
    description:
      'The day as a dispatcher watches it, as an SVG picture (`image/svg+xml`) drawn without any network: one ' +
      'lane per shift overlapping the UTC day `date` (labelled with its technician and hours), its break windows ' +
      'in grey, and each stop of the shift’s tour of that day (not CANCELLED) as two bars — the plan (from ' +
      '`planned_arrival`, else the case’s scheduled_start, for the case’s duration) and what happened (from ' +
      '`arrived_at` to `departed_at`, or to now while the technician is there) — coloured by the stop’s status ' +
      '(PENDING grey, EN_ROUTE blue, ARRIVED orange, DONE green, SKIPPED brown). A late stop is outlined red and ' +
      'labelled with how late it runs; a red line marks now; a legend explains the colours. Hours are UTC. Open it ' +
      'in a browser, e.g. [GET /api/v2/scheduling/board.svg?date=2026-06-16](/api/v2/scheduling/board.svg?date=2026-06-16) ' +
      '(with your token). A day without shifts is an empty board.',
    examples: {
      query: 'date=2026-06-16',
      response:
        '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="238" viewBox="0 0 1200 238" ' +
        'role="img" aria-label="Day board 2026-06-16">…</svg>',
    },
    grants: ['scheduling:read'],
    query: DayBoardQuery,
    success: {
      status: 200,
      description: 'The board as image/svg+xml.',
      schema: z.string(),
      contentType: 'image/svg+xml',
    },
  },
  {
    ...common,
    operationId: 'scheduling.case_eta',
    method: 'GET',
    path: '/api/v2/cases/{case_id}/eta',
    summary: 'Read a case’s live ETA',
    description:
      'For a customer-facing “your technician is on the way” page: the `eta` of the case’s stop on the tour on the ' +
      'road (IN_PROGRESS) that holds it, recomputed from the technician’s positions (API-DECISIONS.md, “The live ' +
      'day”) — once they arrived, when they did —, the stop’s `status`, the technician’s first name only, and ' +
      '`position_age`, how old the last position behind the estimate is. A case of another workspace, one the caller ' +
      'may not read, or one no tour on the road holds with an ETA yet (planned, done, no position yet) is 404.',
    examples: {
      response: {
        eta: '2026-06-16T10:05:00.000Z',
        status: 'EN_ROUTE',
        technician: { first_name: 'Anna' },
        position_age: 'PT40S',
      },
    },
    grants: ['cases:read'],
    params: CaseIdParams,
    errors: [404],
    success: { status: 200, description: 'The live ETA.', schema: CaseEtaSchema },
  },
  {
    ...common,
    operationId: 'scheduling.book_appointment',
    method: 'POST',
    path: '/api/v2/cases/{case_id}/book',
    summary: 'Book a case into an appointment slot',
    description: booking,
    examples: {
      request: {
        shift_id: ids.shiftAnna,
        start: '2026-06-16T10:00:00Z',
        end: '2026-06-16T12:00:00Z',
        schedule_lock: 'ASSIGNEE',
      },
      response: {
        id: ids.boiler,
        title: 'Annual boiler service',
        status: 'SCHEDULED',
        priority: 'NORMAL',
        assignee_id: ids.anna,
        scheduled_start: '2026-06-16T10:12:00.000Z',
        scheduled_end: '2026-06-16T11:12:00.000Z',
        location: { latitude: 52.5638, longitude: 13.4107 },
        duration: 'PT1H',
        time_windows: [{ start: '2026-06-16T10:00:00.000Z', end: '2026-06-16T12:00:00.000Z' }],
        schedule_lock: 'ASSIGNEE',
        created_at: '2026-06-15T09:02:11.000Z',
        updated_at: '2026-06-15T16:31:40.000Z',
        lock_version: 1,
      },
    },
    grants: ['scheduling:update'],
    params: CaseIdParams,
    body: BookAppointmentSchema,
    errors: [404, 409],
    success: { status: 200, description: 'The booked case.', schema: CaseSchema },
  },
] as const satisfies readonly RouteSpec[];
