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
    description:
      'The audit trail of the workspace: one entry per committed change of its records (areas, skills, ' +
      'tags, users, the workspace itself), newest first, entries of the same instant by event id descending. ' +
      'Entries are written from the outbox of each write, so a change shows up a moment after its ' +
      'response; the API offers no way to edit or remove them.\n\n' +
      '`created_from` (inclusive) and `created_to` (exclusive) bound `created_at`; a bound without a ' +
      'zone is read as UTC, and a `created_to` before `created_from` is 422 validation-failed at ' +
      '`#/created_to`. A page past the end is empty.\n\n' +
      'Each entry names the event (`event_type`, for example `tag.updated`), the record it changed ' +
      '(`resource`), who acted (`actor`: USER with the id of the user or API-client service account ' +
      'behind the token; SYSTEM for the platform operator and for changes the service makes itself, such ' +
      'as blocking a user after failed sign-ins) and the request (`request.id` is the `request-id` ' +
      'response header of the change, `request.correlation_id` its `correlation-id`). `data.object` is ' +
      'the record after the change (as it was, for a delete); an update adds `data.previous_attributes`, ' +
      'the former values of the fields that changed (never `updated_at` or `lock_version`), null where a ' +
      'field had no value.',
    examples: {
      query: 'created_from=2026-06-01T00:00:00Z&created_to=2026-07-01T00:00:00Z&size=50',
      response: {
        items: [
          {
            id: '019eb6fd-f5e4-7b6a-8038-23cf2c3063cf',
            event_type: 'tag.updated',
            created_at: '2026-06-11T14:02:37.412Z',
            actor: { type: 'USER', id: '019a4fab-0780-7b0d-b353-4669efc93eea' },
            request: {
              id: 'b7586c55-02dd-4500-910d-84c4e9bcdec7',
              correlation_id: 'b7586c55-02dd-4500-910d-84c4e9bcdec7',
            },
            resource: { type: 'tag', id: '019c22f5-a978-7283-a8a0-96f767fe08d6' },
            data: {
              object: {
                id: '019c22f5-a978-7283-a8a0-96f767fe08d6',
                name: 'Night shift',
                color: '#1f6feb',
                created_at: '2026-02-03T10:04:11.000Z',
                updated_at: '2026-06-11T14:02:37.412Z',
                lock_version: 2,
                usage_count: 7,
              },
              previous_attributes: { color: '#0b3d91' },
            },
          },
        ],
        page: { size: 50, total_elements: 1, total_pages: 1, number: 0 },
      },
    },
    tags: ['Audit logs'],
    auth: 'bearer',
    grants: ['audit-logs:read'],
    query: AuditLogListQuery,
    success: { status: 200, description: 'A page of audit log entries.', schema: AuditLogEntryListSchema },
  },
] as const satisfies readonly RouteSpec[];
