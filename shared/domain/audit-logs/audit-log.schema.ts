/**
 * Audit log entry: the record of one committed change, projected from the domain event.
 */
import * as z from 'zod';
import { dateTime } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery } from '../../schema/query-params.ts';

export const AuditLogEntrySchema = z
  .object({
    id: z.uuid().meta({ description: 'The id of the domain event (UUIDv7).' }),
    event_type: z.string().meta({ description: 'Event name, e.g. area.created.' }),
    created_at: z.iso.datetime().meta({ description: 'When the change was committed.' }),
    actor: z
      .object({
        type: z.enum(['USER', 'SYSTEM']).meta({
          description:
            'USER: a user or an API client acting with its token; SYSTEM: the platform operator or the ' +
            'service itself.',
        }),
        id: z
          .uuid()
          .optional()
          .meta({ description: 'USER only: the user, or the service account of the API client.' }),
      })
      .optional()
      .meta({ description: 'Omitted when not captured.' }),
    request: z
      .object({
        id: z
          .string()
          .meta({ description: 'The `request-id` response header of the request that made the change.' }),
        correlation_id: z.string().meta({
          description: 'The `correlation-id` of that request: the one the caller sent, else the request id.',
        }),
      })
      .optional()
      .meta({ description: 'The request that made the change; omitted for changes made outside a request.' }),
    resource: z
      .object({
        type: z.string().meta({ description: 'Resource type, e.g. area, tag, user, tenant.' }),
        id: z.string().meta({ description: 'Identifier of the changed record.' }),
      })
      .meta({ description: 'The record the change is about.' }),
    data: z.object({
      object: z
        .record(z.string(), z.unknown())
        .meta({ description: 'The record after the change, as the API shows it; as it was, for a delete.' }),
      previous_attributes: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({
          description:
            'Updates only: the former values of the fields that changed (never updated_at or lock_version); ' +
            'null where the field had no value.',
        }),
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
