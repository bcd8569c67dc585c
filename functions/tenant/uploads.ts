/** Logo and favicon uploads of the tenant group: parse, call the domain, respond. */
import * as uploads from '../../shared/domain/tenant/upload-intent.service.ts';
import type { GroupImplementation } from '../../shared/http/operation-kernel.ts';
import type { tenantUploadRoutes } from '../../shared/routes/groups/tenant-uploads.routes.ts';

export const uploadOperations: GroupImplementation<(typeof tenantUploadRoutes)[number]> = {
  'tenant.logo_uploads.create': async ({ ctx, body }) => {
    const intent = await uploads.createUpload(ctx, 'logo', body);
    return { body: intent, location: `/api/v2/tenant/logo-uploads/${intent.file_id}` };
  },
  'tenant.logo_uploads.get': async ({ ctx, params }) => ({
    body: await uploads.getUploadStatus(ctx, 'logo', params.file_id),
  }),
  'tenant.logo.delete': async ({ ctx }) => {
    await uploads.removeTenantAsset(ctx, 'logo');
    return {};
  },
  'tenant.favicon_uploads.create': async ({ ctx, body }) => {
    const intent = await uploads.createUpload(ctx, 'favicon', body);
    return { body: intent, location: `/api/v2/tenant/favicon-uploads/${intent.file_id}` };
  },
  'tenant.favicon_uploads.get': async ({ ctx, params }) => ({
    body: await uploads.getUploadStatus(ctx, 'favicon', params.file_id),
  }),
  'tenant.favicon.delete': async ({ ctx }) => {
    await uploads.removeTenantAsset(ctx, 'favicon');
    return {};
  },
};
