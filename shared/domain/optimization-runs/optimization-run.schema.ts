/**
 * Optimization run: one request to plan cases into shifts over a horizon (API-DECISIONS.md,
 * "Optimization runs"), solved off the request path, and its answer: the routes of the plan, the
 * cases it leaves out with their reason, and a summary. Published schema names:
 * OptimizationRun, CreateOptimizationRun, OptimizationRunList, OptimizationRunResult,
 * OptimizationRunRoute, OptimizationRunStop, OptimizationRunUnassignedCase, OptimizationRunSummary.
 */
import * as z from 'zod';
import type { FieldIssueParams } from '../../schema/field-error.ts';
import { dateTime } from '../../schema/fields.ts';
import { horizonRule } from '../../schema/horizon.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery } from '../../schema/query-params.ts';
import { unassignedReasons } from '../scheduling/unassigned-reasons.ts';
import {
  failureCodes,
  maxHorizonDays,
  maxPlannedCases,
  maxPlannedShifts,
  runStatuses,
  timeLimits,
} from './optimization-run-statuses.ts';
import { applicationStatuses } from './run-application.ts';

export { runStatuses };

/** What a run does: PLAN the horizon from scratch, or REPAIR the rest of a day on the road. */
export const runModes = ['PLAN', 'REPAIR'] as const;
export type RunMode = (typeof runModes)[number];
const modeAbout =
  'PLAN (default): plan the horizon (the cases of the default selection or `case_ids` into the shifts). ' +
  'REPAIR (API-DECISIONS.md, "The live day"): re-plan the rest of the day of `shift_ids` (required) when the ' +
  'day drifted from its plan: the stops already started, done or skipped stay as they are, the rest of each ' +
  'day starts where and when the current work ends (the last position telemetry reported, else the last ' +
  'stop’s place), locks are kept, and the remaining stops keep their order and technicians wherever the day ' +
  'still works: a stop is moved, given to another of the shifts, or left out (it returns to NEW when applied) ' +
  'only where its window or the shift’s end cannot be kept otherwise, the fewest such changes first. `case_ids` ' +
  'adds cases to fit in. `from` defaults to now and `to` to the end of the latest shift. Applied like any run.';

const duration = (description: string) =>
  z.string().meta({ format: 'duration', description, example: 'PT2H15M' });

export const RunStopSchema = z
  .object({
    case_id: z.uuid().meta({ description: 'The case served at this stop.' }),
    arrival: z.iso.datetime().meta({ description: 'When the technician gets there (UTC).' }),
    start: z.iso.datetime().meta({
      description: 'When the work starts: the arrival, or later when the case’s window opens later.',
    }),
    end: z.iso.datetime().meta({ description: 'When the work is done (start + the case’s duration).' }),
    late: z
      .literal(true)
      .optional()
      .meta({
        description:
          'Present when the case has a due_by the plan could not meet: the work is planned as early as it can be, ' +
          'and ends after due_by.',
      }),
    late_by: duration('With `late`: how long after due_by the work ends (whole minutes).').optional(),
  })
  .meta({ id: 'OptimizationRunStop', description: 'One stop of a planned route, in driving order.' });

export const RunRouteSchema = z
  .object({
    shift_id: z.uuid().meta({ description: 'The shift this route fills.' }),
    user_id: z.uuid().meta({ description: 'The technician or driver of the shift.' }),
    vehicle_id: z.uuid().optional().meta({ description: 'The shift’s vehicle; omitted when it has none.' }),
    stops: z.array(RunStopSchema).meta({ description: 'The stops in driving order (at least one).' }),
    distance_m: z.int().min(0).meta({ description: 'Metres driven, from the shift’s start to its end.' }),
    travel_duration: duration('Time spent driving (ISO 8601), e.g. `PT2H15M`.'),
  })
  .meta({ id: 'OptimizationRunRoute', description: 'The plan of one shift that gets work.' });

