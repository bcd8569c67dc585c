/** Routes of the `cases` operation group (one Lambda): work orders; part of the route table. */
import {
  CaseIdParams,
  CaseListQuery,
  CaseListSchema,
  CaseSchema,
  CreateCaseSchema,
  UpdateCaseSchema,
} from '../../domain/cases/case.schema.ts';
import { caseOwnWork, ownWorkDocs } from '../../domain/own-work.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

// Examples: a boiler service in Berlin-Pankow, created from the ERP on 2 March, scheduled for
// Lukas Brandt (technician) on 4 March; the dispatcher raised its priority once (lock_version 1)
// and then scheduled it (lock_version 2, the state cases.get shows).
const ids = {
  case: '019cad9d-6b2a-7c31-8e4f-5a1b2c3d4e5f',
  area: '01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e6f',
  lukas: '019cad9d-67a0-77f5-96b9-283bd392bece',
  gasSafe: '019c8a10-3e2f-7b4d-9a61-0c2d4e6f8a1b',
};

const boilerService = {
  id: ids.case,
  title: 'Annual boiler service',
  description: 'Gas condensing boiler in the basement; the customer asks for a call 30 minutes ahead.',
  status: 'SCHEDULED' as const,
  priority: 'HIGH' as const,
  external_id: 'SAP-4711-0815',
  area_id: ids.area,
  assignee_id: ids.lukas,
  scheduled_start: '2026-03-04T08:00:00Z',
  scheduled_end: '2026-03-04T10:00:00Z',
  address: { street: 'Florastraße 12', postal_code: '13187', city: 'Berlin', country: 'DE' },
  location: { latitude: 52.5638, longitude: 13.4107 },
  duration: 'PT1H30M',
  required_skill_ids: [ids.gasSafe],
  time_windows: [{ start: '2026-03-04T07:00:00Z', end: '2026-03-04T11:00:00Z' }],
  schedule_lock: 'ASSIGNEE' as const,
  due_by: '2026-03-06T16:00:00.000Z',
  sla_status: 'ON_TRACK' as const,
  created_at: '2026-03-02T08:15:00.906Z',
  updated_at: '2026-03-03T16:40:12.310Z',
  lock_version: 2,
};

const fieldWork =
  'Technicians and drivers hold cases:read but read only their own cases: a caller whose roles are ' +
  'all technician or driver sees only the cases whose assignee_id is its own id (the `sub` of its ' +
  'token, its user id); any other role (dispatcher, admin, owner) sees every case of the workspace.';

