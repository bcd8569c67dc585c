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
}) satisfies readonly RouteSpec[];
