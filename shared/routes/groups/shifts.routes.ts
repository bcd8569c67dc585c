/**
 * Routes of the `shifts` operation group (one Lambda): the working hours of technicians and
 * drivers that optimization runs and appointment slots plan into; part of the route table.
 * Dispatchers, admins and owners read (scheduling:read) and manage (scheduling:update) them.
 */
import {
  CreateShiftSchema,
  ShiftIdParams,
  ShiftListQuery,
  ShiftListSchema,
  ShiftSchema,
  UpdateShiftSchema,
} from '../../domain/shifts/shift.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

// Examples: Lukas Brandt's early shift of 11 June from the Berlin-Reinickendorf depot in Van 12,
// with a lunch break between 11:00 and 13:30; the dispatcher later moved its end (lock_version 1).
const ids = {
  shift: '019d3b20-4f1a-7c2e-8d3b-9a0e1f2c3d44',
  lukas: '019cad9d-67a0-77f5-96b9-283bd392bece',
  van: '019d2f4a-1c3e-7a10-9b6e-2f8c4d1a0b31',
};
const depot = { latitude: 52.5602, longitude: 13.2877 };
const lunch = {
  earliest_start: '2026-06-11T09:00:00Z',
  latest_end: '2026-06-11T11:30:00Z',
  duration: 'PT30M',
};

const shift = {
  id: ids.shift,
  user_id: ids.lukas,
  vehicle_id: ids.van,
  start: '2026-06-11T05:00:00Z',
  end: '2026-06-11T14:00:00Z',
  start_location: depot,
  end_location: depot,
  breaks: [lunch],
  created_at: '2026-06-05T10:12:40Z',
  updated_at: '2026-06-08T16:03:11Z',
  lock_version: 1,
};

export const shiftRoutes = crudRoutes({
  group: 'shifts',
  collection: '/api/v2/shifts',
  idParam: 'shift_id',
  singular: 'shift',
  plural: 'shifts',
  tag: 'Shifts',
  readGrants: ['scheduling:read'],
  writeGrants: ['scheduling:update'],
  schemas: {
    listQuery: ShiftListQuery,
    idParams: ShiftIdParams,
    item: ShiftSchema,
    list: ShiftListSchema,
    create: CreateShiftSchema,
    update: UpdateShiftSchema,
  },
  docs: {
    about:
      'A shift is the working time of one technician or driver (`user_id`): when it starts and ends (at ' +
      'most 24 hours apart), where it starts and ends, the vehicle driven (optional) and up to 5 breaks, each ' +
      'taken some time between its `earliest_start` and `latest_end`. Optimization runs plan cases into ' +
      "shifts; appointment slots are offered within them; an applied run's tours name their shift in " +
      '`shift_id`. Instants are answered in UTC.',
    list:
      'Default order: `start` ascending, ties by id. Filters combine with AND: `user_ids` (any of them) and ' +
      '`from`/`to`, the shifts overlapping [from, to): end after `from` and start before `to`. Every change ' +
      'emits shift.created, shift.updated or shift.deleted (webhooks and the audit log).',
    create:
      '`user_id`, `start`, `end` and `start_location` are required; `end_location` defaults to ' +
      '`start_location`, `breaks` to []; `vehicle_id` is optional and omitted when not given. `user_id` must ' +
      'name a user of the workspace holding the technician or driver role who is not deactivated, ' +
      '`vehicle_id` a vehicle of the workspace in service (422 at the pointer otherwise). `end` is after ' +
      '`start` and at most 24 hours later (422 at `#/end`). Each break lies inside the shift and leaves room ' +
      'for its duration between `earliest_start` and `latest_end` (422 at `#/breaks/<index>/…`). A user works ' +
      'one shift at a time: hours overlapping another shift of the same user are 422 at `#/start` with ' +
      '`data.shift_id` naming it (a shift may start when the other ends). Durations are answered in their ' +
      'shortest form (`PT90M` → `PT1H30M`). The new shift starts at lock_version 0; shift.created records it.',
    update:
      '`vehicle_id` and `breaks` are cleared with null (`breaks: []` too); `user_id`, `start`, `end`, ' +
      '`start_location` and `end_location` cannot be null (422). The locations merge coordinate by coordinate ' +
      '(RFC 7386); `breaks`, when sent, replaces the whole list. A new `start_location` does not move ' +
      '`end_location`: send both to move both. References are checked as on create, when sent; the times, ' +
      'the breaks and the overlap with other shifts of the user are checked on the resulting shift, so moving ' +
      'the hours away from a break is 422 at that break. Emits shift.updated with the previous values of the ' +
      'changed fields.',
    delete:
      'The shift is gone; a shift.deleted event records it. Tours that name it keep its id in `shift_id` ' +
      'until they are written again.',
  },
  examples: {
    item: shift,
    create: {
      user_id: ids.lukas,
      vehicle_id: ids.van,
      start: '2026-06-11T07:00:00+02:00',
      end: '2026-06-11T15:30:00+02:00',
      start_location: depot,
      breaks: [
        {
          earliest_start: '2026-06-11T11:00:00+02:00',
          latest_end: '2026-06-11T13:30:00+02:00',
          duration: 'PT30M',
        },
      ],
    },
    created: {
      ...shift,
      end: '2026-06-11T13:30:00Z',
      created_at: '2026-06-05T10:12:40Z',
      updated_at: '2026-06-05T10:12:40Z',
      lock_version: 0,
    },
    update: { end: '2026-06-11T16:00:00+02:00', lock_version: 0 },
  },
}) satisfies readonly RouteSpec[];
