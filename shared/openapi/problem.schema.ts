/**
 * The published shape of RFC 9457 problem documents.
 */
import * as z from 'zod';

export const ProblemSchema = z
  .object({
    type: z.url().meta({ description: 'Stable problem type URI; with status, the contract to branch on.' }),
    title: z.string().meta({ description: 'Human-readable; never branch on it.' }),
    status: z.int().min(100).max(599).meta({ description: 'The HTTP status of the answer.' }),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z
      .array(
        z.object({
          type: z.url(),
          title: z.string(),
          detail: z.string(),
          pointer: z.string().meta({
            description: 'JSON pointer into the body, e.g. #/tag_ids/0; #/query/<name> for query parameters.',
          }),
          parameter: z.string().optional().meta({
            description: 'Set when the error is about a query or path parameter (also data.parameter).',
          }),
          data: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .optional(),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Open object; check presence before reading data.reason.' }),
  })
  .meta({ id: 'Problem' });
