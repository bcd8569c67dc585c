/** Audit logs: read-only listing of the projection the stream consumer writes. */
import { listAuditLogs } from '../../shared/domain/audit-logs/audit-log.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { auditLogRoutes } from '../../shared/routes/groups/audit-logs.routes.ts';

export const handler = createGroupHandler(auditLogRoutes, {
  'audit-logs.list': async ({ ctx, query }) => ({ body: await listAuditLogs(ctx, query) }),
});
