/** Routes of the `skills` operation group (one Lambda); part of the route table. */
import {
  CreateSkillSchema,
  SkillIdParams,
  SkillListQuery,
  SkillListSchema,
  SkillSchema,
  UpdateSkillSchema,
} from '../../domain/skills/skill.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

/**
 * Every role reads skill definitions (technicians and drivers see what they offer);
 * creating, editing and deleting them needs skills:update (owner, admin).
 */
export const skillRoutes = crudRoutes({
  group: 'skills',
  collection: '/api/v2/skills',
  idParam: 'skill_id',
  singular: 'skill definition',
  plural: 'skill definitions',
  tag: 'Skills',
  readGrants: ['skills:read'],
  writeGrants: ['skills:update'],
  schemas: {
    listQuery: SkillListQuery,
    idParams: SkillIdParams,
    item: SkillSchema,
    list: SkillListSchema,
    create: CreateSkillSchema,
    update: UpdateSkillSchema,
  },
}) satisfies readonly RouteSpec[];
