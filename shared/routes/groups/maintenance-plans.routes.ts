/**
 * Routes of the `maintenance-plans` operation group (one Lambda): maintenance plan CRUD; part of
 * the route table. Plans generate cases, so they are read with `cases:read` and managed with
 * `cases:update` (dispatchers, admins, owners): whoever may write any case may make them recur.
 */
import {
  CreateMaintenancePlanSchema,
  MaintenancePlanIdParams,
  MaintenancePlanListQuery,
  MaintenancePlanListSchema,
  MaintenancePlanSchema,
  UpdateMaintenancePlanSchema,
} from '../../domain/maintenance-plans/maintenance-plan.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

const about =
  'Recurring work: a case template (title, description, priority, duration, required skills, area, location), ' +
  'an RFC 5545 recurrence (`rrule` with `dtstart`, a wall time of the IANA `timezone`), a `horizon` (how far ' +
  'ahead cases are generated, default P30D), an optional `end` and a `status` (ACTIVE or PAUSED).\n\n' +
  'The service keeps the cases of the horizon generated, off the request path: within seconds of a create or ' +
  'edit (the event stream consumer) and then by a scheduled run (every 10 minutes on AWS, every minute on ' +
  'the local stack). Each occurrence from now to now + horizon gets exactly one case, whatever the retries, ' +
  'crashes or concurrent generators: status NEW, the template fields, `maintenance_plan_id` and `occurrence` ' +
  "(the occurrence's instant, UTC); each emits case.created with actor SYSTEM. Occurrences keep their wall " +
  'time across daylight-saving changes (09:00 Europe/Berlin is 08:00Z in winter and 07:00Z in summer). Past ' +
  'occurrences are never generated. A generated case a user deletes is not generated again.';

// Examples: a monthly boiler service in Berlin, edited twice.
const boiler = {
  id: '019d3a10-5b2c-7e41-8c0f-6a1d2e3f4a50',
  name: 'Boiler service, Hauptstraße 5',
  status: 'ACTIVE',
  case_template: {
    title: 'Boiler service',
    description: 'Annual safety check and cleaning of the gas boiler in the basement.',
    priority: 'NORMAL',
    duration: 'PT1H30M',
    location: { latitude: 52.5163, longitude: 13.3777 },
  },
  rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
  dtstart: '2026-03-01T09:00:00',
  timezone: 'Europe/Berlin',
  horizon: 'P30D',
  created_at: '2026-02-20T10:00:00Z',
  updated_at: '2026-02-24T08:30:00Z',
  lock_version: 2,
} as const;

export const maintenancePlanRoutes = [
  ...crudRoutes({
    group: 'maintenance-plans',
    collection: '/api/v2/maintenance-plans',
    idParam: 'maintenance_plan_id',
    singular: 'maintenance plan',
    plural: 'maintenance plans',
    tag: 'Maintenance plans',
    readGrants: ['cases:read'],
    writeGrants: ['cases:update'],
    schemas: {
      listQuery: MaintenancePlanListQuery,
      idParams: MaintenancePlanIdParams,
      item: MaintenancePlanSchema,
      list: MaintenancePlanListSchema,
      create: CreateMaintenancePlanSchema,
      update: UpdateMaintenancePlanSchema,
    },
    docs: {
      about,
      list:
        'Default order: `name` ascending, ignoring letter case and comparing numbers by value, ties by id. ' +
        '`status` narrows the list to ACTIVE or PAUSED plans.',
      create:
        '`name`, `case_template.title`, `rrule`, `dtstart` and `timezone` are required; `status` defaults to ' +
        'ACTIVE, `horizon` to P30D, the template priority to NORMAL and its duration to PT1H. An invalid rule is ' +
        '422 at `#/rrule` (so is a rule with more than 1,000 occurrences within one horizon, or FREQ finer than ' +
        'HOURLY); a dtstart with an offset or no real date 422 at `#/dtstart`; an unknown zone 422 at ' +
        '`#/timezone`; an unknown area or skill 422 at `#/case_template/…`. The plan starts at lock_version 0; ' +
        'maintenance_plan.created records it, and its cases appear within seconds.',
      update:
        '`case_template` merges field by field (null clears description, required_skill_ids, area_id, location); ' +
        '`end` is cleared with null; other fields cannot be null (422). After an edit, the future generated ' +
        'cases that are still NEW follow the plan: a case whose occurrence the rule no longer has is deleted ' +
        '(case.deleted), one whose template fields changed is updated in place (case.updated), missing ' +
        'occurrences are generated. Cases that are SCHEDULED, IN_PROGRESS, ON_HOLD, DONE or CANCELLED, and ' +
        'those of past occurrences, stay as they are. `status: PAUSED` stops generation (cases already ' +
        'generated stay); ACTIVE resumes it from now. Emits maintenance_plan.updated.',
      delete:
        'The plan is gone; the cases it generated stay, with their `maintenance_plan_id` and `occurrence`. ' +
        'maintenance_plan.deleted records it.',
    },
    examples: {
      item: boiler,
      create: {
        name: 'Boiler service, Hauptstraße 5',
        case_template: {
          title: 'Boiler service',
          description: 'Annual safety check and cleaning of the gas boiler in the basement.',
          duration: 'PT90M',
          location: { latitude: 52.5163, longitude: 13.3777 },
        },
        rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
        dtstart: '2026-03-01T09:00:00',
        timezone: 'Europe/Berlin',
      },
      created: {
        ...boiler,
        created_at: '2026-02-20T10:00:00Z',
        updated_at: '2026-02-20T10:00:00Z',
        lock_version: 0,
      },
      update: { status: 'PAUSED', lock_version: 2 },
    },
  }),
] as const satisfies readonly RouteSpec[];
