/** Routes of the `platform` operation group (one Lambda); part of the route table. */
import * as z from 'zod';
import type { RouteSpec } from '../../http/route-spec.ts';
import { referenceAssetNames } from '../../openapi/reference-page.ts';

const ProblemTypeDocSchema = z
  .object({ type: z.url(), title: z.string(), status: z.int().optional(), description: z.string() })
  .meta({ id: 'ProblemTypeDescription' });

const HealthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** The document's own shape, loosely: what a reader can rely on before reading the specification. */
const OpenApiDocumentSchema = z
  .object({
    openapi: z.string().meta({ description: 'The OpenAPI version, 3.1.x.' }),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })).optional(),
    tags: z.array(z.looseObject({ name: z.string() })).optional(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .meta({
    id: 'OpenApiDocument',
    description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0).',
  });

const ReferenceAssetParams = z.object({ asset_name: z.enum(referenceAssetNames) });

export const platformRoutes = [
  {
    operationId: 'platform.health',
    method: 'GET',
    path: '/health',
    group: 'platform',
    summary: 'Liveness check',
    description:
      'Answers `{"status": "ok"}` while the service can take requests. It checks no dependency (data ' +
      'store, identity provider), so use it for liveness, not to probe the stores.',
    examples: { response: { status: 'ok' } },
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
    description:
      'The OpenAPI 3.1 description of every published operation, generated from the route table and ' +
      'its schemas, so it always matches what the service accepts and answers. Caches may keep it for ' +
      'five minutes (`Cache-Control: public, max-age=300`) and revalidate it with its ETag (304 without a ' +
      'body while it is current). Compressed with Brotli or gzip when Accept-Encoding allows (about ' +
      'half a megabyte plain, a tenth of that compressed).',
    examples: {
      response: {
        openapi: '3.1.0',
        info: { title: 'Field Service Management API', version: '2.1.0' },
        paths: { '/api/v2/areas': { get: { operationId: 'areas.list' } } },
        components: { schemas: {} },
      },
    },
    tags: ['Platform'],
    auth: 'none',
    success: {
      status: 200,
      description: 'The OpenAPI document.',
      schema: OpenApiDocumentSchema,
      conditional: true,
    },
  },
  {
    operationId: 'platform.reference-page',
    method: 'GET',
    path: '/api/v2/docs',
    group: 'platform',
    summary: 'API reference page',
    description:
      'The reference of this API for people: Swagger UI, served by the service itself, rendering ' +
      '/api/v2/openapi.json. A page, not an operation: not in the document.',
    examples: {},
    tags: ['Platform'],
    auth: 'none',
    published: false,
    success: { status: 200, description: 'The page (HTML).', contentType: 'text/html', conditional: true },
  },
  {
    operationId: 'platform.reference-asset',
    method: 'GET',
    path: '/api/v2/docs/{asset_name}',
    group: 'platform',
    summary: 'A file of the API reference page',
    description:
      'The script and style files of the reference page (swagger-ui-dist), and its start-up script.',
    examples: {},
    tags: ['Platform'],
    auth: 'none',
    published: false,
    params: ReferenceAssetParams,
    success: { status: 200, description: 'The file.', conditional: true },
  },
  {
    operationId: 'platform.problem-type',
    method: 'GET',
    path: '/problems/{problem_type}',
    group: 'platform',
    summary: 'What a problem type means (every problem type URI resolves here)',
    description:
      'The `type` of every problem document, and of every `errors[].type`, is a URI of this path, so it ' +
      'resolves to what the type means and what to do about it. Problem types carry the HTTP status they ' +
      'are answered with; the types that occur only in `errors[]` (`field-invalid`, `field-unknown`) have ' +
      'no status. An unknown type is 404 not-found. Caches may keep the answer for an hour.',
    examples: {
      response: {
        type: 'https://api.fsm.example/problems/resource-conflict',
        title: 'Resource conflict',
        status: 409,
        description:
          'The lock_version you sent differs from the stored one (someone else changed the record), or a ' +
          'unique value is taken. Re-read, re-apply, retry.',
      },
    },
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
