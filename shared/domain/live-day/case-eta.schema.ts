/** A case's live ETA (GET /api/v2/cases/{case_id}/eta). Published schema name: CaseEta. */
import * as z from 'zod';
import { stopStatuses } from '../tours/tour.schema.ts';

export const CaseEtaSchema = z
  .object({
    eta: z.iso.datetime().meta({
      description: 'When the technician is expected at the door; once they arrived, when they did.',
    }),
    status: z.enum(stopStatuses).meta({ description: 'The case’s stop on the tour: EN_ROUTE, ARRIVED, …' }),
    technician: z
      .object({ first_name: z.string().optional().meta({ description: 'Omitted when the user has none.' }) })
      .meta({ description: 'Who comes: their first name only (the page is the customer’s).' }),
    position_age: z
      .string()
      .optional()
      .meta({
        description:
          'How old the last position behind the eta is (ISO 8601 duration, e.g. PT1M30S); omitted before the ' +
          'first position of the day.',
      }),
    late: z
      .boolean()
      .optional()
      .meta({ description: 'true when the eta passes the case’s window; omitted otherwise.' }),
  })
  .meta({ id: 'CaseEta', description: 'The live arrival estimate of a case on a tour on the road.' });

export type CaseEta = z.infer<typeof CaseEtaSchema>;
