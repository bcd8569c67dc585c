/**
 * Audit log: written by the stream consumer from domain events (audit-log.recorder.ts), read
 * newest first.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { queryFieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import type { AuditLogListQuery } from './audit-log.schema.ts';
import { auditLogStore } from './audit-log.store.ts';
import { AuditLogError } from './audit-log-error.ts';

export async function listAuditLogs(ctx: Actor, query: z.output<typeof AuditLogListQuery>) {
  if (query.created_from && query.created_to && query.created_from > query.created_to) {
    throw new AuditLogError('invalid', {
      fields: [queryFieldError('created_to', 'field-invalid', 'must not be before created_from')],
    });
  }
  const page = query.page ?? 0;
  const size = query.size ?? defaultPageSize;
  const { entries, total } = await auditLogStore
    .of(ctx)
    .listNewestFirst({ from: query.created_from, to: query.created_to }, (page + 1) * size);
  return { items: entries.slice(page * size), page: pageOf(total, { page, size }) };
}
