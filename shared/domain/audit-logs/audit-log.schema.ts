/**
 * Audit log entry: the record of one committed change, projected from the domain event.
 */
import * as z from 'zod';
import { dateTime } from '../../http/fields.ts';
import { pagedListSchema } from '../../http/list.ts';
import { paginationQuery } from '../../http/query-params.ts';

export const AuditLogEntrySchema = z
  .object({
    id: z.uuid().meta({ description: 'The id of the domain event (UUIDv7).' }),
    event_type: z.string().meta({ description: 'Event name, e.g. area.created.' }),
    created_at: z.iso.datetime().meta({ description: 'When the change was committed.' }),
    actor: z
      .object({ type: z.enum(['USER', 'SYSTEM']), id: z.uuid().optional() })
      .optional()
      .meta({ description: 'Omitted when not captured.' }),
    request: z.object({ id: z.string(), correlation_id: z.string() }).optional(),
    resource: z.object({ type: z.string(), id: z.string() }),
    data: z.object({
      object: z.record(z.string(), z.unknown()),
      previous_attributes: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'AuditLogEntry' });

export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;

export const AuditLogListQuery = z.object({
  ...paginationQuery,
  created_from: dateTime().optional().meta({ description: 'Inclusive lower bound of created_at.' }),
  created_to: dateTime().optional().meta({ description: 'Exclusive upper bound of created_at.' }),
});

export const AuditLogEntryListSchema = pagedListSchema(AuditLogEntrySchema, 'AuditLogEntryList');
