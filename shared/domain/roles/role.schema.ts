/** Role: a named set of grants. Published schema names: Role, RoleList. */
import * as z from 'zod';
import { grantCatalog, roleNames } from '../../auth/grants.ts';

export const RoleSchema = z
  .object({
    id: z.uuid().meta({ description: 'Stable across workspaces: the same role always has the same id.' }),
    name: z.enum(roleNames).meta({ description: "Role name, as a user's `roles` list it." }),
    grants: z.array(z.enum(grantCatalog)).meta({ description: 'Every grant the role gives.' }),
  })
  .meta({ id: 'Role' });

export const RoleListSchema = z
  .object({ items: z.array(RoleSchema) })
  .meta({ id: 'RoleList', description: 'Every role of the workspace; not paginated.' });
