/**
 * Vehicle: a vehicle of the workspace's fleet that tours are driven with, and the latest location
 * it reported. Dispatchers manage vehicles (vehicles:update); every role that works in the
 * workspace reads them (vehicles:read). Published schema names: Vehicle, CreateVehicle,
 * UpdateVehicle, VehicleList, VehicleLocation, ReplaceVehicleLocation.
 */
import * as z from 'zod';
import { dateTime, latitude, lockVersion, longitude, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { booleanParam, paginationQuery, sortParam } from '../../schema/query-params.ts';

export const vehicleTypes = ['VAN', 'TRUCK', 'CAR', 'BIKE', 'OTHER'] as const;
export type VehicleType = (typeof vehicleTypes)[number];

const vehicleType = z.enum(vehicleTypes).meta({
  description: 'Kind of vehicle: VAN, TRUCK, CAR, BIKE (bicycles and cargo bikes) or OTHER.',
});

/** Heaviest load a vehicle may be given, in kg: above every road vehicle, below nonsense. */
export const maxCapacityKg = 100_000;

const heading = z
  .number()
  .min(0)
  .max(360)
  .meta({ description: 'Direction of travel in degrees clockwise from true north, 0..360.' });
/** Faster than any road vehicle: a value above it is a broken tracker, not a report. */
const maxSpeedKmh = 1000;
const speedKmh = z
  .number()
  .min(0)
  .max(maxSpeedKmh)
  .meta({ description: `Speed over ground in km/h, 0..${maxSpeedKmh}.` });

export const VehicleLocationSchema = z
  .object({
    latitude: latitude(),
    longitude: longitude(),
    recorded_at: z.iso.datetime().meta({
      description: 'When the position was taken (UTC): the time the report names, or its arrival.',
    }),
    heading: heading.optional(),
    speed_kmh: speedKmh.optional(),
  })
  .meta({ id: 'VehicleLocation', description: 'The latest position reported for a vehicle.' });

export type VehicleLocation = z.infer<typeof VehicleLocationSchema>;

export const VehicleSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the vehicle; tours refer to it in `vehicle_id`.' }),
    name: z.string().meta({ description: 'Display name, e.g. a fleet number; need not be unique.' }),
    license_plate: z
      .string()
      .optional()
      .meta({
        description:
          'Registration plate as written; unique in the workspace, compared without letter case, blanks ' +
          'and hyphens. Omitted when the vehicle has none.',
      }),
    vehicle_type: vehicleType,
    capacity_kg: z
      .number()
      .min(0)
      .max(maxCapacityKg)
      .optional()
      .meta({ description: 'Payload the vehicle may carry, in kg; omitted when unknown.' }),
    is_active: z.boolean().meta({
      description: 'false: out of service (workshop, sold); new tours cannot be planned with it.',
    }),
    location: VehicleLocationSchema.optional().meta({
      description:
        'The latest position reported through PUT /api/v2/vehicles/{vehicle_id}/location; omitted ' +
        'until the first report. Read only.',
    }),
    created_at: z.iso.datetime().meta({ description: 'When the vehicle was created.' }),
    updated_at: z.iso
      .datetime()
      .meta({ description: 'When the vehicle was last edited (location reports do not count).' }),
    lock_version: storedVersion().meta({
      description: 'Starts at 0 and increments with every edit; location reports leave it unchanged.',
    }),
  })
  .meta({ id: 'Vehicle', description: 'A vehicle of the fleet and its latest reported location.' });

export type Vehicle = z.infer<typeof VehicleSchema>;
/**
 * What the vehicle item holds: the location lives in an item of its own (keys.ts). In service is
 * stored as `active`, as it was before the published name became `is_active` (SPEC.md,
 * Booleans): every item written since the first vehicle reads as it is, and the list's segment
 * (vehicle.list.ts) keeps its values. toVehicle (vehicle.service.ts) maps it.
 */
export type StoredVehicle = Omit<Vehicle, 'location' | 'is_active'> & { active: boolean };

const name = text({ max: 255 });
const licensePlate = text({ max: 32 }).check((ctx) => {
  if (ctx.value.trim() && !/[\p{L}\p{N}]/u.test(ctx.value)) {
    ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must contain a letter or a digit' });
  }
});
const capacityKg = z.number().min(0).max(maxCapacityKg);

export const CreateVehicleSchema = z
  .object({
    name: name.meta({ description: 'Display name, e.g. a fleet number; need not be unique.' }),
    license_plate: licensePlate.optional().meta({
      description:
        'Up to 32 characters; must be free in the workspace, compared without letter case, blanks and ' +
        'hyphens (`B-FS 1204` = `bfs1204`): otherwise 409 resource-conflict at `#/license_plate`.',
    }),
    vehicle_type: vehicleType.optional().meta({ description: 'Default OTHER.' }),
    capacity_kg: capacityKg
      .optional()
      .meta({ description: `Payload in kg, 0..${maxCapacityKg}; unknown when omitted.` }),
    is_active: z.boolean().optional().meta({ description: 'In service; default true.' }),
  })
  .meta({ id: 'CreateVehicle' });

export const UpdateVehicleSchema = z
  .object({
    name: name.optional().meta({ description: 'Display name; cannot be cleared.' }),
    license_plate: licensePlate
      .nullable()
      .optional()
      .meta({
        description:
          'null clears it (and frees the plate); a new value must be free in the workspace (409 ' +
          'resource-conflict at `#/license_plate`).',
      }),
    vehicle_type: vehicleType.optional().meta({ description: 'Cannot be cleared.' }),
    capacity_kg: capacityKg.nullable().optional().meta({ description: 'Payload in kg; null clears it.' }),
    is_active: z.boolean().optional().meta({ description: 'false takes the vehicle out of service.' }),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateVehicle',
    description:
      'JSON Merge Patch of a vehicle; license_plate and capacity_kg are clearable with null; null or ' +
      'blank name, null vehicle_type or is_active is rejected with 422. The location is not part of it.',
  });

export const ReplaceVehicleLocationSchema = z
  .object({
    latitude: latitude(),
    longitude: longitude(),
    recorded_at: dateTime()
      .optional()
      .meta({
        description:
          'When the position was taken (RFC 3339); default: when the report arrives. A report older ' +
          'than the stored location changes nothing.',
      }),
    heading: heading.optional(),
    speed_kmh: speedKmh.optional(),
  })
  .meta({
    id: 'ReplaceVehicleLocation',
    description: 'A position report; it replaces the latest location unless it is older.',
  });

export const vehicleSortFields = ['name', 'license_plate', 'created_at', 'updated_at'] as const;

export const VehicleListQuery = z.object({
  ...paginationQuery,
  sort: sortParam(vehicleSortFields),
  is_active: booleanParam().optional().meta({
    description: 'true: only vehicles in service; false: only those out of service. Default: both.',
  }),
});

export const VehicleIdParams = z.object({
  vehicle_id: z.uuid().meta({ description: 'Identifier of the vehicle.' }),
});

export const VehicleListSchema = pagedListSchema(VehicleSchema, 'VehicleList');