export const RunUnassignedSchema = z
  .object({
    case_id: z.uuid(),
    reason: z.enum(unassignedReasons).meta({
      description:
        'NO_LOCATION (the case has no location), NO_SKILLED_TECHNICIAN (no shift’s technician offers every ' +
        'required skill), NO_SHIFT_IN_WINDOW (no skilled shift meets a window of the case, from now on), ' +
        'NOT_REACHABLE_IN_TIME (a skilled shift meets a window, but the drive there and back does not fit), ' +
        'NO_CAPACITY (it fits on its own, not beside the work planned: more shifts would place it), ' +
        'LOCK_NOT_KEPT (the case is locked — its schedule_lock, or a stop under way or past pinned where it is — ' +
        'and the plan could not keep the lock: applying leaves the case as it is).',
    }),
  })
  .meta({ id: 'OptimizationRunUnassignedCase', description: 'A case the plan leaves out, and why.' });

export const RunSummarySchema = z
  .object({
    assigned: z.int().min(0).meta({ description: 'Cases planned.' }),
    unassigned: z.int().min(0).meta({ description: 'Cases left out.' }),
    distance_m: z.int().min(0).meta({ description: 'Metres driven over all routes.' }),
    travel_duration: duration('Driving time over all routes (ISO 8601).'),
    solve_ms: z.int().min(0).meta({ description: 'Milliseconds the optimizer searched.' }),
    reordered: z.int().min(0).optional().meta({
      description: 'REPAIR runs: remaining stops that change place in their technician’s order.',
    }),
    reassigned: z.int().min(0).optional().meta({
      description: 'REPAIR runs: remaining stops given to another of the shifts.',
    }),
  })
  .meta({ id: 'OptimizationRunSummary', description: 'The plan in numbers.' });

export const RunResultSchema = z
  .object({
    routes: z.array(RunRouteSchema).meta({ description: 'One route per shift that gets work.' }),
    unassigned: z
      .array(RunUnassignedSchema)
      .meta({ description: 'Cases left out; [] when every case fits.' }),
    summary: RunSummarySchema,
  })
  .meta({ id: 'OptimizationRunResult', description: 'The plan a SUCCEEDED run found.' });

const RecordRefSchema = z
  .object({
    type: z.enum(['case', 'tour', 'shift']).meta({ description: 'What kind of record.' }),
    id: z.uuid().meta({ description: 'Its id.' }),
  })
  .meta({ id: 'OptimizationRunRecordRef', description: 'A case, tour or shift.' });

export const RunApplicationSchema = z
  .object({
    status: z.enum(applicationStatuses).meta({
      description:
        'APPLYING (the service writes the plan in the background), APPLIED (every tour and case written), ' +
        'CONFLICT (records changed since the run read them — `conflicts` names them — and nothing of the plan is ' +
        'written: what the apply had written was undone) or FAILED (the service could not finish it; nothing is ' +
        'written; `failure_reason` says why). An apply is never visible as APPLIED half done.',
    }),
    attempt: z.int().min(1).meta({
      description: 'Which apply of the run this is: 1, then 2 and on after a CONFLICT or FAILED one.',
    }),
    requested_at: z.iso.datetime().meta({ description: 'When the apply was requested.' }),
    requested_by: z.uuid().optional().meta({ description: 'Who requested it.' }),
    finished_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When it reached APPLIED, CONFLICT or FAILED.' }),
    progress: z
      .object({
        done: z.int().min(0).meta({ description: 'Record writes done.' }),
        total: z.int().min(0).meta({ description: 'Record writes the plan needs.' }),
      })
      .optional()
      .meta({ description: 'While APPLYING, once under way: how far it got (updated every 50 writes).' }),
    conflicts: z.array(RecordRefSchema).optional().meta({
      description:
        'CONFLICT: the cases, tours and shifts written since the run read them (or a shift that got a PLANNED tour since).',
    }),
    not_restored: z
      .array(RecordRefSchema)
      .optional()
      .meta({
        description:
          'Records someone changed after this apply wrote them, which undoing the apply could not restore without ' +
          'losing their change (left as they are).',
      }),
    failure_reason: z.string().optional().meta({ description: 'FAILED: why, in words.' }),
  })
  .meta({
    id: 'OptimizationRunApplication',
    description:
      "The apply of the run's plan (POST …/{run_id}/apply), once requested: background work the run reports on.",
  });

