/**
 * Routes of the `vehicles` operation group (one Lambda): vehicle CRUD and location reports;
 * part of the route table. Everyone who works in the workspace reads vehicles (vehicles:read);
 * dispatchers, admins and owners manage them and report their locations (vehicles:update);
 * drivers report the location of the vehicle they drive (vehicles:location:update:own).
 */

import { vehicleLocationOwnWork } from '../../domain/own-work.ts';
import {
  CreateVehicleSchema,
  ReplaceVehicleLocationSchema,
  UpdateVehicleSchema,
  VehicleIdParams,
  VehicleListQuery,
  VehicleListSchema,
  VehicleSchema,
} from '../../domain/vehicles/vehicle.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

const about =
  'A vehicle of the fleet: a display name, an optional license plate (unique in the workspace, compared ' +
  'without letter case, blanks and hyphens), a type, a payload capacity, whether it is in service, and the ' +
  'latest location it reported (read only; written by PUT /api/v2/vehicles/{vehicle_id}/location).';

// Examples: one van of a Berlin depot, edited twice, with a location reported this morning.
const van = {
  id: '019d2f4a-1c3e-7a10-9b6e-2f8c4d1a0b31',
  name: 'Van 12',
  license_plate: 'B-FS 1204',
  vehicle_type: 'VAN',
  capacity_kg: 1200,
  is_active: true,
  location: {
    latitude: 52.5602,
    longitude: 13.2877,
    recorded_at: '2026-06-11T07:42:10Z',
    heading: 84,
    speed_kmh: 38.5,
  },
  created_at: '2026-03-02T08:15:00Z',
  updated_at: '2026-05-20T13:10:05Z',
  lock_version: 2,
} as const;

export const vehicleRoutes = [
  ...crudRoutes({
    group: 'vehicles',
    collection: '/api/v2/vehicles',
    idParam: 'vehicle_id',
    singular: 'vehicle',
    plural: 'vehicles',
    tag: 'Vehicles',
    readGrants: ['vehicles:read'],
    writeGrants: ['vehicles:update'],
    createErrors: [409],
    schemas: {
      listQuery: VehicleListQuery,
      idParams: VehicleIdParams,
      item: VehicleSchema,
      list: VehicleListSchema,
      create: CreateVehicleSchema,
      update: UpdateVehicleSchema,
    },
    docs: {
      about,
      list:
        'Default order: `name` ascending, ignoring letter case and comparing numbers by value (`Van 2` ' +
        'before `Van 12`), ties by id. Sorted by `license_plate`, vehicles without a plate come last in ' +
        'ascending order. `is_active` narrows the list to vehicles in or out of service. Each item carries ' +
        'its latest location.',
      create:
        '`name` is required; `vehicle_type` defaults to OTHER and `is_active` to true; `license_plate` and ' +
        '`capacity_kg` are optional and omitted from the answer when not given. A plate another vehicle of ' +
        'the workspace has (compared without letter case, blanks and hyphens: `B-FS 1204` = `bfs1204`) is ' +
        '409 resource-conflict with an `errors[]` entry at `#/license_plate` whose `data.vehicle_id` names ' +
        'the holder. The new vehicle starts at lock_version 0 without a location; a vehicle.created event ' +
        'records it.',
      update:
        '`license_plate` and `capacity_kg` are cleared with null (a cleared plate is free for other vehicles ' +
        'at once); `name`, `vehicle_type` and `is_active` cannot be null (422), nor can `name` be blank. A new ' +
        'plate must be free in the workspace (409 at `#/license_plate`). `is_active: false` takes the vehicle ' +
        'out of service: tours already planned with it keep it, new ones cannot name it. The location is ' +
        'not edited here. Emits vehicle.updated with the previous values of the changed fields.',
      delete:
        'The vehicle, its location and its plate are gone (the plate is free again). Tours that name it keep ' +
        'its id in `vehicle_id`; a vehicle.deleted event records it.',
    },
    examples: {
      item: van,
      create: { name: 'Van 12', license_plate: 'B-FS 1204', vehicle_type: 'VAN', capacity_kg: 1200 },
      created: {
        id: van.id,
        name: 'Van 12',
        license_plate: 'B-FS 1204',
        vehicle_type: 'VAN',
        capacity_kg: 1200,
        is_active: true,
        created_at: '2026-03-02T08:15:00Z',
        updated_at: '2026-03-02T08:15:00Z',
        lock_version: 0,
      },
      update: { capacity_kg: 1100, lock_version: 2 },
    },
  }),
  {
    group: 'vehicles',
    tags: ['Vehicles'],
    auth: 'bearer',
    grants: [vehicleLocationOwnWork.ownGrant],
    operationId: 'vehicles.location.replace',
    method: 'PUT',
    path: '/api/v2/vehicles/{vehicle_id}/location',
    summary: "Report a vehicle's location",
    description:
      `${about}\n\n` +
      'Replaces the latest location of the vehicle with this report and answers the vehicle. ' +
      '`recorded_at` is when the position was taken (default: when the report arrives); more than ' +
      '5 minutes ahead of the service clock is 422.\n\n' +
      'Reports are last-write-wins by the time they were taken, not by their arrival: a report whose ' +
      '`recorded_at` is not after the stored one (a tracker sending its backlog late, a retry) changes ' +
      'nothing and answers 200 with the vehicle as it is, location unchanged, without an event. So no ' +
      "lock_version is taken: a report never conflicts with an edit, and it leaves the vehicle's " +
      '`lock_version` and `updated_at` as they are. An accepted report is telemetry, not an edit: it reaches ' +
      'the event stream only (VEHICLE_LOCATION_UPDATED:V1 with the new location), never webhooks or the ' +
      'audit log, and emits no vehicle.updated. Inactive vehicles report too.\n\n' +
      'Who reports: holders of `vehicles:update` (dispatcher, admin, owner) any vehicle of the workspace. ' +
      'Holders of `vehicles:location:update:own` alone (technician, driver) only the vehicle they drive ' +
      'now: a vehicle named by a tour whose `driver_id` is their user id and whose status is IN_PROGRESS ' +
      '(the driver sets it when setting off: PATCH /api/v2/tours/{tour_id}). Any other vehicle of the ' +
      'workspace is 403 access-denied with data.reason not_owner; an unknown one is 404.',
    examples: {
      request: {
        latitude: 52.5602,
        longitude: 13.2877,
        recorded_at: '2026-06-11T07:42:10Z',
        heading: 84,
        speed_kmh: 38.5,
      },
      response: van,
    },
    params: VehicleIdParams,
    body: ReplaceVehicleLocationSchema,
    success: { status: 200, description: 'The vehicle with its latest location.', schema: VehicleSchema },
  },
] as const satisfies readonly RouteSpec[];
