/**
 * Routes of the `tours` operation group (one Lambda); part of the route table. Dispatchers,
 * admins and owners plan tours (tours:update); everyone with tours:read reads them, technicians
 * and drivers only the tours they drive, whose status they report (tours:update:own).
 */

import { ownWorkDocs, tourOwnWork } from '../../domain/own-work.ts';
import {
  CreateTourSchema,
  TourIdParams,
  TourListQuery,
  TourListSchema,
  TourSchema,
  UpdateTourSchema,
} from '../../domain/tours/tour.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

// Examples: the north loop of 11 June, three stops, driven by Lukas Brandt in Van 12.
const ids = {
  tour: '019d3a11-52c0-7e4b-a1d2-6c0f9e8b7a21',
  van: '019d2f4a-1c3e-7a10-9b6e-2f8c4d1a0b31',
  lukas: '019cad9d-67a0-77f5-96b9-283bd392bece',
  boiler: '019d3a02-0b1e-7c44-8a9f-1e2d3c4b5a61',
  meter: '019d3a02-7d3a-7f10-b2c4-5a6b7c8d9e02',
  heatPump: '019d3a03-11aa-7b55-9c0d-2e3f4a5b6c73',
};

const tour = {
  id: ids.tour,
  name: 'North loop',
  date: '2026-06-11',
  vehicle_id: ids.van,
  driver_id: ids.lukas,
  stops: [
    {
      case_id: ids.boiler,
      planned_arrival: '2026-06-11T07:30:00Z',
      status: 'DONE' as const,
      arrived_at: '2026-06-11T07:34:10Z',
      departed_at: '2026-06-11T08:41:55Z',
    },
    {
      case_id: ids.meter,
      planned_arrival: '2026-06-11T09:00:00Z',
      status: 'EN_ROUTE' as const,
      eta: '2026-06-11T09:14:00Z',
      late: true,
      late_by: 'PT14M',
    },
    { case_id: ids.heatPump, status: 'PENDING' as const },
  ],
  status: 'IN_PROGRESS' as const,
  created_at: '2026-06-09T15:02:11Z',
  updated_at: '2026-06-10T08:40:00Z',
  lock_version: 1,
};

export const tourRoutes = crudRoutes({
  group: 'tours',
  collection: '/api/v2/tours',
  idParam: 'tour_id',
  singular: 'tour',
  plural: 'tours',
  tag: 'Tours',
  readGrants: ['tours:read'],
  writeGrants: ['tours:update'],
  // Drivers report the status of the tours they drive; the service checks the rest.
  updateGrants: [tourOwnWork.ownGrant],
  schemas: {
    listQuery: TourListQuery,
    idParams: TourIdParams,
    item: TourSchema,
    list: TourListSchema,
    create: CreateTourSchema,
    update: UpdateTourSchema,
  },
  // A case on another open tour, or a shift's second PLANNED tour (tour-claims.ts).
  createErrors: [409],
  docs: {
    about:
      'A tour is the run of one vehicle and its driver through an ordered list of stops on one day. Each ' +
      'stop is a case of the workspace (`case_id`) with an optional planned arrival. Callers whose roles ' +
      'are only technician and/or driver see just the tours they drive (`driver_id` is their user id); ' +
      'any other tour is 404 for them, like a tour of another workspace.\n\n' +
      'Two rules hold under any race: a case is a stop of one open tour (PLANNED or IN_PROGRESS) at most, and a ' +
      'shift has one PLANNED tour at most. A create or update that would break either is 409 ' +
      'resource-conflict naming the other tour: `data.reason` `case_on_open_tour` (with `data.conflicts` ' +
      '`[{case_id, tour_id}]` and an `errors[]` entry at each stop, `#/stops/<index>/case_id`) or ' +
      '`shift_has_planned_tour` (`data.conflicts` `[{shift_id, tour_id}]`, `errors[]` at `#/shift_id`); ' +
      '`data.tour_id` names the (first) other tour. A DONE or CANCELLED tour holds no case. At most 80 stops ' +
      'can join or leave a tour in one write (422 at `#/stops` beyond: send the rest in a second write).',
    list:
      'Default order: `date` ascending, tours of one day in creation order. Filters combine with AND: ' +
      '`date_from`/`date_to` (inclusive days), `vehicle_id`, `driver_id`, `shift_id`, `status`. A technician or ' +
      "driver always gets their own tours (asking for another driver's gives an empty page).",
    create:
      '`date` is required; `status` defaults to PLANNED and `stops` to []; `name`, `vehicle_id` and ' +
      '`driver_id` are optional and omitted from the answer when not given, as is `shift_id`, the shift ' +
      'the tour is driven in (an applied optimization run sets it; 422 at `#/shift_id` unless it names a shift ' +
      'of the workspace). `vehicle_id` must name a ' +
      'vehicle of the workspace that is in service, `driver_id` a user of the workspace (not an API ' +
      'client) who is not deactivated, and each stop a case of the workspace, each case once; otherwise ' +
      '422 with one `errors[]` entry per reference at its pointer (`#/vehicle_id`, `#/driver_id`, ' +
      '`#/stops/3/case_id`). At most 200 stops. The new tour starts at lock_version 0; a tour.created ' +
      'event records it (TOUR_CREATED:V1 on the event stream).',
    update:
      '`name`, `vehicle_id`, `driver_id` and `shift_id` are cleared with null; `date`, `stops` and `status` cannot be ' +
      'null (422). `stops`, when sent, replaces the whole list (`[]` removes every stop). References are ' +
      'checked as on create, only for the fields sent. Any status may follow any other. Emits tour.updated ' +
      `with the previous values of the changed fields (TOUR_UPDATED:V1). ${ownWorkDocs(tourOwnWork, 'dispatcher, admin, owner')}`,
    delete: 'The tour is gone; its cases are not touched. A tour.deleted event records it (TOUR_DELETED:V1).',
  },
  examples: {
    item: tour,
    create: {
      name: 'North loop',
      date: '2026-06-11',
      vehicle_id: ids.van,
      driver_id: ids.lukas,
      stops: [
        { case_id: ids.boiler, planned_arrival: '2026-06-11T07:30:00Z' },
        { case_id: ids.meter, planned_arrival: '2026-06-11T09:00:00Z' },
      ],
    },
    created: {
      id: ids.tour,
      name: 'North loop',
      date: '2026-06-11',
      vehicle_id: ids.van,
      driver_id: ids.lukas,
      stops: [
        { case_id: ids.boiler, planned_arrival: '2026-06-11T07:30:00Z', status: 'PENDING' as const },
        { case_id: ids.meter, planned_arrival: '2026-06-11T09:00:00Z', status: 'PENDING' as const },
      ],
      status: 'PLANNED',
      created_at: '2026-06-09T15:02:11Z',
      updated_at: '2026-06-09T15:02:11Z',
      lock_version: 0,
    },
    update: {
      stops: [
        { case_id: ids.boiler, planned_arrival: '2026-06-11T07:30:00Z' },
        { case_id: ids.meter, planned_arrival: '2026-06-11T09:00:00Z' },
        { case_id: ids.heatPump },
      ],
      lock_version: 0,
    },
  },
}) satisfies readonly RouteSpec[];
