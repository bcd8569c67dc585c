/** Audit logs: read-only listing of the projection the stream consumer writes. */
import { listAuditLogs } from '../../shared/domain/audit-logs/audit-log.service.ts';
import { createGroupHandler } from '../../shared/http/operation-kernel.ts';
import { routesOf } from '../../shared/routes/route-table.ts';

export const handler = createGroupHandler(routesOf('audit-logs'), {
  'audit-logs.list': async ({ ctx, query }) => ({ body: await listAuditLogs(ctx, query) }),
});