export const OptimizationRunSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the run (UUIDv7: ids sort in creation order).' }),
    status: z.enum(runStatuses).meta({
      description:
        'QUEUED (waiting for the solver), RUNNING (being solved), SUCCEEDED (`result` holds the plan), ' +
        'FAILED (`failure_code` and `failure_reason` say why) or CANCELLED. The last three are final.',
    }),
    mode: z.enum(runModes).meta({ description: modeAbout }),
    from: z.iso.datetime().meta({ description: 'Start of the planning horizon (UTC).' }),
    to: z.iso.datetime().meta({ description: 'End of the planning horizon (UTC).' }),
    case_ids: z.array(z.uuid()).optional().meta({
      description: 'The cases asked for; omitted when the run plans the default selection.',
    }),
    shift_ids: z.array(z.uuid()).optional().meta({
      description: 'The shifts asked for; omitted when the run plans every shift overlapping the horizon.',
    }),
    time_limit_seconds: z.int().min(timeLimits.min).max(timeLimits.max).meta({
      description: 'How long the optimizer searches.',
    }),
    requested_by: z
      .uuid()
      .optional()
      .meta({ description: 'The user or service account that created the run.' }),
    created_at: z.iso.datetime().meta({ description: 'When the run was created (and QUEUED).' }),
    updated_at: z.iso.datetime().meta({ description: 'When the run last changed.' }),
    started_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the solver took the run up (RUNNING).' }),
    expected_finish_at: z.iso
      .datetime()
      .optional()
      .meta({
        description:
          'While RUNNING: when the answer is due at the latest. Until the search begins, started_at + 240 s ' +
          '(reading the records and travel times) + time_limit_seconds + a minute to write the answer; once it ' +
          'has begun, its start + time_limit_seconds + a minute. It only moves earlier. A run still RUNNING after ' +
          'it is reported FAILED (SOLVER_STOPPED), as is one whose search has not begun 240 s after started_at.',
      }),
    finished_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the run reached SUCCEEDED, FAILED or CANCELLED.' }),
    travel_model: z
      .enum(['great-circle', 'amazon-location'])
      .optional()
      .meta({
        description:
          'Where travel times came from: `amazon-location` (Amazon Location route matrices, when the ' +
          'workspace’s geoservices settings route with AMAZON_LOCATION on AWS) or `great-circle` (distance × ' +
          '1.3 at 40 km/h). Set once the run is RUNNING.',
      }),
    summary: RunSummarySchema.optional().meta({ description: 'SUCCEEDED runs: the plan in numbers.' }),
    result: RunResultSchema.optional().meta({
      description: 'SUCCEEDED runs, on single reads: the plan. Lists leave it out (summary is there).',
    }),
    failure_code: z
      .enum(failureCodes)
      .optional()
      .meta({
        description:
          'FAILED runs: INVALID_PROBLEM, TOO_LARGE, TRAVEL_UNAVAILABLE, SOLVER_STOPPED (out of memory, timed ' +
          'out or crashed), NOT_STARTED (no solver took the run up within 30 minutes of its creation; create a ' +
          'new run) or INTERNAL_ERROR.',
      }),
    failure_reason: z.string().optional().meta({ description: 'FAILED runs: why, in words.' }),
    application: RunApplicationSchema.optional(),
    applied_at: z.iso.datetime().optional().meta({
      description: 'When the plan was applied (once at most): application.finished_at of an APPLIED apply.',
    }),
    applied_by: z.uuid().optional().meta({ description: 'Who applied the plan.' }),
  })
  .meta({
    id: 'OptimizationRun',
    description: 'A request to plan cases into shifts, and once SUCCEEDED its plan.',
  });

export type OptimizationRun = z.infer<typeof OptimizationRunSchema>;
export type RunResult = z.infer<typeof RunResultSchema>;

