/** Routes of the `tags` operation group (one Lambda); part of the route table. */
import {
  CreateTagSchema,
  TagIdParams,
  TagListQuery,
  TagListSchema,
  TagSchema,
  UpdateTagSchema,
} from '../../domain/tags/tag.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

/** Every authenticated user reads tags; writing them needs tags:update (SPEC.md). */
export const tagRoutes = crudRoutes({
  group: 'tags',
  collection: '/api/v2/tags',
  idParam: 'tag_id',
  singular: 'tag',
  plural: 'tags',
  tag: 'Tags',
  readGrants: ['tags:read'],
  writeGrants: ['tags:update'],
  schemas: {
    listQuery: TagListQuery,
    idParams: TagIdParams,
    item: TagSchema,
    list: TagListSchema,
    create: CreateTagSchema,
    update: UpdateTagSchema,
  },
}) satisfies readonly RouteSpec[];
