/** Routes of the `audit-logs` operation group (one Lambda); part of the route table. */
import { AuditLogEntryListSchema, AuditLogListQuery } from '../../domain/audit-logs/audit-log.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

export const auditLogRoutes = [
  {
    operationId: 'audit-logs.list',
    method: 'GET',
    path: '/api/v2/audit-logs',
    group: 'audit-logs',
    summary: 'List audit log entries, newest first',
    tags: ['Audit logs'],
    auth: 'bearer',
    grants: ['audit-logs:read'],
    query: AuditLogListQuery,
    success: { status: 200, description: 'A page of audit entries.', schema: AuditLogEntryListSchema },
  },
] as const satisfies readonly RouteSpec[];