/** Ids listed once each (compared case-insensitively); a repeat is 422 at its index. */
function uniqueIds(max: number, what: string) {
  return z
    .array(z.uuid())
    .min(1)
    .max(max)
    .check((ctx) => {
      const seen = new Set<string>();
      ctx.value.forEach((id, index) => {
        if (seen.has(id.toLowerCase())) {
          ctx.issues.push({
            code: 'custom',
            input: id,
            path: [index],
            message: `the ${what} is listed twice`,
          });
        }
        seen.add(id.toLowerCase());
      });
    })
    .meta({ uniqueItems: true });
}

const requiredIssue: FieldIssueParams = { fieldErrorType: 'field-required' };

/** `from` and `to` plan a horizon (required); a REPAIR run names its shifts and may bound the rest of the day. */
function modeRule(
  ctx: z.core.ParsePayload<{ mode?: RunMode; from?: string; to?: string; shift_ids?: string[] }>,
): void {
  const required = (field: string, message: string) =>
    ctx.issues.push({ code: 'custom', input: undefined, path: [field], message, params: requiredIssue });
  if (ctx.value.mode === 'REPAIR') {
    if (!ctx.value.shift_ids) required('shift_ids', 'a REPAIR run names the shifts whose day it re-plans');
    return;
  }
  for (const field of ['from', 'to'] as const) {
    if (ctx.value[field] === undefined) required(field, 'required (only a REPAIR run may leave it out)');
  }
}

export const CreateOptimizationRunSchema = z
  .object({
    mode: z.enum(runModes).optional().meta({ description: modeAbout }),
    from: dateTime().optional().meta({
      description: 'Start of the planning horizon (RFC 3339). Required unless mode is REPAIR (default: now).',
    }),
    to: dateTime()
      .optional()
      .meta({
        description:
          `End of the planning horizon: after from, at most ${maxHorizonDays} days later. Required unless mode is ` +
          'REPAIR (default: the end of the latest of its shifts).',
      }),
    case_ids: uniqueIds(maxPlannedCases, 'case')
      .optional()
      .meta({
        description:
          `The cases to plan, 1..${maxPlannedCases}, each a case of the workspace whose status is NEW or ` +
          'SCHEDULED (otherwise 422 at `#/case_ids/<index>`). Default: NEW cases, and SCHEDULED cases whose ' +
          'scheduled_start falls in the horizon, each with a location, not ON_HOLD, not a stop of a tour that is ' +
          'IN_PROGRESS or DONE, whose windows meet the horizon. The stops of the PLANNED tours of the planned shifts ' +
          'are planned too (applying replaces those tours). Locks (schedule_lock) are kept or the case is left out ' +
          'with LOCK_NOT_KEPT; work not pinned starts at the earliest when the run reads the day.',
      }),
    shift_ids: uniqueIds(maxPlannedShifts, 'shift')
      .optional()
      .meta({
        description:
          `The shifts to fill, 1..${maxPlannedShifts}, each a shift of the workspace that overlaps the horizon ` +
          '(otherwise 422 at `#/shift_ids/<index>`). Default: every shift overlapping the horizon.',
      }),
    time_limit_seconds: z
      .int()
      .min(timeLimits.min)
      .max(timeLimits.max)
      .optional()
      .meta({
        description: `How long the optimizer searches, ${timeLimits.min}..${timeLimits.max} seconds; default ${timeLimits.default}.`,
      }),
  })
  .check(horizonRule(maxHorizonDays))
  .check(modeRule)
  .meta({ id: 'CreateOptimizationRun' });

export type CreateOptimizationRun = z.output<typeof CreateOptimizationRunSchema>;

export const OptimizationRunListQuery = z.object({
  ...paginationQuery,
  status: z.enum(runStatuses).optional().meta({ description: 'Runs in this status; default: every status.' }),
});

export const OptimizationRunIdParams = z.object({
  run_id: z.uuid().meta({ description: 'Identifier of the optimization run.' }),
});

export const OptimizationRunListSchema = pagedListSchema(OptimizationRunSchema, 'OptimizationRunList');
