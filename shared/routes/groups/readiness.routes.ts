/**
 * The readiness check's route. Like the event stream's (stream.routes.ts), not part of the
 * Lambda route table: the container answers it (bin/serve-container.ts), its load balancer's
 * target group checks it, CloudFront routes `/health/ready` to that load balancer, and `npm start`
 * serves it on the same origin. The OpenAPI document publishes it with the other routes.
 */
import * as z from 'zod';
import type { RouteSpec } from '../../http/route-spec.ts';

export const readinessPath = '/health/ready';

export const readinessCheckNames = ['table', 'queues', 'identity_keys'] as const;

const ReadinessSchema = z
  .object({
    status: z.literal('ready'),
    checks: z.record(z.enum(readinessCheckNames), z.literal('ok')),
  })
  .meta({ id: 'Readiness' });

export const readinessRoutes = [
  {
    operationId: 'platform.ready',
    method: 'GET',
    path: readinessPath,
    group: 'platform',
    summary: 'Readiness check',
    description:
      'Answers 200 when this node can serve: the data store answers a read, the work queues (webhook ' +
      'deliveries, optimization runs) answer, and the identity provider holds signing keys to publish. ' +
      'Any of them failing is a 503 service-unavailable whose detail names it. Results are kept for 5 s, so ' +
      'polling it costs the stores nothing more; `GET /health` checks nothing and stays the liveness check. ' +
      'It takes no query parameter: any is 422 field-unknown at `#/query/<name>`.',
    examples: { response: { status: 'ready', checks: { table: 'ok', queues: 'ok', identity_keys: 'ok' } } },
    tags: ['Platform'],
    auth: 'none',
    errors: [422],
    success: { status: 200, description: 'Every dependency answered.', schema: ReadinessSchema },
  },
] as const satisfies readonly RouteSpec[];
