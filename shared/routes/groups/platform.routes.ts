/** Routes of the `platform` operation group (one Lambda); part of the route table. */
import * as z from 'zod';
import type { RouteSpec } from '../../http/route-spec.ts';

const ProblemTypeDocSchema = z
  .object({ type: z.url(), title: z.string(), status: z.int().optional(), description: z.string() })
  .meta({ id: 'ProblemTypeDescription' });

const HealthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export const platformRoutes = [
  {
    operationId: 'platform.health',
    method: 'GET',
    path: '/health',
    group: 'platform',
    summary: 'Liveness check',
    tags: ['Platform'],
    auth: 'none',
    success: { status: 200, description: 'The service answers.', schema: HealthSchema },
  },
  {
    operationId: 'platform.openapi',
    method: 'GET',
    path: '/api/v2/openapi.json',
    group: 'platform',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Platform'],
    auth: 'none',
    success: { status: 200, description: 'The OpenAPI document.' },
  },
  {
    operationId: 'platform.problem-type',
    method: 'GET',
    path: '/problems/{problem_type}',
    group: 'platform',
    summary: 'What a problem type means (every problem type URI resolves here)',
    tags: ['Platform'],
    auth: 'none',
    params: z.object({ problem_type: z.string() }),
    success: {
      status: 200,
      description: 'The problem type and what to do about it.',
      schema: ProblemTypeDocSchema,
    },
  },
] as const satisfies readonly RouteSpec[];
