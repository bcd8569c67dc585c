/** Role: a named set of grants. Published schema names: Role, RoleList. */
import * as z from 'zod';
import { grantCatalog, roleNames } from '../../auth/grants.ts';

export const RoleSchema = z
  .object({
    id: z.uuid().meta({ description: 'Stable across workspaces: the same role always has the same id.' }),
    name: z.enum(roleNames),
    grants: z.array(z.enum(grantCatalog)),
  })
  .meta({ id: 'Role' });

export const RoleListSchema = z
  .object({ items: z.array(RoleSchema) })
  .meta({ id: 'RoleList', description: 'Every role of the workspace; not paginated.' });
