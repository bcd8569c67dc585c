/**
 * Routes of the `tenant` operation group (one Lambda): the tenant record (this file) and its
 * logo and favicon uploads (tenant-uploads.routes.ts). Every role reads the tenant (tenant:read);
 * owners and admins change it (tenant:update).
 */
import { TenantSchema, UpdateTenantSchema } from '../../domain/tenant/tenant.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const about =
  'The workspace’s own record: its name (the one the admin plane shows), content language (BCP 47), region ' +
  '(ISO 3166-1 alpha-2), time zone (IANA) and, once uploaded and checked, its logo and favicon as short-lived URLs.';

const tenant = {
  id: '019d2f40-0000-7000-8000-00000000a1b2',
  name: 'Acme Field Service',
  language: 'de-DE',
  region: 'DE',
  timezone: 'Europe/Berlin',
  created_at: '2026-01-12T08:00:00Z',
  updated_at: '2026-05-04T09:12:00Z',
  lock_version: 4,
} as const;

const common = { group: 'tenant', tags: ['Tenant'], auth: 'bearer' } as const;

export const tenantRoutes = [
  {
    ...common,
    grants: ['tenant:read'],
    operationId: 'tenant.get',
    method: 'GET',
    path: '/api/v2/tenant',
    summary: 'Get the tenant',
    description: `${about}\n\nThe workspace of the caller's token.`,
    examples: { response: tenant },
    success: { status: 200, description: 'The tenant.', schema: TenantSchema },
  },
  {
    ...common,
    grants: ['tenant:update'],
    operationId: 'tenant.update',
    method: 'PATCH',
    path: '/api/v2/tenant',
    summary: 'Update the tenant (JSON Merge Patch)',
    description:
      `${about}\n\n` +
      '`name` cannot be null or blank (up to 255 characters). `language`, `region` and `timezone` are cleared with ' +
      'null. `language` is stored as the canonical BCP 47 tag (`DE-de` → `de-DE`); legacy locale forms are ' +
      'normalised (`de_DE` → `de-DE`, `pt_BR` → `pt-BR`, `de_DE.UTF-8` → `de-DE`); an invalid tag, or one longer ' +
      'than 10 characters, is 422. `region` must be an assigned ISO 3166-1 alpha-2 code (any case, stored ' +
      'upper-cased); `timezone` an IANA zone the service knows (stored in its canonical spelling). lock_version ' +
      'as everywhere: equal writes, different is 409, omitted is last-write-wins; it also moves when the platform ' +
      'operator changes the workspace’s state. Emits tenant.updated with the previous values.',
    examples: {
      request: { language: 'de_DE', timezone: 'Europe/Berlin', lock_version: 3 },
      response: tenant,
    },
    body: UpdateTenantSchema,
    mergePatch: true,
    success: { status: 200, description: 'The tenant after the change.', schema: TenantSchema },
  },
] as const satisfies readonly RouteSpec[];