export const caseRoutes = crudRoutes({
  group: 'cases',
  collection: '/api/v2/cases',
  idParam: 'case_id',
  singular: 'case',
  plural: 'cases',
  tag: 'Cases',
  readGrants: ['cases:read'],
  writeGrants: ['cases:update'],
  // Field workers report the status of their own cases; the service checks the rest.
  updateGrants: [caseOwnWork.ownGrant],
  schemas: {
    listQuery: CaseListQuery,
    idParams: CaseIdParams,
    item: CaseSchema,
    list: CaseListSchema,
    create: CreateCaseSchema,
    update: UpdateCaseSchema,
  },
  docs: {
    about:
      'A case is a work order: what is to be done (title, description), where (address, location, ' +
      'area), by whom (assignee_id), when (the scheduled window), how urgent (priority), how far it got ' +
      '(status) and its ERP/CRM reference (external_id). For planning (optimization runs, appointment slots) ' +
      'it says how long the work on site takes (duration, PT1H unless set, always answered), which skills a ' +
      'technician must all offer (required_skill_ids) and when the work may start (time_windows; none: any ' +
      'time of a shift); a case without a location cannot be planned. schedule_lock (NONE unless set, always ' +
      'answered) pins what planning must keep: ASSIGNEE the technician, TIME the start, ASSIGNEE_AND_TIME ' +
      'both. Booking an appointment (POST /api/v2/cases/{case_id}/book) places a case on a shift at a promised ' +
      'window. due_by is the service level committed to the customer, the latest acceptable end; ' +
      'sla_status (kept by the service, absent without due_by) says where the case stands against it: an ' +
      'unfinished case is BREACHED from due_by on and AT_RISK from 2 hours before it or while its scheduled ' +
      'window ends after it; what time alone changes is written within a minute of its moment as a case.updated ' +
      `of actor SYSTEM (docs/service-levels.md). ${fieldWork}`,
    list:
      'Default order: created_at descending (newest first); remaining ties by id in the direction of ' +
      'the first sort key. A field worker sees only its own cases (an assignee_id naming someone else ' +
      'gives an empty page). Response times stay flat as cases accumulate, with two exceptions to plan ' +
      'for: scheduled_from/scheduled_to over every status reads every case scheduled to start before ' +
      'scheduled_to (add statuses, e.g. the open ones, or assignee_id), and status or priority followed ' +
      'by a further sort key orders a whole status or priority at a time. With assignee_id (and for ' +
      "field workers) a sort key other than created_at orders all of that assignee's cases. sla_status " +
      '(e.g. BREACHED with the open statuses: the commitments missed and still to be done) is counted per ' +
      'status, so its total is exact and its pages cost about their share of the cases walked. Every ' +
      'change emits case.created, case.updated or case.deleted (on the event stream CASE_CREATED:V1, ' +
      'CASE_UPDATED:V1 and, when external_id changes, CASE_EXTERNAL_ID_UPDATED:V1).',
    create:
      'title is required; status defaults to NEW and priority to NORMAL. area_id must name an area ' +
      'and assignee_id a user of the workspace who is not deactivated (422 at its pointer otherwise). ' +
      'scheduled_start and scheduled_end come together and start before end (422 at #/scheduled_end ' +
      'otherwise). duration defaults to PT1H and is answered in its shortest form (PT90M → PT1H30M), ' +
      'PT1M..P1D. required_skill_ids name skill definitions of the workspace, each once (422 at ' +
      '#/required_skill_ids/<index>). time_windows are ordered by start and do not overlap (one may start ' +
      'where the one before ends), each start before its end (422 at #/time_windows/<index>/start or /end). ' +
      'schedule_lock defaults to NONE; ASSIGNEE needs an assignee_id, TIME a scheduled_start (422 at ' +
      '#/schedule_lock). due_by is any RFC 3339 date-time (422 at #/due_by otherwise); sla_status is ' +
      'answered, never sent (422 at #/sla_status). ' +
      'Empty lists are omitted from the answer. The new case starts at lock_version 0; created_at is the ' +
      'instant its id was made.',
    update:
      'description, external_id, area_id, assignee_id (null unassigns), the scheduled window, address ' +
      'and location are cleared with null, required_skill_ids and time_windows with null or [] (sent, each ' +
      'replaces its whole list); title, status, priority and duration cannot be null or blank (422; send ' +
      'PT1H for the default duration). ' +
      'address and location merge line by line (RFC 7386). References are checked when sent; the ' +
      'scheduled window is checked on the resulting case: both ends or neither, start before end ' +
      '(422 at #/scheduled_end, or at the end that is missing). schedule_lock cannot be null (send NONE); ' +
      'a lock keeps what it pins: clearing assignee_id under ASSIGNEE, or scheduled_start under TIME, is 422 ' +
      'at that field until the lock is NONE. due_by is cleared with null, and sla_status with it; a ' +
      'write judges sla_status anew (a later due_by can make a BREACHED case ON_TRACK again; a case set ' +
      'DONE keeps what it was then). ' +
      `${ownWorkDocs(caseOwnWork, 'dispatcher, admin, owner')}`,
    delete:
      'The case is gone; a case.deleted event records it. Records that name it (tour stops) keep its ' +
      'id until they are written again.',
  },
  examples: {
    item: boilerService,
    create: {
      title: 'Annual boiler service',
      description: 'Gas condensing boiler in the basement; the customer asks for a call 30 minutes ahead.',
      priority: 'NORMAL',
      external_id: 'SAP-4711-0815',
      area_id: ids.area,
      address: { street: 'Florastraße 12', postal_code: '13187', city: 'Berlin', country: 'DE' },
      location: { latitude: 52.5638, longitude: 13.4107 },
      duration: 'PT1H30M',
      required_skill_ids: [ids.gasSafe],
      time_windows: [{ start: '2026-03-04T08:00:00+01:00', end: '2026-03-04T12:00:00+01:00' }],
    },
    update: {
      status: 'SCHEDULED',
      assignee_id: ids.lukas,
      scheduled_start: '2026-03-04T08:00:00Z',
      scheduled_end: '2026-03-04T10:00:00Z',
      schedule_lock: 'ASSIGNEE',
      due_by: '2026-03-06T17:00:00+01:00',
      lock_version: 1,
    },
  },
}) satisfies readonly RouteSpec[];
