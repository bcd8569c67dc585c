/** Tenant: the workspace's own record, and its logo and favicon uploads (uploads.ts). */
import * as tenant from '../../shared/domain/tenant/tenant.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import type { GroupImplementation } from '../../shared/http/operation-kernel.ts';
import { tenantRoutes } from '../../shared/routes/groups/tenant.routes.ts';
import { tenantUploadRoutes } from '../../shared/routes/groups/tenant-uploads.routes.ts';
import { uploadOperations } from './uploads.ts';

const tenantOperations: GroupImplementation<(typeof tenantRoutes)[number]> = {
  'tenant.get': async ({ ctx }) => ({ body: await tenant.getTenant(ctx) }),
  'tenant.update': async ({ ctx, body }) => ({ body: await tenant.updateTenant(ctx, body) }),
};

export const handler = createGroupHandler([...tenantRoutes, ...tenantUploadRoutes], {
  ...tenantOperations,
  ...uploadOperations,
});
