/** Routes of the `areas` operation group (one Lambda); part of the route table. */
import {
  AreaIdParams,
  AreaListQuery,
  AreaListSchema,
  AreaSchema,
  CreateAreaSchema,
  UpdateAreaSchema,
} from '../../domain/areas/area.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

export const areaRoutes = crudRoutes({
  group: 'areas',
  collection: '/api/v2/areas',
  idParam: 'area_id',
  singular: 'area',
  plural: 'areas',
  tag: 'Areas',
  readGrants: ['areas:read'],
  writeGrants: ['areas:update'],
  schemas: {
    listQuery: AreaListQuery,
    idParams: AreaIdParams,
    item: AreaSchema,
    list: AreaListSchema,
    create: CreateAreaSchema,
    update: UpdateAreaSchema,
  },
  docs: {
    about:
      'An area is a service region of the workspace: a name, a hex colour for maps and boards, and the ' +
      'postal-code ranges it covers (each range inclusive, `from` not above `to`).',
    list: 'Default order: created_at ascending, ties by id. Every change emits area.created, area.updated or area.deleted.',
    create:
      'name and color are required; description is optional; zip_ranges defaults to []. Names need not be ' +
      'unique. The new area starts at lock_version 0.',
    update:
      'description is cleared with null; name, color and zip_ranges cannot be null or blank (422). ' +
      'zip_ranges, when sent, replaces the whole list.',
    delete: 'The area is gone; an area.deleted event records it.',
  },
  examples: {
    item: {
      id: '01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e6f',
      name: 'Berlin North',
      description: 'Reinickendorf and Pankow, served from the Tegel depot.',
      color: '#3366ff',
      zip_ranges: [
        { from: '13403', to: '13599' },
        { from: '13125', to: '13189' },
      ],
      lock_version: 3,
      created_at: '2026-03-02T08:15:00Z',
      updated_at: '2026-06-11T14:02:37Z',
    },
    create: {
      name: 'Berlin North',
      description: 'Reinickendorf and Pankow, served from the Tegel depot.',
      color: '#3366ff',
      zip_ranges: [{ from: '13403', to: '13599' }],
    },
    update: {
      zip_ranges: [
        { from: '13403', to: '13599' },
        { from: '13125', to: '13189' },
      ],
      lock_version: 2,
    },
  },
}) satisfies readonly RouteSpec[];
